import Foundation
import SpotTestSupport
import Testing

/// One hand-written fixture and its expected outcome, from Tests/Fixtures/osm/fixtures.json.
struct Fixture: CustomTestStringConvertible, Sendable {
    let file: String
    let entry: Int

    var testDescription: String { file }
    var path: String { SpotsCLI.fixtures.appendingPathComponent(file).standardizedFileURL.path }
    var json: [String: Any] { Self.manifest[entry] }

    nonisolated(unsafe) private static let manifest: [[String: Any]] = {
        let url = SpotsCLI.fixtures.appendingPathComponent("fixtures.json")
        return (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [[String: Any]] ?? []
    }()
    static let all = manifest.indices.map { Fixture(file: manifest[$0]["file"] as! String, entry: $0) }
    static let accepted = all.filter { $0.json["error"] == nil }
    static let refused = all.filter { $0.json["error"] != nil }
}

@Suite("Hand-written fixtures: every legal spelling is read, every refusal is refused")
struct FixtureTests {
    @Test("the manifest lists fixtures") func manifestIsNotEmpty() {
        #expect(Fixture.accepted.count >= 12)
        #expect(Fixture.refused.count >= 10)
    }

    @Test("legal spellings give exactly the expected spots", arguments: Fixture.accepted)
    func readsLegalSpelling(_ fixture: Fixture) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spots = try SpotsCLI.buildAndExport([fixture.path], in: folder)
        let expected = fixture.json["spots"] as! [[String: Any]]
        let byID = Dictionary(uniqueKeysWithValues: spots.map { (($0["osm_id"] as! NSNumber).int64Value, $0) })
        #expect(Set(byID.keys) == Set(expected.map { ($0["osm_id"] as! NSNumber).int64Value }))
        for want in expected {
            let id = (want["osm_id"] as! NSNumber).int64Value
            guard let got = byID[id] else { continue }
            #expect(sevenDecimals(got["lat"]) == want["lat"] as? String, "lat of \(id)")
            #expect(sevenDecimals(got["lon"]) == want["lon"] as? String, "lon of \(id)")
            #expect(got["tag"] as? String == want["tag"] as? String, "tag of \(id)")
            #expect(got["name"] as? String == want["name"] as? String, "name of \(id)")
            #expect(got["names"] as? [String: String] == (want["names"] as? [String: String] ?? [:]), "names of \(id)")
            #expect(
                got["address"] as? [String: String] == (want["address"] as? [String: String] ?? [:]), "address of \(id)"
            )
            #expect(got["osm_type"] as? String == "node")
        }
        if let statistics = fixture.json["stats"] as? [String: Int] {
            let inspect = try SpotsCLI.run(["inspect", folder.path("out.spots")])
            for (name, count) in statistics { #expect(inspect.output.contains("\(name) \(count)")) }
        }
    }

    @Test("refusals exit 65 with one line naming file, place and reason", arguments: Fixture.refused)
    func refusesBadInput(_ fixture: Fixture) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("out.spots")
        let run = try SpotsCLI.run(["build", fixture.path, "-o", output, "--quiet"])
        let error = fixture.json["error"] as! [String: Any]
        #expect(run.status == Int32((error["exit"] as! NSNumber).intValue))
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one error line, got: \(run.stderr)")
        #expect(run.stderr.hasPrefix("spots: \(fixture.path): "))
        #expect(run.stderr.contains(error["message"] as! String))
        if let line = error["line"] as? NSNumber, let column = error["column"] as? NSNumber {
            #expect(run.stderr.contains("line \(line), column \(column): "))
        }
        if let byte = error["byte"] as? NSNumber {
            #expect(run.stderr.contains("byte \(byte): "))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "nothing left behind")
    }
}
