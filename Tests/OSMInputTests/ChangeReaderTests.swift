import Foundation
import InputStreams
import SpotTestSupport
import Testing

@testable import OSMInput

/// The osmChange fixtures.
private let oscFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/osc")

/// Collects what the reader hands over with its osmChange action, as Strings, for assertions.
struct ChangeCollector: OSMElementHandler {
    struct Element: Equatable, CustomStringConvertible {
        var action: OSMChangeAction?
        var type: OSMElementType
        var id: Int64
        var version: Int64
        var line: Int
        var latitudeE7: Int32?
        var longitudeE7: Int32?
        var tags: [String]
        var refs: [Int64]
        var members: [String]

        var description: String { "\(action.map { "\($0)" } ?? "nil") \(type) \(id) v\(version) line \(line)" }
    }
    var elements: [Element] = []

    mutating func handle(_ element: OSMElement) {
        elements.append(
            Element(
                action: element.action, type: element.type, id: element.id, version: element.version,
                line: element.line, latitudeE7: element.latitudeE7, longitudeE7: element.longitudeE7,
                tags: (0..<element.tagCount).map {
                    "\(element.tag(at: $0).key.string)=\(element.tag(at: $0).value.string)"
                },
                refs: Array(element.nodeRefs),
                members: (0..<element.memberCount).map { index in
                    let member = element.member(at: index)
                    return
                        "\(member.type.map { "\($0)" } ?? "nil") \(member.ref.map(String.init) ?? "nil") \(member.role.string)"
                }))
    }
}

/// Reads the file at `path` in `form` with `filter`, on `threads` threads in pieces of `pieceSize`.
private func readChanges(
    path: String, form: OSMReadForm = .changes, filter: OSMElementFilter = allTypes, threads: Int = 2,
    pieceSize: Int = OSMReader.defaultPieceSize
) throws(OSMInputError) -> (elements: [ChangeCollector.Element], summary: OSMReadSummary) {
    var collector = ChangeCollector()
    let reader = OSMReader(
        file: path, filter: filter, limits: .standard, threads: threads, pieceSize: pieceSize, form: form)
    let summary = try reader.read(into: &collector)
    return (collector.elements, summary)
}

/// Writes `bytes` to a temporary file named `name` and reads it as `readChanges(path:…)` does.
private func readChanges(
    _ bytes: [UInt8], named name: String = "changes.osc", form: OSMReadForm = .changes,
    filter: OSMElementFilter = allTypes, threads: Int = 2, pieceSize: Int = OSMReader.defaultPieceSize
) throws -> (elements: [ChangeCollector.Element], summary: OSMReadSummary) {
    try withTemporaryFile(bytes, named: name) { path in
        try readChanges(path: path, form: form, filter: filter, threads: threads, pieceSize: pieceSize)
    }
}

/// Reads `text` as `readChanges(_:…)` does.
private func readChanges(
    _ text: String, form: OSMReadForm = .changes, filter: OSMElementFilter = allTypes
) throws -> (elements: [ChangeCollector.Element], summary: OSMReadSummary) {
    try readChanges(Array(text.utf8), form: form, filter: filter)
}

/// The error reading `bytes` (as a file named `name`) in `form` throws, or nil.
private func changeError(
    _ bytes: [UInt8], named name: String = "changes.osc", form: OSMReadForm = .changes, threads: Int = 2
) throws -> OSMInputError? {
    try withTemporaryFile(bytes, named: name) { path in
        do throws(OSMInputError) {
            _ = try readChanges(path: path, form: form, threads: threads)
            return nil
        } catch {
            return error
        }
    }
}

/// The fixture `name` of Tests/Fixtures/osc.
private func oscFixture(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: oscFixtures.appendingPathComponent(name)))
}

@Suite("Reading osmChange files")
struct ChangeReaderTests {
    @Test("creates, modifies and deletes in several blocks come in document order with their actions")
    func readsBlocks() throws {
        let (elements, summary) = try readChanges(try oscFixture("small.osc"))
        #expect(
            elements.map(\.id) == [
                619_252_237, 1_074_584_680, 1_662_811_579, 25_565_432, 9_000_000_001, 900_000_002, 900_000_003,
                1_074_584_680,
            ])
        #expect(elements.map(\.action) == [.modify, .modify, .delete, .delete, .create, .create, .create, .modify])
        #expect(elements.map(\.type) == [.node, .node, .node, .way, .node, .way, .relation, .node])
        #expect(elements.map(\.version) == [3, 7, 6, 4, 1, 1, 1, 8])
        #expect(elements.map(\.line) == [4, 5, 11, 12, 15, 19, 24, 32])
        #expect(
            elements[0]
                == ChangeCollector.Element(
                    action: .modify, type: .node, id: 619_252_237, version: 3, line: 4, latitudeE7: 437_322_326,
                    longitudeE7: 74_198_976, tags: [], refs: [], members: []))
        #expect(elements[1].tags == ["amenity=bar", "name=Bar du Port"])
        #expect(elements[4].tags == ["tourism=museum", "name=Musée des Timbres"])
        #expect(elements[4].latitudeE7 == 437_350_000 && elements[4].longitudeE7 == 74_210_000)
        #expect(elements[5].refs == [619_252_237, 9_000_000_001] && elements[5].tags == ["highway=footway"])
        #expect(elements[6].members == ["way 900000002 outer", "node 1074584680 "])
        #expect(elements[6].tags == ["type=multipolygon", "amenity=parking"])
        #expect(elements[7].tags == ["amenity=pub"] && elements[7].latitudeE7 == 437_400_001)
        #expect(summary.nodes == 5 && summary.ways == 2 && summary.relations == 1)
        #expect(summary.newestTimestamp == "2030-01-03T00:00:00Z")
    }

    @Test("deletions without tags nor coordinates are delivered, not counted as skipped")
    func deliversDeletions() throws {
        let (elements, summary) = try readChanges(try oscFixture("small.osc"))
        let deletions = elements.filter { $0.action == .delete }
        #expect(deletions.map(\.id) == [1_662_811_579, 25_565_432])
        #expect(deletions.allSatisfy { $0.latitudeE7 == nil && $0.longitudeE7 == nil && $0.tags.isEmpty })
        #expect(summary.deleted == 0)
    }

    @Test("the filter keeps what it keeps in an extract, but every deletion of a wanted type, bare")
    func filtersAsExtracts() throws {
        let text = """
            <osmChange version="0.6">
              <modify>
                <node id="1" version="2" lat="1" lon="2"><tag k="amenity" v="cafe"/></node>
                <node id="2" version="2" lat="1" lon="2"><tag k="highway" v="crossing"/></node>
                <way id="3" version="2"><nd ref="1"/><tag k="highway" v="path"/></way>
              </modify>
              <delete>
                <node id="4" version="3"><tag k="shop" v="bakery"/></node>
                <node id="5" version="3"><tag k="amenity" v="bench"/></node>
                <relation id="6" version="3"/>
              </delete>
            </osmChange>
            """
        let nodesAndWays = OSMElementFilter(types: [.node, .way], tagKeys: ["amenity"])
        let (elements, summary) = try readChanges(text, filter: nodesAndWays)
        #expect(elements.map(\.id) == [1, 4, 5])
        #expect(elements.map(\.tags) == [["amenity=cafe"], [], ["amenity=bench"]])
        #expect(elements.map(\.action) == [.modify, .delete, .delete])
        #expect(summary.nodes == 4 && summary.ways == 1 && summary.relations == 1 && summary.deleted == 0)

        let bare = OSMElementFilter(types: [.node, .way], tagKeys: ["amenity"], bareTypes: [.way])
        let (withBare, _) = try readChanges(text, filter: bare)
        #expect(withBare.map(\.id) == [1, 3, 4, 5])
        #expect(withBare[1].tags.isEmpty && withBare[1].refs == [1])
    }

    @Test("an element marked visible=\"false\" in a create or modify block is a deletion")
    func visibleFalseIsADeletion() throws {
        let text = """
            <osmChange version="0.6">
              <modify><node id="1" version="2" visible="false"/><node id="2" version="2" visible="true" lat="1" lon="1"/></modify>
              <create><way id="3" version="1" visible="false"/></create>
            </osmChange>
            """
        let (elements, summary) = try readChanges(text, filter: OSMElementFilter(types: [.node, .way], tagKeys: ["x"]))
        #expect(elements.map(\.id) == [1, 3])
        #expect(elements.map(\.action) == [.delete, .delete])
        #expect(summary.deleted == 0)
    }

    @Test("a gzip change file reads as the plain one")
    func readsGzip() throws {
        let plain = try oscFixture("small.osc")
        let expected = try readChanges(plain)
        let compressed = try readChanges(gzip(plain, memberSize: 300), named: "changes.osc.gz")
        #expect(compressed.elements == expected.elements)
        #expect(compressed.summary.nodes == expected.summary.nodes && compressed.summary.ways == expected.summary.ways)
    }

    @Test("small pieces and any thread count give the same elements, every piece parsed in order")
    func readsInOrder() throws {
        let bytes = try oscFixture("small.osc")
        let reference = try readChanges(bytes, threads: 1)
        for threads in [1, 3] {
            for pieceSize in [64, 100, 333] {
                let outcome = try readChanges(bytes, threads: threads, pieceSize: pieceSize)
                #expect(outcome.elements == reference.elements, "\(threads) threads, pieces of \(pieceSize)")
                #expect(outcome.summary.parallelPieces == 0 && outcome.summary.sequentialPieces > 1)
            }
        }
    }

    @Test("bounds and unknown elements inside blocks are passed over")
    func ignoresUnknownElements() throws {
        let text = """
            <osmChange version="0.6"><bounds minlat="0" minlon="0" maxlat="1" maxlon="1"/>
            <create><changeset id="5"><tag k="amenity" v="no"/></changeset><node id="1" version="1" lat="0" lon="0"/></create>
            <delete/></osmChange>
            """
        let (elements, _) = try readChanges(text)
        #expect(elements.map(\.id) == [1] && elements[0].action == .create)
    }

    @Test("elements inside blocks are held to the limits of an extract's elements")
    func keepsLimits() throws {
        let text = """
            <osmChange version="0.6">
              <delete>
                <node id="1" version="2"><tag k="a" v="1"/><tag k="b" v="2"/></node>
              </delete>
            </osmChange>
            """
        let limits = OSMReadLimits(maxElementBytes: 1 << 20, maxTags: 1, maxValueBytes: 64)
        try withTemporaryFile(Array(text.utf8), named: "changes.osc") { path in
            var collector = ChangeCollector()
            #expect {
                _ = try OSMReader(file: path, filter: allTypes, limits: limits, threads: 1, form: .changes)
                    .read(into: &collector)
            } throws: {
                let error = $0 as! OSMInputError
                return error.kind == .malformed && error.location == .line(3, column: 48)
                    && error.message == "more than 1 tags on one element (max_tags)"
            }
        }
    }

    @Test("elements of an extract have no action")
    func extractsHaveNoAction() throws {
        let text = """
            <osm version="0.6"><node id="1" lat="0" lon="0" action="modify"/><way id="2"><nd ref="1"/></way>
            <node id="3" visible="false"/></osm>
            """
        let (elements, summary) = try readChanges(text, form: .extract)
        #expect(elements.map(\.id) == [1, 2] && elements.allSatisfy { $0.action == nil })
        #expect(summary.deleted == 1)
    }

    @Test("a record keeps its size with the action")
    func recordStaysSmall() {
        #expect(MemoryLayout<ElementRecord>.size == 72)
    }

    @Test(
        "what is not an osmChange file, or a broken one, is refused in one line where it goes wrong",
        arguments: [
            (
                "<?xml version=\"1.0\"?>\n<osm version=\"0.6\"><node id=\"1\"/></osm>\n",
                2, 1, "this is OSM data (an extract), not an osmChange file"
            ),
            ("<osmChange><create/></osmChange>\n<osm/>", 2, 1, "junk after document element"),
            ("\n <changes/>", 2, 2, "expected <osmChange> as the root element, found <changes>"),
            (
                "<osmChange>\n  <modify/>\n  <frobnicate><node id=\"1\"/></frobnicate>\n</osmChange>", 3, 3,
                "an osmChange action must be <create>, <modify> or <delete>, found <frobnicate>"
            ),
            (
                "<osmChange>\n<create/>  <node id=\"1\" lat=\"0\" lon=\"0\"/>\n</osmChange>", 2, 12,
                "<node> directly inside <osmChange>; its elements belong in <create>, <modify> or <delete>"
            ),
            (
                "<osmChange><modify>\n<way id=\"x\"/></modify></osmChange>", 2, 1,
                "<way> without a valid id attribute"
            ),
        ] as [(String, Int, Int, String)])
    func refuses(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        for threads in [1, 2] {
            let error = try changeError(Array(text.utf8), threads: threads)
            #expect(error?.kind == .malformed)
            #expect(error?.location == .line(line, column: column))
            #expect(error?.message == message)
            #expect(error?.description.contains("\n") == false)
        }
    }

    @Test("the damaged fixtures are refused where they go wrong")
    func refusesDamagedFixtures() throws {
        let unknown = try changeError(try oscFixture("unknown-action.osc"))
        #expect(unknown?.kind == .malformed && unknown?.location == .line(6, column: 3))
        #expect(unknown?.message == "an osmChange action must be <create>, <modify> or <delete>, found <frobnicate>")
        let truncated = try changeError(try oscFixture("truncated.osc"))
        #expect(truncated?.kind == .malformed && truncated?.location == .line(6, column: 1))
        #expect(truncated?.message == "no element found")
    }

    @Test("an osmChange file is still refused as an extract")
    func refusedAsExtract() throws {
        let error = try changeError(try oscFixture("small.osc"), form: .extract)
        #expect(error?.kind == .malformed && error?.location == .line(2, column: 1))
        #expect(
            error?.message
                == "this is an osmChange file (edits to apply), not OSM data; give OSM XML (plain, gzip or bzip2) or OSM PBF"
        )
    }

    @Test("PBF is refused in the change form, in one line")
    func refusesPBF() throws {
        let pbf = [UInt8](
            try Data(contentsOf: oscFixtures.deletingLastPathComponent().appendingPathComponent("pbf/areas.osm.pbf")))
        let error = try changeError(pbf, named: "areas.osm.pbf")
        #expect(error?.kind == .malformed && error?.location == nil)
        #expect(error?.message == "osmChange files are XML; this is OSM PBF")
        // As an extract it reads.
        #expect(try changeError(pbf, named: "areas.osm.pbf", form: .extract) == nil)
    }
}
