import Foundation
import SpotPipeline
import SpotTestSupport
import Testing

@testable import SpotRefresh

@Suite("Unchanged check")
struct UnchangedTests {
    @Test("the published index is a build of the same inputs and pipeline file; a changed input is not")
    func recognizesItsBuild() throws {
        let job = try RefreshFolder()
        defer { job.folder.remove() }
        try job.folder.write(cityXML(cafes: 3), to: "city.osm")
        guard case .published = try job.refresh().run().outcome else {
            Issue.record("expected a first publication")
            return
        }
        let metadata = try job.publishedMetadata()
        #expect(try Pipeline.load(job.pipelineFile).built(metadata))
        // Same size, other bytes.
        try job.folder.write(cityXML(cafes: 3).replacingOccurrences(of: "Place 1\"", with: "Place 9\""), to: "city.osm")
        #expect(try !Pipeline.load(job.pipelineFile).built(metadata))
    }

    @Test("another pipeline file is not the published index's, even with the same inputs")
    func noticesPipelineChange() throws {
        let job = try RefreshFolder()
        defer { job.folder.remove() }
        try job.folder.write(cityXML(cafes: 3), to: "city.osm")
        _ = try job.refresh().run()
        try job.folder.write(#"{"inputs": ["city.osm"], "output": "out/city.spots", "keep": 4}"#, to: "city.json")
        #expect(try !Pipeline.load(job.pipelineFile).built(try job.publishedMetadata()))
    }
}
