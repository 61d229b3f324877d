import Foundation

/// The map page `spots serve` answers at `/`: the files of Web/ (its HTML, style, modules and
/// the vendored Leaflet and Leaflet.markercluster), compiled into the binary by the EmbedFiles
/// plugin, so the page needs nothing installed and nothing from the network. Each file carries
/// an entity tag of its bytes: a browser revalidates (`Cache-Control: no-cache`) and is
/// answered 304 while it holds the same bytes.
enum WebPage {
    /// One file of the page.
    struct File: Sendable {
        let body: [UInt8]
        let contentType: String
        /// `"…"`: a hash of the bytes (FNV-1a, 64 bits), the same for the same bytes.
        let entityTag: String
    }

    /// The page's files by name (`index.html`, `app.js`, `leaflet.js`, …).
    static let files: [String: File] = EmbeddedFiles.contents.reduce(into: [:]) { files, entry in
        let body = Array(entry.value.utf8)
        files[entry.key] = File(body: body, contentType: contentType(of: entry.key), entityTag: entityTag(of: body))
    }

    /// The answer for the file `name` to a request holding `ifNoneMatch`, or nil when the page
    /// has no such file.
    static func answer(_ name: String, ifNoneMatch: String?) -> HTTPResponse? {
        guard let file = files[name] else { return nil }
        let unchanged =
            ifNoneMatch?.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces) == file.entityTag
            } ?? false
        var response = HTTPResponse(
            status: unchanged ? 304 : 200, contentType: file.contentType, body: unchanged ? [] : file.body)
        response.headers = [
            ("ETag", file.entityTag), ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
        ]
        if name == "index.html" {
            // Tiles may come from any server the operator names; everything else from this one.
            response.headers.append(
                (
                    "Content-Security-Policy",
                    "default-src 'self'; img-src * data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
                ))
        }
        return response
    }

    private static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        default: "text/plain; charset=utf-8"
        }
    }

    private static func entityTag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return "\"" + String(hash, radix: 16) + "\""
    }
}
