import Foundation
import SpotPipeline
import SpotTestSupport
import Testing

@testable import SpotRefresh

/// What a run records beside the index: which index a count is of, why a run failed, and the
/// pipeline file by its name.
@Suite("Status and metrics: counts by index, failure reasons; the pipeline recorded by name")
struct FailureRecordTests {
    @Test("a status with a refused build and a reason reads back as written; the metrics carry the reason")
    func statusRoundTrip() throws {
        try withTemporaryFolder { folder in
            let status = RefreshStatus(
                pipeline: "city", outcome: .failed, exitCode: 69, time: "2026-12-06T03:17:00Z", durationSeconds: 0.5,
                index: "/data/city.spots", spots: 60,
                refused: RefreshStatus.Refused(index: "/data/city.rejected.spots", spots: 50),
                reason: "https://example.org/city.osm.gz: download failed (curl exit 22), \"again\"", inputs: [],
                gateFailures: [], held: false, dropGateOverridden: false, lastSuccess: nil)
            try status.write(to: folder.path("city.status.json"))
            #expect(RefreshStatus.read(folder.path("city.status.json")) == status)
            let metrics = RefreshMetrics.text(of: status)
            #expect(
                metrics.contains(
                    #"spots_refresh_failure_info{pipeline="city",reason="https://example.org/city.osm.gz: download failed (curl exit 22), \"again\""} 1"#
                ))
            var succeeded = status
            succeeded.outcome = .published
            succeeded.reason = nil
            #expect(!RefreshMetrics.text(of: succeeded).contains("spots_refresh_failure_info{"))
        }
    }

    @Test("the index records the pipeline file by name; the same file by another path is unchanged, a renamed one not")
    func pipelineByName() throws {
        let job = try RefreshFolder()
        defer { job.folder.remove() }
        try job.folder.write(cityXML(cafes: 3), to: "city.osm")
        _ = try job.refresh().run()
        let metadata = try job.publishedMetadata()
        #expect(metadata.pipeline?.file == "city.json")
        let other = job.folder.url.appendingPathComponent("out/../city.json").path
        #expect(try Pipeline.load(other).built(metadata))
        try FileManager.default.copyItem(atPath: job.pipelineFile, toPath: job.folder.path("town.json"))
        #expect(try !Pipeline.load(job.folder.path("town.json")).built(metadata))
    }
}
