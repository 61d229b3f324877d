import Foundation
import SpotIndex
import SpotJSON
import SpotTestSupport
import Spots
import Testing

@testable import SpotPipeline

@Suite("Selections: select keys, result types and address points")
struct SelectionTests {
    /// The package root, found from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Builds `document` with the default pipeline changed by `configure`, and opens the index.
    func build(_ document: String, configure: (inout Pipeline) -> Void) throws -> SpotIndexReader {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var pipeline = try Pipeline.defaults()
        pipeline.inputs = [try folder.write(document, to: "in.osm")]
        configure(&pipeline)
        let (bytes, _) = try SpotBuild(pipeline: pipeline).run()
        return try SpotIndexReader(path: try folder.write(bytes, to: "out.spots"))
    }

    /// The spots of `index` by OSM reference.
    func spots(of index: SpotIndexReader) throws -> [OSMRef: Spot] {
        var spots: [OSMRef: Spot] = [:]
        for number in 0..<index.count {
            let spot = try index.spot(at: number)
            spots[spot.ref] = spot
        }
        return spots
    }

    @Test("the default selection's index is the one built before selections existed, section by section")
    func defaultIndexUnchanged() throws {
        var pipeline = try Pipeline.defaults()
        pipeline.inputs = ["Samples/helsinki-center.osm.gz", "Samples/himeji-castle.osm.pbf"].map {
            Self.root.appendingPathComponent($0).path
        }
        let (bytes, _) = try SpotBuild(pipeline: pipeline).run()
        // Every section but META (which names the inputs by path), HNUM (which joined later) and
        // the order tables REFS and MRGO (narrower since format 6) by tag, length and CRC-32, as the section table records them; the digest of the index
        // of the same samples built by the program before `select`, result types and address
        // points were added.
        var table: [UInt8] = []
        let leftOut = ["META", "HNUM", "REFS", "MRGO"].map { Array($0.utf8)[...] }
        for entry in Self.sectionEntries(bytes) where !leftOut.contains(entry.prefix(4)) {
            table += entry[0..<4] + entry[16..<28]
        }
        #expect(Self.section("HNUM", of: bytes) != nil)
        #expect(SHA256.hex(of: table) == "08214b034cf4b1f8953458e0f3dca0a01fe270f7de353d5ae2caea3ba9016cf7")
        #expect(Self.section("KTYP", of: bytes) == nil)
        let text = String(decoding: bytes[try #require(Self.section("META", of: bytes))], as: UTF8.self)
        for key in ["\"select\":", "\"addresses\":", "\"unreached_categories\":"] {
            #expect(!text.contains(key), "META of the default selection holds \(key)")
        }
    }

    /// The entries of the section table of index `bytes`, 32 bytes each.
    static func sectionEntries(_ bytes: [UInt8]) -> [[UInt8]] {
        let count = Int(bytes[12]) | Int(bytes[13]) << 8
        return (0..<count).map { Array(bytes[(32 + 32 * $0)..<(64 + 32 * $0)]) }
    }

    /// Where section `tag` lies in index `bytes`, or nil when it has none.
    static func section(_ tag: String, of bytes: [UInt8]) -> Range<Int>? {
        guard let entry = sectionEntries(bytes).first(where: { Array($0.prefix(4)) == Array(tag.utf8) }) else {
            return nil
        }
        func integer(_ range: Range<Int>) -> Int { entry[range].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let offset = integer(8..<16)
        return offset..<offset + integer(16..<24)
    }

    @Test("KTYP holds one known result type per kind: another value is refused on open")
    func damagedResultTypes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var pipeline = try Pipeline.defaults()
        pipeline.inputs = [try folder.write(Self.mixed, to: "in.osm")]
        pipeline.selection = SpotSelection(keys: ["amenity", "natural"], addresses: false)
        var (bytes, _) = try SpotBuild(pipeline: pipeline).run()
        let types = try #require(Self.section("KTYP", of: bytes))
        #expect(try SpotIndexReader(path: try folder.write(bytes, to: "good.spots")).kinds.count == types.count)
        bytes[types.lowerBound] = 3
        #expect(throws: IndexError.self) { try SpotIndexReader(path: try folder.write(bytes, to: "bad.spots")) }
    }

    @Test("the format's default unreached categories are the built-in table's under amenity and tourism")
    func defaultUnreachedCategories() throws {
        let pipeline = try Pipeline.defaults()
        #expect(pipeline.selection == .standard)
        #expect(
            pipeline.unreachedCategories.map(\.rawValue)
                == IndexMetadata.PipelineSettings.defaultUnreachedCategories)
    }

    @Test("every category is reached by a fixture object of the built-in table's rules, all its keys selected")
    func everyCategoryReached() throws {
        let table = try Pipeline.defaults().categories
        // One node per category: the first rule (or condition) that gives it, by key and value.
        var nodes: [String] = []
        for (number, category) in Category.allCases.enumerated() {
            let tags = try #require(Self.tags(giving: category, in: table), "no rule gives \(category)")
            let tagText = tags.map { "<tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }.joined()
            nodes.append("<node id=\"\(number + 1)\" lat=\"10\" lon=\"\(Double(number) / 10)\">\(tagText)</node>")
        }
        let keys = table.rules.keys.sorted()
        let index = try build("<osm>" + nodes.joined() + "</osm>") { pipeline in
            pipeline.selection = SpotSelection(keys: keys, addresses: false)
            pipeline.exclude = []
            pipeline.dedupe.enabled = false
        }
        let reached = Set(try spots(of: index).values.compactMap(\.category))
        #expect(Set(Category.allCases).subtracting(reached).isEmpty)
        #expect(table.unreachedCategories(selecting: keys).isEmpty)
        #expect(try index.metadata().pipeline?.unreachedCategories == [])
    }

    /// Tags that make an object the table maps to `category`: the selecting tag, and the
    /// condition's tag when a condition gives it; nil when no rule does.
    static func tags(giving category: Category, in table: CategoryTable) -> [(key: String, value: String)]? {
        for key in table.rules.keys.sorted() {
            for (value, rule) in table.rules[key]!.sorted(by: { $0.key < $1.key }) {
                if rule.category == category && rule.conditions.isEmpty { return [(key, value)] }
                if let condition = rule.conditions.first(where: { $0.category == category }),
                    condition.key != key
                {
                    return [(key, value), (condition.key, condition.value)]
                }
            }
        }
        for key in table.rules.keys.sorted() {
            for (value, rule) in table.rules[key]!.sorted(by: { $0.key < $1.key }) where rule.category == category {
                return [(key, value)]
            }
        }
        return nil
    }

    static let mixed = """
        <osm>
        <node id="1" lat="46.5" lon="9.5"><tag k="shop" v="bakery"/><tag k="name" v="Beck"/></node>
        <node id="2" lat="46.6" lon="9.6"><tag k="natural" v="peak"/><tag k="name" v="Piz"/><tag k="ele" v="3001"/></node>
        <node id="3" lat="46.7" lon="9.7"><tag k="amenity" v="restaurant"/><tag k="ele" v="1200"/></node>
        <node id="4" lat="46.8" lon="9.8"><tag k="leisure" v="pitch"/><tag k="sport" v="tennis"/></node>
        <node id="5" lat="46.9" lon="9.9"><tag k="addr:street" v="Dorfstrasse"/><tag k="addr:housenumber" v="7"/>
          <tag k="name" v="Haus Alpenblick"/><tag k="phone" v="+41 1"/></node>
        <node id="6" lat="46.9" lon="9.9"><tag k="amenity" v="cafe"/><tag k="addr:street" v="Dorfstrasse"/>
          <tag k="addr:housenumber" v="7"/></node>
        <node id="7" lat="46.9" lon="9.9"><tag k="addr:street" v="Dorfstrasse"/><tag k="addr:housenumber" v="7"/></node>
        <node id="8" lat="47" lon="10"><tag k="shop" v="vacant"/><tag k="amenity" v="bench"/></node>
        </osm>
        """

    @Test("select names the keys in order; result types by key; ele kept for physical features only")
    func selectsByKeys() throws {
        let index = try build(Self.mixed) { pipeline in
            pipeline.selection = SpotSelection(keys: ["amenity", "shop", "leisure", "natural"], addresses: false)
        }
        let spots = try spots(of: index)
        #expect(spots.count == 5, "the bakery, peak, restaurant, pitch and cafe")
        let bakery = try #require(spots[OSMRef(.node, 1)])
        #expect(bakery.category == .bakery && bakery.tag == "shop=bakery" && bakery.resultType == .pointOfInterest)
        let peak = try #require(spots[OSMRef(.node, 2)])
        #expect(peak.resultType == .physicalFeature && peak.details[.elevation] == "3001")
        #expect(spots[OSMRef(.node, 3)]?.details[.elevation] == nil)
        #expect(spots[OSMRef(.node, 4)]?.category == .tennis)
        #expect(index.kinds.contains { $0.resultType == .physicalFeature })
        #expect(try index.metadata().pipeline?.select == ["amenity", "shop", "leisure", "natural"])
    }

    @Test("address points: a house number and no selecting tag; their address alone; never folded")
    func addressPoints() throws {
        let index = try build(Self.mixed) { pipeline in
            pipeline.selection = SpotSelection(keys: ["amenity"], addresses: true)
        }
        let spots = try spots(of: index)
        let point = try #require(spots[OSMRef(.node, 5)])
        #expect(point.resultType == .address && point.category == nil && point.tag == "addr:housenumber=*")
        #expect(point.name == nil && point.details.isEmpty)
        #expect(point.address == ["street": "Dorfstrasse", "housenumber": "7"])
        // The cafe at the same address and the bare address node stay apart from it.
        #expect(spots[OSMRef(.node, 6)]?.category == .cafe)
        #expect(spots[OSMRef(.node, 7)]?.resultType == .address)
        #expect(spots[OSMRef(.node, 1)] == nil, "shop is not selected here, and a bakery has no house number")
        #expect(try index.metadata().pipeline?.addresses == true)
    }

    @Test("address points are in no cluster: shown only past the levels' last zoom")
    func addressPointsNotClustered() throws {
        let index = try build(Self.mixed) { pipeline in
            pipeline.selection = SpotSelection(keys: ["amenity"], addresses: true)
        }
        let levels = try #require(index.clusterLevels)
        for number in 0..<index.count {
            let visible = try levels.visibleFrom(spot: number)
            if try index.kind(at: number).resultType == .address {
                #expect(visible == levels.settings.maxZoom + 1)
            } else {
                #expect(visible <= levels.settings.maxZoom)
            }
        }
    }

    @Test("a pipeline file's select is one or more distinct keys, and addresses a flag")
    func pipelineFileKeys() throws {
        let base = try Pipeline.defaults()
        func parse(_ text: String) throws -> Pipeline {
            try PipelineFile.parse(text, file: "p.json", folder: URL(fileURLWithPath: "/tmp"), over: base)
        }
        let parsed = try parse(#"{"select": ["shop", "amenity"], "addresses": true}"#)
        #expect(parsed.selection == SpotSelection(keys: ["shop", "amenity"], addresses: true))
        #expect(try parse("{}").selection == .standard)
        for bad in [
            #"{"select": []}"#, #"{"select": ["shop", "shop"]}"#, #"{"select": ["shop=bakery"]}"#,
            #"{"select": ["addr:housenumber"]}"#, #"{"select": "shop"}"#, #"{"addresses": "yes"}"#,
        ] {
            #expect(throws: JSONFieldError.self, "\(bad)") { try parse(bad) }
        }
    }
}
