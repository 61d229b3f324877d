import Foundation
import SpotIndex
import SpotPipeline
import SpotReport

@testable import SpotRefresh

/// A fresh folder for one test, removed by `remove()`.
struct TestFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("SpotRefreshTests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` as the file `name` and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The text of the file `name`, or nil when there is none.
    func contents(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A small city as OSM XML: `cafes` cafés then `restaurants` restaurants, each with a name of
/// its own (so that none is merged), 100 m apart, their ids from `firstID`.
func city(cafes: Int, restaurants: Int = 0, firstID: Int = 1) -> String {
    var xml = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\">\n"
    for number in 0..<(cafes + restaurants) {
        let kind = number < cafes ? "cafe" : "restaurant"
        let id = firstID + number
        xml += """
              <node id="\(id)" lat="\(60.1 + Double(number) * 0.001)" lon="24.9">\
            <tag k="amenity" v="\(kind)"/><tag k="name" v="Place \(id)"/></node>

            """
    }
    return xml + "</osm>\n"
}

/// Builds the OSM XML `xml` with the default pipeline into the index `name` in `folder`, and
/// returns the index's path.
func buildIndex(_ xml: String, named name: String, in folder: TestFolder) throws -> String {
    var pipeline = try Pipeline.defaults()
    pipeline.inputs = [try folder.write(xml, to: name + ".osm")]
    let (bytes, _) = try SpotBuild(pipeline: pipeline, threads: 1).run()
    let path = folder.path(name + ".spots")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// The report on the index at `after` against the one at `before`, falls measured against
/// `maxDrop`, as a refresh makes it.
func report(_ after: String, against before: String?, maxDrop: Double) throws -> Report {
    try Report(index: SpotIndexReader(path: after), against: before.map(SpotIndexReader.init), maxDrop: maxDrop)
}

/// A folder with a pipeline file, city.json: input city.osm, output out/city.spots.
struct RefreshFolder {
    let folder: TestFolder
    var pipelineFile: String { folder.path("city.json") }

    init(keep: Int = 3) throws {
        folder = try TestFolder()
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try folder.write(#"{"inputs": ["city.osm"], "output": "out/city.spots", "keep": \#(keep)}"#, to: "city.json")
    }

    /// A refresh of the pipeline file as it is now.
    func refresh(force: Bool = false) throws -> Refresh {
        let log = RefreshLog(format: .json) { _ in }
        return try Refresh(pipeline: try Pipeline.load(pipelineFile), log: log, force: force, threads: 1)
    }

    /// The metadata of the published index.
    func publishedMetadata() throws -> IndexMetadata {
        try SpotIndexReader(path: folder.path("out/city.spots")).metadata()
    }
}
