import Foundation
import SpotJSON

/// The raster tiles the map page draws under its pins: none (the page then draws its own
/// background: the index's box, a graticule, a scale bar), a tile server's URL template, or a
/// folder of `{z}/{x}/{y}.png` tiles that the server itself answers at `/tiles/…` (a page
/// served over HTTP cannot read `file://`). `/v1/basemap` tells the page which.
public struct Basemap: Sendable {
    /// Where tiles come from.
    public enum Source: Sendable, Equatable {
        case none
        /// A tile server: `https://tile.example.org/{z}/{x}/{y}.png`.
        case server(urlTemplate: String)
        /// A folder of `{z}/{x}/{y}.png`, its highest zoom the largest `{z}` folder.
        case folder(path: String, maxZoom: Int)
    }

    /// A folder of tiles that cannot be served.
    public struct FolderError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The path the page asks a folder's tiles at.
    static let folderTemplate = "/tiles/{z}/{x}/{y}.png"
    /// The most zoom levels a tile pyramid has.
    static let maximumZoom = 24

    public let source: Source
    /// The credit the page shows for the tiles (a tile server's usage policy asks for one).
    public let attribution: String

    /// No tiles: the page draws its own background.
    public init() {
        source = .none
        attribution = ""
    }

    /// Tiles from the tile server of `urlTemplate`, credited with `attribution`.
    public init(urlTemplate: String, attribution: String) {
        source = .server(urlTemplate: urlTemplate)
        self.attribution = attribution
    }

    /// Tiles from the folder at `path`, which must hold at least one `{z}` folder.
    public init(folder path: String, attribution: String) throws(FolderError) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw FolderError(description: "\(path): not a readable folder")
        }
        guard let maxZoom = names.compactMap(Int.init).filter((0...Self.maximumZoom).contains).max() else {
            throw FolderError(description: "\(path): holds no {z}/{x}/{y}.png tiles (no folder named 0 to 24)")
        }
        source = .folder(path: path, maxZoom: maxZoom)
        self.attribution = attribution
    }

    /// `/v1/basemap`'s answer: `{"tiles":null}`, or the tiles' `url` template, `attribution`
    /// and `max_zoom` (the highest zoom tiles exist for; the page enlarges them beyond).
    var description: [UInt8] {
        let tiles: JSONValue
        switch source {
        case .none:
            tiles = .null
        case .server(let template):
            tiles = .object(["url": .string(template), "attribution": .string(attribution), "max_zoom": .number(19)])
        case .folder(_, let maxZoom):
            tiles = .object([
                "url": .string(Self.folderTemplate), "attribution": .string(attribution),
                "max_zoom": .number(Double(maxZoom)),
            ])
        }
        return Array(JSONValue.object(["tiles": tiles]).text(.compact).utf8)
    }

    /// The answer to `/tiles/{z}/{x}/{y}.png`: the folder's tile, or 404.
    func tile(z: Int, x: Int, y: Int) -> HTTPResponse {
        guard case .folder(let path, _) = source else {
            return RequestRouter.refusal(status: 404, "this server has no tile folder (spots serve --tiles-dir)")
        }
        guard let data = FileManager.default.contents(atPath: "\(path)/\(z)/\(x)/\(y).png") else {
            return RequestRouter.refusal(status: 404, "no tile \(z)/\(x)/\(y)")
        }
        var response = HTTPResponse(status: 200, contentType: "image/png", body: Array(data))
        response.headers = [("Cache-Control", "max-age=86400")]
        return response
    }
}
