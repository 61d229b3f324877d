import Foundation
import SpotTestSupport
import Testing

/// What `build` and `inspect` say to a person: what was made first, the reader's internals and
/// the sections only when asked (`--verbose`); a build that keeps nothing warns; pipeline files
/// are JSON read strictly.
@Suite("Output for people first: build's summary, inspect, warnings, strict pipeline files")
struct PeopleFirstOutputTests {
    static let himejiPBF = SpotsCLI.root.appendingPathComponent("Samples/himeji-castle.osm.pbf").path

    @Test("build's line says what it made, from which inputs, in how long; -v adds how it read them")
    func buildSummary() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("city.spots")
            let run = try SpotsCLI.run(["build", helsinki, Self.himejiPBF, "-o", index])
            #expect(run.status == 0)
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 1, "\(run.stderr)")
            let line = try #require(lines.last)
            #expect(line.hasPrefix("spots: wrote \(index): 785 spots (692 in MapKit categories, 93 in Spots' own), "))
            #expect(
                line.contains(
                    " KB, from helsinki-center.osm.gz and himeji-castle.osm.pbf "
                        + "(24,273 nodes, 5,131 ways, 620 relations), in "))
            #expect(line.hasSuffix(" s") && !line.contains("pieces"))
            let verbose = try SpotsCLI.run(["build", helsinki, Self.himejiPBF, "-o", index, "-O", "--verbose"])
            let read = try #require(verbose.stderr.split(separator: "\n").last.map(String.init))
            #expect(
                read.hasPrefix("spots: read XML in ") && read.contains(" parsed apart ") && read.contains("; PBF in "))
        }
    }

    @Test("a build that keeps no spot writes its index, exits 0 and warns, even with -q")
    func emptyBuildWarns() throws {
        try withTemporaryFolder { folder in
            let input = try folder.write("<osm version=\"0.6\"><node id=\"1\" lat=\"1\" lon=\"1\"/></osm>", to: "e.osm")
            let index = folder.path("empty.spots")
            let run = try SpotsCLI.run(["build", input, "-o", index, "-q"])
            #expect(run.status == 0)
            #expect(
                run.stderr
                    == "spots: warning: \(index) has no spots: no object of the inputs was kept "
                    + "(selecting amenity, tourism)\n")
            #expect(FileManager.default.fileExists(atPath: index))
        }
    }

    @Test("inspect leads with the counts, extent and data timestamp; sections only with -v; the verdict last")
    func inspectOrder() throws {
        try withSampleIndex { _, index in
            let plain = try SpotsCLI.run(["inspect", index])
            #expect(plain.status == 0)
            let labels = plain.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
            #expect(Array(labels.prefix(4)) == ["index", "spots", "categories", "result"])
            #expect(labels.contains("bbox") && labels.contains("data") && !labels.contains("section"))
            #expect(!labels.contains("format") && !labels.contains("built"))
            #expect(plain.output.split(separator: "\n").last == "checksums         ok")
            let verbose = try SpotsCLI.run(["inspect", index, "-v"]).output
            #expect(verbose.contains("\nformat ") && verbose.contains("\nsection META "))
            #expect(verbose.hasSuffix("checksums         ok\n"))
        }
    }

    @Test("the read counters are named for what was read: xml_bytes for XML, pbf_bytes for PBF")
    func inputByteCounters() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("pbf.spots")
            #expect(try SpotsCLI.run(["build", Self.himejiPBF, "-o", index, "-q"]).status == 0)
            let statistics = try #require(
                try SpotsCLI.run(["inspect", index]).output.split(separator: "\n").first {
                    $0.hasPrefix("statistics ")
                })
            #expect(statistics.contains("pbf_bytes ") && !statistics.contains("xml_bytes"))
        }
    }

    @Test("a pipeline file with a trailing comma is refused with its line and column, exit 78")
    func strictPipelineFiles() throws {
        try withTemporaryFolder { folder in
            let pipeline = try folder.write("{\n  \"keep\": 3,\n  \"dedupe\": {\"radius\": 30,}\n}\n", to: "city.json")
            let run = try SpotsCLI.run(["build", helsinki, "-o", folder.path("x.spots"), "--pipeline", pipeline])
            #expect(run.status == 78)
            #expect(
                run.stderr
                    == "spots: \(pipeline): not valid JSON: line 3, column 27 (in .dedupe): "
                    + "expected a key in double quotes\n")
            #expect(!FileManager.default.fileExists(atPath: folder.path("x.spots")))
        }
    }
}
