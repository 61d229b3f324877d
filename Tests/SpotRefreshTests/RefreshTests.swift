import Foundation
import SpotTestSupport
import Testing

@testable import SpotRefresh

@Suite("Refresh")
struct RefreshTests {
    @Test("a refresh of unchanged inputs builds nothing; --force and a changed input publish again")
    func skipsUnchanged() throws {
        let job = try RefreshFolder()
        defer { job.folder.remove() }
        try job.folder.write(cityXML(cafes: 3), to: "city.osm")
        guard case .published = try job.refresh().run().outcome else {
            Issue.record("expected a first publication")
            return
        }
        guard case .unchanged(let spots) = try job.refresh().run().outcome else {
            Issue.record("expected no build")
            return
        }
        #expect(spots == 3)
        guard case .published = try job.refresh(force: true).run().outcome else {
            Issue.record("expected --force to build")
            return
        }
        try job.folder.write(cityXML(cafes: 4), to: "city.osm")
        guard case .published(let report, _) = try job.refresh().run().outcome else {
            Issue.record("expected a build")
            return
        }
        #expect(report.coverage.total == 4 && report.diff?.total.before == 3)
        #expect(FileManager.default.fileExists(atPath: job.folder.path("out/city.2.spots")))
    }

    @Test("a build the gates refuse is kept as NAME.rejected.spots; the published index stays")
    func keepsRejected() throws {
        let job = try RefreshFolder()
        defer { job.folder.remove() }
        try job.folder.write(cityXML(cafes: 10), to: "city.osm")
        _ = try job.refresh().run()
        let published = try Data(contentsOf: URL(fileURLWithPath: job.folder.path("out/city.spots")))
        try job.folder.write(cityXML(cafes: 5), to: "city.osm")
        let refresh = try job.refresh()
        guard case .rejected(_, let reasons) = try refresh.run().outcome else {
            Issue.record("expected a refusal")
            return
        }
        #expect(reasons.first == "spots fell from 10 to 5, more than gates.max_drop 0.2")
        #expect(FileManager.default.fileExists(atPath: refresh.rejectedPath))
        #expect(try Data(contentsOf: URL(fileURLWithPath: job.folder.path("out/city.spots"))) == published)
    }
}
