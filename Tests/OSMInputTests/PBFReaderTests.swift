import Foundation
import SpotTestSupport
import Testing

@testable import OSMInput

/// The folder of the PBF fixtures and of their XML sources.
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Whether osmium-tool runs here, to write PBF copies of the real extracts.
let hasOsmium: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["osmium", "--version"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

/// `input` written as PBF by osmium to `output`.
func osmiumPBF(_ input: String, to output: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["osmium", "cat", input, "-o", output, "--overwrite"]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "osmium cat \(input) failed")
}

/// A PBF read's outcome beside its XML source's: the same elements in the same order (lines
/// aside, which PBF has not; versions aside without metadata) and the same counts. The newest
/// timestamp is the same, or with `rootTimestamp` (osmium drops a root element's `timestamp`)
/// no newer.
private func expectSameElements(
    xml: String, pbf: String, filter: OSMElementFilter, metadata: Bool = true, rootTimestamp: Bool = false
) {
    var reference = readOutcome(xml, threads: 2, filter: filter)
    #expect(reference.error == nil)
    for index in reference.elements.indices {
        reference.elements[index].line = 0
        if !metadata { reference.elements[index].version = 0 }
    }
    for threads in [1, 2, 3] {
        let outcome = readOutcome(pbf, threads: threads, filter: filter)
        #expect(outcome.error == nil, "\(outcome.error?.description ?? "")")
        #expect(outcome.elements == reference.elements, "\(threads) threads: \(outcome.difference(from: reference))")
        #expect(outcome.summary.nodes == reference.summary.nodes)
        #expect(outcome.summary.ways == reference.summary.ways)
        #expect(outcome.summary.relations == reference.summary.relations)
        if rootTimestamp {
            #expect(outcome.summary.newestTimestamp.map { $0 <= reference.summary.newestTimestamp! } == true)
        } else if metadata {
            #expect(outcome.summary.newestTimestamp == reference.summary.newestTimestamp)
        }
        #expect(outcome.summary.pbfBlocks > 0)
    }
}

@Suite("Reading OSM PBF")
struct PBFReaderTests {
    @Test(
        "osmium's PBF gives what its XML source gives, with every filter and thread count",
        arguments: [
            ("../../Samples/himeji-castle.osm.pbf", "../../Samples/himeji-castle.osm", true),
            ("pbf/areas.osm.pbf", "osm/areas.osm", true), ("pbf/areas-plain-raw.osm.pbf", "osm/areas.osm", true),
            ("pbf/osmium-no-metadata.osm.pbf", "osm/osmium.osm", false),
        ])
    func readsOsmiumFixtures(pbf: String, xml: String, metadata: Bool) {
        let pbf = fixtures.appendingPathComponent(pbf).standardized.path
        let xml = fixtures.appendingPathComponent(xml).standardized.path
        for filter in [allTypes, poiNodes, areaElements] {
            expectSameElements(xml: xml, pbf: pbf, filter: filter, metadata: metadata)
        }
    }

    @Test(
        "every real extract written as PBF by osmium gives what the XML gives",
        .enabled(if: hasOsmium, "osmium-tool is absent: real extracts as PBF skipped"),
        .enabled(if: FileManager.default.fileExists(atPath: sharedData.path), "../shared/data is absent: skipped"),
        arguments: ["monaco-2021-04", "andorra-2021-04", "liechtenstein-2015-07", "helsinki-center", "pois-union"])
    func readsRealExtracts(_ name: String) throws {
        let xml = sharedData.appendingPathComponent(name + ".osm.gz").path
        try withTemporaryFolder { folder in
            let pbf = folder.path(name + ".osm.pbf")
            try osmiumPBF(xml, to: pbf)
            expectSameElements(xml: xml, pbf: pbf, filter: areaElements, rootTimestamp: true)
        }
    }

    @Test("the format is told by content: PBF named .osm.gz is read as PBF")
    func detectsByContent() throws {
        let bytes = PBFTestFile.bytes([.node(1, 10, 20, [("amenity", "cafe")])])
        try withTemporaryFile(bytes, named: "looks-like.osm.gz") { path in
            let outcome = readOutcome(path, threads: 1, filter: poiNodes)
            #expect(outcome.error == nil)
            #expect(outcome.elements.map(\.id) == [1])
        }
    }

    @Test("plain nodes, dense nodes, ways and relations; blocks' scaling honoured; unknown blobs skipped")
    func decodesEveryElementForm() throws {
        let elements: [PBFTestElement] = [
            .node(1, 425_000_001, 15_000_001, [("amenity", "cafe"), ("name", "Ünï")], timestamp: 1_600_000_000),
            .node(2, -337_000_000, -1_799_999_999, timestamp: 1_700_000_000),
            .way(10, [1, 2, 1], [("tourism", "hotel")]),
            .relation(
                20, [(1, 10, "outer"), (0, 1, ""), (2, 21, "sub"), (7, 5, "odd")],
                [("type", "multipolygon"), ("amenity", "school")]),
        ]
        for dense in [true, false] {
            for compressed in [true, false] {
                for scaling in [
                    PBFScaling(),
                    PBFScaling(
                        granularity: 1000, latitudeOffset: 1_000_000, longitudeOffset: -2_000_000, dateGranularity: 500),
                ] {
                    var bytes = PBFTestFile.bytes(elements, dense: dense, compressed: compressed, scaling: scaling)
                    // An index blob of another type, between the header and the data: skipped.
                    let headerEnd = PBFTestFile.bytes([], compressed: compressed).count
                    bytes.insert(
                        contentsOf: PBFTestFile.block(
                            type: "OSMIndex", blob: PBFTestFile.blob([1, 2, 3], compressed: false)), at: headerEnd)
                    try withTemporaryFile(bytes, named: "forms.osm.pbf") { path in
                        var collector = Collector()
                        let summary = try OSMReader(file: path, filter: allTypes, threads: 1).read(into: &collector)
                        #expect(collector.elements.map(\.id) == [1, 2, 10, 20])
                        // Granularity 1000 keeps ten-nanodegree steps only where they divide.
                        #expect(
                            collector.elements[0].latitudeE7 == (scaling.granularity == 100 ? 425_000_001 : 425_000_000)
                        )
                        #expect(
                            collector.elements[1].longitudeE7
                                == (scaling.granularity == 100 ? -1_799_999_999 : -1_799_999_990))
                        #expect(collector.elements[0].tags == ["amenity": "cafe", "name": "Ünï"])
                        #expect(collector.elements[2].tags == ["tourism": "hotel"])
                        #expect(summary.nodes == 2 && summary.ways == 1 && summary.relations == 1)
                        #expect(summary.newestTimestamp == "2023-11-14T22:13:20Z")
                    }
                    try withTemporaryFile(bytes, named: "forms.osm.pbf") { path in
                        struct Shapes: OSMElementHandler {
                            var refs: [[Int64]] = []
                            var members: [String] = []
                            mutating func handle(_ element: OSMElement) {
                                if element.type == .way { refs.append(Array(element.nodeRefs)) }
                                for index in 0..<element.memberCount {
                                    let member = element.member(at: index)
                                    members.append(
                                        "\(member.type.map { "\($0)" } ?? "?") \(member.ref ?? -1) \(member.role.string)"
                                    )
                                }
                            }
                        }
                        var shapes = Shapes()
                        _ = try OSMReader(file: path, filter: allTypes, threads: 2).read(into: &shapes)
                        #expect(shapes.refs == [[1, 2, 1]])
                        #expect(shapes.members == ["way 10 outer", "node 1 ", "relation 21 sub", "? 5 odd"])
                    }
                }
            }
        }
    }

    @Test("deleted elements are counted and skipped; the replication timestamp counts as the newest")
    func countsDeletedAndReplicationTime() throws {
        var gone = PBFTestElement.node(2, 0, 0, [("amenity", "bar")])
        gone.visible = false
        for dense in [true, false] {
            let bytes = PBFTestFile.bytes(
                [.node(1, 0, 0, [("amenity", "pub")], timestamp: 1_000), gone], dense: dense,
                replicationTimestamp: 1_700_000_000)
            try withTemporaryFile(bytes, named: "deleted.osm.pbf") { path in
                let outcome = readOutcome(path, threads: 2, filter: poiNodes)
                #expect(outcome.elements.map(\.id) == [1])
                #expect(outcome.summary.deleted == 1 && outcome.summary.nodes == 2)
                #expect(outcome.summary.newestTimestamp == "2023-11-14T22:13:20Z")
            }
        }
    }

    @Test("many blocks decode to the same elements in the same order on any thread count")
    func isDeterministicAcrossThreads() throws {
        var elements: [PBFTestElement] = []
        for id in Int64(1)...5000 {
            let tags: [(String, String)] = id % 3 == 0 ? [("amenity", "cafe \(id)")] : []
            elements.append(.node(id, id * 1000, -id * 700, tags))
        }
        for id in Int64(1)...500 {
            let tags: [(String, String)] = id % 2 == 0 ? [("amenity", "parking")] : []
            elements.append(.way(id, [id, id + 1], tags))
        }
        try withTemporaryFile(PBFTestFile.bytes(elements, perBlock: 97), named: "many.osm.pbf") { path in
            let reference = readOutcome(path, threads: 1, filter: areaElements)
            #expect(reference.error == nil && reference.elements.count == 5500)
            #expect(reference.summary.pbfBlocks == 58)
            for threads in [2, 3, 8] {
                let outcome = readOutcome(path, threads: threads, filter: areaElements)
                #expect(outcome.elements == reference.elements && outcome.summary == reference.summary)
            }
        }
    }
}
