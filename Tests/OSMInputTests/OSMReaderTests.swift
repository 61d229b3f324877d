import Foundation
import InputStreams
import SpotTestSupport
import Testing

@testable import OSMInput

/// Collects what the reader hands over, as Strings, for assertions.
struct Collector: OSMElementHandler {
    struct Element: Equatable {
        var type: OSMElementType
        var id: Int64
        var latitudeE7: Int32?
        var longitudeE7: Int32?
        var tags: [String: String]
        var line: Int
    }
    var elements: [Element] = []

    mutating func handle(_ element: OSMElement) {
        var tags: [String: String] = [:]
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            tags[tag.key.string] = tag.value.string
        }
        elements.append(
            Element(
                type: element.type, id: element.id, latitudeE7: element.latitudeE7, longitudeE7: element.longitudeE7,
                tags: tags, line: element.line))
    }
}

/// Collects ways' node references and relations' members.
struct References: OSMElementHandler {
    var refs: [[Int64]] = []
    var members: [[String]] = []

    mutating func handle(_ element: OSMElement) {
        refs.append(Array(element.nodeRefs))
        members.append(
            (0..<element.memberCount).map { index in
                let member = element.member(at: index)
                return
                    "\(member.type.map { "\($0)" } ?? "nil") \(member.ref.map(String.init) ?? "nil") \(member.role.string)"
            })
    }
}

/// Writes `text` to a temporary file and reads it with `filter` within `limits`.
func read(
    _ text: String, filter: OSMElementFilter = OSMElementFilter(types: [.node, .way, .relation]),
    limits: OSMReadLimits = .standard
) throws -> (elements: [Collector.Element], summary: OSMReadSummary) {
    try withTemporaryFile(Array(text.utf8), named: "input.osm") { path in
        var collector = Collector()
        let summary = try OSMReader(file: path, filter: filter, limits: limits).read(into: &collector)
        return (collector.elements, summary)
    }
}

@Suite("OSMReader")
struct OSMReaderTests {
    @Test("delivers nodes, ways and relations in document order with their tags and lines")
    func deliversElements() throws {
        let (elements, summary) = try read(
            """
            <osm version="0.6">
             <node id="1" lat="1.5" lon="-2.25"><tag k="amenity" v="cafe"/></node>
             <node id="2" lat="0" lon="0"/>
             <way id="3"><nd ref="1"/><tag k="building" v="yes"/></way>
             <relation id="-4"><member type="way" ref="3" role="outer"/></relation>
            </osm>
            """)
        #expect(elements.map(\.id) == [1, 2, 3, -4])
        #expect(elements.map(\.type) == [.node, .node, .way, .relation])
        #expect(
            elements[0]
                == Collector.Element(
                    type: .node, id: 1, latitudeE7: 15_000_000, longitudeE7: -22_500_000, tags: ["amenity": "cafe"],
                    line: 2))
        #expect(elements[2].tags == ["building": "yes"])
        #expect(summary.nodes == 2 && summary.ways == 1 && summary.relations == 1)
    }

    @Test("ways carry their node references and relations their members")
    func deliversReferences() throws {
        var collector = References()
        let xml = """
            <osm><way id="3"><nd ref="1"/><nd ref="-2"/><nd ref="8592764893"/><tag k="a" v="b"/></way>
            <relation id="4"><member type="way" ref="3" role="outer"/><member type="node" ref="1" role=""/>
            <member type="area" ref="x"/></relation></osm>
            """
        try withTemporaryFile(Array(xml.utf8), named: "input.osm") { path in
            _ = try OSMReader(file: path, filter: OSMElementFilter(types: [.way, .relation])).read(into: &collector)
        }
        #expect(collector.refs == [[1, -2, 8_592_764_893], []])
        #expect(collector.members == [[], ["way 3 outer", "node 1 ", "nil nil "]])
    }

    @Test("bare types are delivered without their tags when no wanted key is present")
    func deliversBareElements() throws {
        let (elements, summary) = try read(
            """
            <osm><node id="1" lat="1" lon="2"><tag k="name" v="x"/></node>
            <node id="2" lat="0" lon="0"><tag k="tourism" v="hotel"/></node>
            <node id="6" lat="0" lon="0" visible="false"/>
            <way id="5"><nd ref="1"/><tag k="highway" v="path"/></way>
            <relation id="7"><tag k="type" v="route"/></relation></osm>
            """,
            filter: OSMElementFilter(types: [.node, .way, .relation], tagKeys: ["tourism"], bareTypes: [.node, .way]))
        #expect(elements.map(\.id) == [1, 2, 5])
        #expect(elements[0].tags.isEmpty && elements[0].latitudeE7 == 10_000_000 && elements[2].tags.isEmpty)
        #expect(elements[1].tags == ["tourism": "hotel"])
        #expect(summary.deleted == 1 && summary.relations == 1)
    }

    @Test("the filter keeps only elements with a wanted key, yet counts all")
    func filtersByTagKey() throws {
        let (elements, summary) = try read(
            """
            <osm><node id="1" lat="0" lon="0"><tag k="name" v="x"/></node>
            <node id="2" lat="0" lon="0"><tag k="name" v="y"/><tag k="tourism" v="hotel"/></node>
            <way id="5"><tag k="tourism" v="hotel"/></way></osm>
            """, filter: OSMElementFilter(types: [.node], tagKeys: ["amenity", "tourism"]))
        #expect(elements.map(\.id) == [2])
        #expect(elements[0].tags == ["name": "y", "tourism": "hotel"])
        #expect(summary.nodes == 2 && summary.ways == 1)
    }

    @Test("deleted elements are counted and never delivered")
    func skipsDeleted() throws {
        let (elements, summary) = try read(
            """
            <osm><node id="1" lat="0" lon="0" visible="false"/><node id="2" action="delete" lat="0" lon="0"/>
            <node id="3" lat="0" lon="0" action="modify" visible="true"/></osm>
            """)
        #expect(elements.map(\.id) == [3])
        #expect(summary.deleted == 2)
    }

    @Test("an element larger than a chunk is delivered whole, and the ones after it too")
    func readsElementSpanningChunks() throws {
        let long = String(repeating: "é", count: OSMReader.chunkSize)  // twice a chunk of UTF-8
        var text = "<osm>\n"
        for id in 1...3 {
            text +=
                "<node id=\"\(id)\" lat=\"1\" lon=\"2\"><tag k=\"a\" v=\"\(id)\"/><tag k=\"long\" v=\"\(long)\"/><tag k=\"z\" v=\"end\"/></node>\n"
        }
        text += "</osm>\n"
        var limits = OSMReadLimits.standard
        limits.maxValueBytes = 2 * long.utf8.count
        let (elements, _) = try read(text, limits: limits)
        #expect(elements.map(\.id) == [1, 2, 3])
        for element in elements {
            #expect(element.tags["long"] == long)
            #expect(element.tags["a"] == String(element.id) && element.tags["z"] == "end")
            #expect(element.latitudeE7 == 10_000_000 && element.longitudeE7 == 20_000_000)
        }
    }

    @Test("the newest timestamp is found in elements, the header and Overpass's osm_base")
    func findsNewestTimestamp() throws {
        let text = """
            <osm timestamp="2020-01-01T00:00:00Z"><meta osm_base="2021-06-01T00:00:00Z"/>
            <node id="1" lat="0" lon="0" timestamp="2021-05-01T00:00:00Z"/><way id="2" timestamp="2019-01-01T00:00:00Z"/></osm>
            """
        #expect(try read(text).summary.newestTimestamp == "2021-06-01T00:00:00Z")
        #expect(try read("<osm><node id=\"1\" timestamp=\"yesterday\"/></osm>").summary.newestTimestamp == nil)
    }

    @Test("a missing or bad id is an error at the element's position")
    func refusesBadID() throws {
        #expect {
            _ = try read("<osm>\n  <node lat=\"0\" lon=\"0\"/></osm>")
        } throws: { error in
            let error = error as! OSMInputError
            return error.kind == .malformed && error.location == .line(2, column: 3) && error.message.contains("id")
        }
        #expect(throws: OSMInputError.self) { try read("<osm><node id=\"99999999999999999999\"/></osm>") }
    }

    @Test("a way's node reference without a valid ref is an error at its position")
    func refusesBadNodeRef() throws {
        #expect {
            _ = try read("<osm>\n <way id=\"1\">\n  <nd ref=\"x\"/></way></osm>")
        } throws: { error in
            let error = error as! OSMInputError
            return error.kind == .malformed && error.location == .line(3, column: 3)
                && error.message == "<nd> without a valid ref attribute"
        }
    }

    @Test("other compressions are named in the refusal, which names what is read")
    func namesUnsupportedFormats() throws {
        for (bytes, name): ([UInt8], String) in [
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0, 0], "xz"), ([0x28, 0xB5, 0x2F, 0xFD, 0, 0], "zstd"),
        ] {
            try withTemporaryFile(bytes, named: "x") { path in
                var collector = Collector()
                #expect {
                    _ = try OSMReader(file: path, filter: OSMElementFilter(types: [.node])).read(into: &collector)
                } throws: {
                    ($0 as! OSMInputError).message
                        == name + " input is not supported; give OSM XML (plain, gzip or bzip2) or OSM PBF"
                }
            }
        }
    }
}

@Suite("Reading numbers from bytes")
struct NumberTests {
    /// What `read` gives of `text`'s UTF-8 bytes as `OSMBytes`.
    func bytes<Value>(_ text: String, _ read: (OSMBytes) -> Value) -> Value {
        Array(text.utf8).withUnsafeBufferPointer { read(OSMBytes($0)) }
    }

    @Test(
        "coordinates become degrees × 10^7, rounded half away from zero",
        arguments: [
            ("0", 0), ("1", 10_000_000), ("-180", -1_800_000_000), ("43.7384176", 437_384_176), ("+1.5", 15_000_000),
            (".5", 5_000_000), ("-.5", -5_000_000), ("5.", 50_000_000), ("1.23456785", 12_345_679),
            ("-1.23456785", -12_345_679),
            ("1.23456784999", 12_345_678), ("-0.00000004", 0), ("0.00000005", 1), ("1e1", 100_000_000),
            ("214.7483647", Int32.max),
        ] as [(String, Int32)])
    func parsesCoordinates(_ text: String, _ expected: Int32) {
        #expect(bytes(text) { $0.fixedPointE7 } == expected)
    }

    @Test(
        "things that are not coordinates are nil",
        arguments: ["", "-", ".", "abc", "1.2.3", "1,5", "nan", "inf", "214.7483648", "1 ", "9999999999"])
    func rejectsNonCoordinates(_ text: String) {
        #expect(bytes(text) { $0.fixedPointE7 } == nil)
    }

    @Test("ids are exact 64-bit integers")
    func parsesIDs() {
        #expect(bytes("9223372036854775807") { $0.int64 } == Int64.max)
        #expect(bytes("-9223372036854775808") { $0.int64 } == Int64.min)
        #expect(bytes("-42") { $0.int64 } == -42)
        for bad in ["9223372036854775808", "-9223372036854775809", "", "-", "12a", "1.0"] {
            #expect(bytes(bad) { $0.int64 } == nil, "\(bad)")
        }
    }
}
