import Foundation
import SpotIndex
import SpotPipeline
import SpotReport
import SpotTestSupport

@testable import SpotRefresh

/// Builds the OSM XML `xml` with the default pipeline into the index `name` in `folder`, and
/// returns the index's path.
func buildIndex(_ xml: String, named name: String, in folder: TemporaryFolder) throws -> String {
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
    try Report(
        index: SpotIndexReader(path: after),
        against: before.map { (path) throws(IndexError) in try SpotIndexReader(path: path) }, maxDrop: maxDrop)
}

/// A folder with a pipeline file, city.json: input city.osm, output out/city.spots.
struct RefreshFolder {
    let folder: TemporaryFolder
    var pipelineFile: String { folder.path("city.json") }

    init(keep: Int = 3) throws {
        folder = try TemporaryFolder()
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
