import Foundation
import SpotTestSupport
import Testing

/// `input` written as PBF by osmium into `folder`; returns its path.
private func osmiumPBF(_ input: String, in folder: TemporaryFolder) throws -> String {
    let output = folder.path(URL(fileURLWithPath: input).lastPathComponent + ".pbf")
    let run = try SpotsCLI.runTool(["osmium", "cat", input, "-o", output, "--overwrite"])
    try #require(run.status == 0, "osmium cat \(input): \(run.stderr)")
    return output
}

/// `spots export` of an index built from `inputs` with `flags`.
private func export(_ inputs: [String], flags: [String] = [], in folder: TemporaryFolder) throws -> String {
    let index = folder.path("export.spots")
    let build = try SpotsCLI.run(["build"] + inputs + ["-o", index, "-O", "--quiet"] + flags)
    try #require(build.status == 0, "build failed: \(build.stderr)")
    let export = try SpotsCLI.run(["export", index])
    try #require(export.status == 0, "export failed: \(export.stderr)")
    return export.output
}

@Suite("Building from OSM PBF")
struct PBFCommandTests {
    @Test(
        "the samples and every real extract as PBF give the same export as their XML, with and without areas",
        .enabled(if: hasOsmium, "osmium-tool is absent: PBF copies of the samples and extracts skipped"),
        arguments: [helsinki, himeji] + realExtracts.map { SpotsCLI.sharedData.appendingPathComponent($0.file).path })
    func exportsMatchXML(_ xml: String) throws {
        guard FileManager.default.fileExists(atPath: xml) else { return }  // ../shared is absent
        try withTemporaryFolder { folder in
            let pbf = try osmiumPBF(xml, in: folder)
            for flags in [[], ["--no-areas"]] {
                let fromXML = try export([xml], flags: flags, in: folder)
                #expect(!fromXML.isEmpty)
                #expect(try export([pbf], flags: flags, in: folder) == fromXML, "\(xml) \(flags)")
            }
        }
    }

    @Test("the committed osmium PBF fixtures give the same export as their XML sources")
    func fixturesMatchXML() throws {
        let pbf = SpotsCLI.root.appendingPathComponent("Tests/Fixtures/pbf")
        try withTemporaryFolder { folder in
            for (file, xml) in [
                ("../../../Samples/himeji-castle.osm.pbf", himeji),
                ("areas.osm.pbf", SpotsCLI.fixtures.appendingPathComponent("areas.osm").path),
                ("areas-plain-raw.osm.pbf", SpotsCLI.fixtures.appendingPathComponent("areas.osm").path),
            ] {
                let fromXML = try export([xml], in: folder)
                let path = pbf.appendingPathComponent(file).standardized.path
                #expect(try export([path], in: folder) == fromXML, "\(file)")
            }
        }
    }

    @Test("the index from PBF is byte-identical for 1, 2 and 5 threads")
    func sameIndexForAnyThreadCount() throws {
        let pbf = SpotsCLI.root.appendingPathComponent("Samples/himeji-castle.osm.pbf").path
        try withTemporaryFolder { folder in
            var indexes: [Data] = []
            for threads in [1, 2, 5] {
                let index = folder.path("t\(threads).spots")
                let build = try SpotsCLI.run(["build", pbf, "-o", index, "--quiet", "--threads", "\(threads)"])
                try #require(build.status == 0, "\(build.stderr)")
                indexes.append(try Data(contentsOf: URL(fileURLWithPath: index)))
            }
            #expect(indexes.allSatisfy { $0 == indexes[0] })
        }
    }

    @Test("an XML and a PBF input build together, as two XML inputs do")
    func mixesXMLAndPBF() throws {
        let areas = SpotsCLI.fixtures.appendingPathComponent("areas.osm").path
        let himejiPBF = SpotsCLI.root.appendingPathComponent("Samples/himeji-castle.osm.pbf").path
        try withTemporaryFolder { folder in
            let fromXML = try export([areas, himeji], in: folder)
            #expect(try export([areas, himejiPBF], in: folder) == fromXML)
        }
    }

    @Test("areas come out the same from a PBF out of type-then-id order: points are resolved after the last block")
    func areasInAnyOrder() throws {
        let elements: [PBFTestElement] = [
            .node(1, 600_000_000, 250_000_000), .node(2, 600_000_000, 250_010_000), .node(3, 600_010_000, 250_010_000),
            .node(4, 600_010_000, 250_000_000), .way(10, [1, 2, 3, 4, 1], [("amenity", "school"), ("name", "Koulu")]),
            .way(11, [1, 2, 3, 4, 1]),
            .relation(20, [(1, 11, "outer")], [("type", "multipolygon"), ("tourism", "museum"), ("name", "Museo")]),
            .node(5, 600_005_000, 250_005_000, [("amenity", "cafe"), ("name", "Kahvila")]),
        ]
        try withTemporaryFolder { folder in
            let sorted = try folder.write(
                PBFTestFile.bytes(elements.sorted { ($0.type, $0.id) < ($1.type, $1.id) }), to: "sorted.osm.pbf")
            let reversed = try folder.write(PBFTestFile.bytes(elements.reversed(), perBlock: 2), to: "reversed.osm.pbf")
            let fromSorted = try export([sorted], in: folder)
            #expect(fromSorted.split(separator: "\n").count == 3)
            #expect(try export([reversed], in: folder) == fromSorted)
        }
    }

    @Test("a damaged PBF exits 65 with one line and leaves the output as it was")
    func damagedPBFKeepsOutput() throws {
        let good = PBFTestFile.bytes([.node(1, 10, 20, [("amenity", "cafe")])])
        try withTemporaryFolder { folder in
            let cut = try folder.write(Array(good.dropLast(4)), to: "cut.osm.pbf")
            let output = try folder.write("existing", to: "out.spots")
            let run = try SpotsCLI.run(["build", cut, "-o", output, "-O"])
            #expect(run.status == 65)
            #expect(run.stderr.hasPrefix("spots: \(cut): byte "))
            #expect(run.stderr.contains("truncated blob"))
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
            #expect(folder.contents("out.spots") == "existing")
        }
    }
}
