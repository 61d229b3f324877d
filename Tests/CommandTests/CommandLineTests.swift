import Foundation
import SpotTestSupport
import Testing

/// The embedded real sample, always present.
let helsinki = SpotsCLI.root.appendingPathComponent("Samples/helsinki-center.osm.gz").path
let himeji = SpotsCLI.root.appendingPathComponent("Samples/himeji-castle.osm").path

@Suite("The spots command end to end")
struct CommandLineTests {
    @Test("build then export round-trips the sample in all three formats")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spots = try SpotsCLI.buildAndExport([helsinki], in: folder)
        #expect(spots.count == 1110)
        #expect(Set(spots.map { $0["osm_type"] as! String }) == ["node"])
        let index = folder.path("out.spots")

        let geojson = try SpotsCLI.run(["export", index, "--format", "geojson"])
        let collection = try #require(JSONSerialization.jsonObject(with: geojson.stdout) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == 1110)
        let first = try #require(features.first?["properties"] as? [String: Any])
        #expect(first["osm_id"] as? NSNumber == spots[0]["osm_id"] as? NSNumber)

        let csvPath = folder.path("spots.csv")
        let csv = try SpotsCLI.run(["export", index, "--format=csv", "-o", csvPath])
        #expect(csv.status == 0 && csv.stdout.isEmpty)
        let rows = try String(contentsOfFile: csvPath, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(
            rows.first
                == "osm_type,osm_id,lat,lon,category,mapkit_category,kind,tag,result_type,name,display_name,phone,"
                + "website,opening_hours,cuisine,wikidata,wikipedia,brand,operator,ele,address"
        )
        #expect(rows.filter { $0.hasPrefix("node,") }.count == 1110)
    }

    @Test("the Japanese sample keeps its names, localized names and category")
    func keepsJapaneseNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spots = try SpotsCLI.buildAndExport([himeji], in: folder)
        let castle = try #require(spots.first { ($0["names"] as? [String: String])?["en"] == "Himeji Castle" })
        #expect(castle["name"] as? String == "姫路城")
        #expect(castle["wikidata"] as? String == "Q188754")
        #expect(
            spots.contains {
                $0["category"] as? String == "cafe" && $0["mapkit_category"] as? String == "MKPOICategoryCafe"
            })
    }

    @Test("the same inputs give a byte-identical index; SOURCE_DATE_EPOCH sets the build time")
    func buildsReproducibly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = folder.path("a.spots")
        let b = folder.path("b.spots")
        #expect(try SpotsCLI.run(["build", helsinki, "-o", a, "-q"]).status == 0)
        #expect(try SpotsCLI.run(["build", helsinki, "-o", b, "-q"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
        #expect(try SpotsCLI.run(["inspect", a]).output.contains("2019-04-21T09:50:14Z"))
        #expect(
            try SpotsCLI.run(
                ["build", helsinki, "-o", b, "-O", "-q"], environment: ["SOURCE_DATE_EPOCH": "1700000000"]
            )
            .status == 0)
        #expect(try SpotsCLI.run(["inspect", b]).output.contains("2023-11-14T22:13:20Z"))
    }

    @Test("an object met in two inputs is one record")
    func foldsRepeatedObjects() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spots = try SpotsCLI.buildAndExport([helsinki, himeji, helsinki], in: folder)
        #expect(spots.count == 1110 + 10)
        #expect(Set(spots.map { $0["osm_id"] as! NSNumber }).count == spots.count)
        let inspect = try SpotsCLI.run(["inspect", folder.path("out.spots")])
        #expect(inspect.output.contains("repeated_objects 1,110"))
    }

    @Test("inspect shows the header, counts, extent and checksum verdict")
    func inspects() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let index = folder.path("h.spots")
        #expect(
            try SpotsCLI.run(["build", helsinki, "-o", index, "-q", "--keep-all", "--no-dedupe", "--no-areas"]).status
                == 0)
        let run = try SpotsCLI.run(["inspect", index, "--verbose"])
        #expect(run.status == 0)
        for expected in [
            "spots index version 6", "1,110 (1,110 nodes, 0 ways, 0 relations)",
            "24.9351775,60.1641624,24.9533937,60.1790339", "section SPOT", "stage read", "checksums",
        ] {
            #expect(run.output.contains(expected), "inspect lacks \(expected)")
        }
    }

    @Test("a damaged index is refused with exit 65 by inspect and export")
    func refusesDamagedIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let index = folder.url.appendingPathComponent("h.spots")
        #expect(try SpotsCLI.run(["build", helsinki, "-o", index.path, "-q", "--keep-all", "--no-dedupe"]).status == 0)
        var bytes = try Data(contentsOf: index)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: index)
        let inspect = try SpotsCLI.run(["inspect", index.path])
        #expect(inspect.status == 65)
        #expect(inspect.stderr.hasPrefix("spots: \(index.path): ") && inspect.stderr.hasSuffix(": checksum mismatch\n"))
        #expect(inspect.stderr.split(separator: "\n").count == 1)
        #expect(try SpotsCLI.run(["export", index.path]).status == 65)
        try bytes.prefix(1000).write(to: index)
        let truncated = try SpotsCLI.run(["export", index.path])
        #expect(truncated.status == 65)
        #expect(truncated.stderr.contains("header: file is 1000 bytes"))
        try Data("not an index".utf8).write(to: index)
        #expect(try SpotsCLI.run(["inspect", index.path]).status == 65)
    }

    @Test("exit codes: 66 missing input, 73 uncreatable output, 64 usage")
    func exitCodes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("o.spots")
        let missing = try SpotsCLI.run(["build", folder.path("nope.osm"), "-o", out])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasSuffix("nope.osm: No such file or directory\n"))
        #expect(try SpotsCLI.run(["build", folder.url.path, "-o", out]).status == 66)
        #expect(try SpotsCLI.run(["export", folder.path("nope.spots")]).status == 66)
        let uncreatable = try SpotsCLI.run(["build", himeji, "-o", "/nonexistent-dir/o.spots"])
        #expect(uncreatable.status == 73)
        #expect(uncreatable.stderr.hasPrefix("spots: /nonexistent-dir/o.spots: "))
        for arguments in [
            ["build", himeji], ["build", "-o", out], ["build", himeji, "-o", out, "--frobnicate"],
            ["export", out, "--format", "xml"], ["export"], ["inspect", out, out], ["nonsense"], [],
        ] {
            let run = try SpotsCLI.run(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("spots: "), "\(arguments)")
        }
        let unknown = try SpotsCLI.run(["build", himeji, "-o", out, "--frobnicate"])
        #expect(unknown.stderr.contains("unknown option '--frobnicate'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("a failed build leaves the previous output untouched and no temporary file")
    func failureKeepsPreviousOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.url.appendingPathComponent("city.spots")
        try Data("previous".utf8).write(to: out)
        let broken = SpotsCLI.fixtures.appendingPathComponent("truncated.osm.gz").path
        #expect(try SpotsCLI.run(["build", himeji, broken, "-o", out.path, "-O"]).status == 65)
        #expect(try Data(contentsOf: out) == Data("previous".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["city.spots"])
        // A temporary file left by a killed run (a pid that cannot exist) is removed by the next run.
        let stale = folder.url.appendingPathComponent(".city.spots.tmp.2147483646")
        try Data("stale".utf8).write(to: stale)
        #expect(try SpotsCLI.run(["build", himeji, "-o", out.path, "-O", "-q"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["city.spots"])
    }

    @Test("every subcommand has help in the swift-argument-parser layout", arguments: ["build", "export", "inspect"])
    func help(_ command: String) throws {
        let run = try SpotsCLI.run([command, "--help"])
        #expect(run.status == 0)
        for heading in ["OVERVIEW: ", "USAGE: spots \(command)", "OPTIONS:", "-h, --help"] {
            #expect(run.output.contains(heading))
        }
        #expect(try SpotsCLI.run(["help", command]).output == run.output)
    }
}
