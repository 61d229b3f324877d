import Foundation
import SpotTestSupport
import Testing

@Suite("Pipelines, categories and deduplication end to end")
struct PipelineCommandTests {
    @Test("--pipeline builds the inputs and output it names, relative to its folder; the command line overrides them")
    func buildsFromPipelineFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("pipelines"), withIntermediateDirectories: true)
        let pipeline = folder.url.appendingPathComponent("pipelines/city.json")
        try Data(#"{"inputs": ["\#(himeji)"], "output": "../city.spots", "dedupe": {"radius": 10}}"#.utf8).write(
            to: pipeline)
        let run = try SpotsCLI.run(["build", "--pipeline", pipeline.path, "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        let spots = try SpotsCLI.run(["export", folder.path("city.spots")]).output.split(separator: "\n")
        #expect(spots.count >= 8)
        let other = folder.path("other.spots")
        #expect(try SpotsCLI.run(["build", "--pipeline", pipeline.path, helsinki, "-o", other, "-q"]).status == 0)
        #expect(try SpotsCLI.run(["inspect", other]).output.contains("helsinki-center.osm.gz"))
    }

    @Test("an invalid pipeline file exits 78 with one line naming the JSON path; a missing one exits 66")
    func refusesInvalidPipeline() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pipeline = folder.url.appendingPathComponent("city.json")
        try Data(#"{"inputs": ["x.osm"], "output": "x.spots", "dedupe": {"radius": "fifty"}}"#.utf8).write(to: pipeline)
        let run = try SpotsCLI.run(["build", "--pipeline", pipeline.path])
        #expect(run.status == 78)
        #expect(run.stderr == "spots: \(pipeline.path): .dedupe.radius: expected a distance in metres\n")
        let missing = try SpotsCLI.run(["build", "--pipeline", folder.path("nope.json")])
        #expect(missing.status == 66)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["city.json"])
    }

    @Test("the default build excludes street furniture and unmapped values; --keep-all keeps them with category null")
    func excludesStreetFurniture() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let strict = try SpotsCLI.buildAndExport([helsinki], flags: [], in: folder)
        #expect(
            !strict.contains {
                ["amenity=bench", "amenity=waste_basket", "amenity=vending_machine"].contains($0["tag"] as? String)
            })
        #expect(strict.allSatisfy { $0["category"] is String })
        #expect(strict.count > 600 && strict.count < 1110)
        let all = try SpotsCLI.buildAndExport([helsinki], flags: ["--keep-all"], in: folder)
        let benches = all.filter { $0["tag"] as? String == "amenity=bench" }
        #expect(!benches.isEmpty && benches.allSatisfy { $0["category"] is NSNull && $0["kind"] as? String == "bench" })
    }

    @Test("the castle in the Japanese sample is a castle, through historic=castle")
    func consultsSecondTag() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spots = try SpotsCLI.buildAndExport([himeji], flags: [], in: folder)
        let castle = try #require(spots.first { $0["wikidata"] as? String == "Q188754" })
        #expect(
            castle["category"] as? String == "castle" && castle["mapkit_category"] as? String == "MKPOICategoryCastle")
        #expect(castle["kind"] as? String == "attraction")
    }

    @Test("same-name duplicates are merged with their references listed; --no-dedupe keeps them apart")
    func mergesDuplicates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("dupes.osm")
        try Data(
            """
            <osm version="0.6">
             <node id="1" lat="60.1700000" lon="24.9400000"><tag k="amenity" v="cafe"/><tag k="name" v="Café Regatta"/></node>
             <node id="2" lat="60.1702000" lon="24.9400000"><tag k="amenity" v="cafe"/><tag k="name" v="CAFE  REGATTA"/><tag k="website" v="https://regatta.fi"/><tag k="opening_hours" v="Mo-Su 08-21"/></node>
             <node id="3" lat="60.1750000" lon="24.9400000"><tag k="amenity" v="cafe"/><tag k="name" v="Café Regatta"/></node>
             <node id="4" lat="60.1700100" lon="24.9400000"><tag k="amenity" v="restaurant"/><tag k="name" v="Café Regatta"/></node>
            </osm>
            """.utf8
        ).write(to: input)
        let merged = try SpotsCLI.buildAndExport([input.path], flags: [], in: folder).sorted {
            ($0["osm_id"] as! NSNumber).intValue < ($1["osm_id"] as! NSNumber).intValue
        }
        #expect(merged.map { ($0["osm_id"] as! NSNumber).intValue } == [2, 3, 4])
        #expect(merged[0]["merged"] as? [String] == ["n1"])
        #expect(merged[0]["name"] as? String == "CAFE REGATTA")
        let apart = try SpotsCLI.buildAndExport([input.path], flags: ["--no-dedupe"], in: folder)
        #expect(apart.count == 4)
    }
}

@Suite(
    "Categories and overlaps on real extracts",
    .enabled(if: SpotsCLI.hasSharedData, "../shared/data is absent: real-data tests skipped"))
struct RealDataPipelineTests {
    @Test("the unmapped values of each extract are few, and inspect lists them", arguments: realExtracts.map(\.file))
    func fewUnmapped(_ file: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let index = folder.path("x.spots")
        // Node spots, as the table's coverage goal counts them.
        #expect(
            try SpotsCLI.run([
                "build", SpotsCLI.sharedData.appendingPathComponent(file).path, "-o", index, "-q", "--no-areas",
            ]).status == 0)
        let inspect = try SpotsCLI.run(["inspect", index]).output
        let line = inspect.split(separator: "\n").first { $0.hasPrefix("unmapped ") }.map(String.init) ?? ""
        let values = line.dropFirst("unmapped".count).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(values.count <= 8, "\(line)")
        let dropped = values.compactMap { Int($0.split(separator: " ").last!.replacingOccurrences(of: ",", with: "")) }
            .reduce(0, +)
        let stage = inspect.split(separator: "\n").first { $0.hasPrefix("stage categorize") }.map(String.init) ?? ""
        #expect(stage.contains("unmapped \(dropped)") || dropped == 0, "\(stage) vs \(line)")
        #expect(dropped * 50 <= realExtracts.first { $0.file == file }!.poiNodes, "more than 2% unmapped: \(line)")
    }

    @Test("overlapping extracts given together hold each object once")
    func overlappingExtracts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let monaco = SpotsCLI.sharedData.appendingPathComponent("monaco-2021-04.osm.gz").path
        let union = SpotsCLI.sharedData.appendingPathComponent("pois-union.osm.gz").path
        let together = try SpotsCLI.buildAndExport([monaco, union], flags: ["--no-areas"], in: folder)
        let alone = try SpotsCLI.buildAndExport([union], flags: ["--no-areas"], in: folder)
        #expect(together.map { $0["osm_id"] as! NSNumber } == alone.map { $0["osm_id"] as! NSNumber })
        let index = folder.path("both.spots")
        #expect(try SpotsCLI.run(["build", monaco, union, "-o", index, "-q", "--no-dedupe"]).status == 0)
        #expect(try SpotsCLI.run(["inspect", index]).output.contains("repeated_objects 761"))
    }

    @Test("two builds of the same inputs and pipeline are byte-identical")
    func deterministic() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = ["andorra-2021-04.osm.gz", "pois-union.osm.gz"].map {
            SpotsCLI.sharedData.appendingPathComponent($0).path
        }
        var outputs: [Data] = []
        for name in ["a.spots", "b.spots"] {
            let path = folder.url.appendingPathComponent(name).path
            #expect(try SpotsCLI.run(["build"] + inputs + ["-o", path, "-q"]).status == 0)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(outputs[0] == outputs[1])
    }
}
