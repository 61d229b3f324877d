import Foundation
import SpotExport
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@Suite("NDJSON export")
struct NDJSONTests {
    static let keyOrder = [
        "osm_type", "osm_id", "lat", "lon", "category", "mapkit_category", "kind", "tag", "result_type", "name",
        "display_name", "names", "address", "address_line", "phone", "website", "opening_hours", "cuisine", "wikidata",
        "wikipedia", "brand", "operator", "ele", "merged",
    ]

    static let full = Spot(
        ref: OSMRef(.way, 123_456_789_012), coordinate: Coordinate(latitudeE7: 601_699_000, longitudeE7: -249_384_000)!,
        tagKey: "amenity", kind: "charging_station", category: .evCharger, name: "Lataus \"A\"",
        names: ["sv": "Laddning", "fi": "Lataus"], address: ["street": "Mannerheimintie", "housenumber": "1"],
        details: [
            .phone: "+358 1", .website: "https://example.fi/?a=1&b=2", .openingHours: "24/7", .cuisine: "none",
            .wikidata: "Q1",
        ],
        merged: [OSMRef(.node, 5), OSMRef(.relation, -6)])

    static let bare = Spot(
        ref: OSMRef(.node, -1), coordinate: Coordinate(latitudeE7: -1, longitudeE7: 0)!, tagKey: "amenity",
        kind: "bench", category: nil)

    @Test("a spot's line has every key, in the documented order")
    func keyOrder() throws {
        for spot in [Self.full, Self.bare] {
            let line = ndjsonText(spot)
            #expect(!line.unicodeScalars.contains("\n"))
            #expect(try OrderedJSON.parse(line).keys == Self.keyOrder)
        }
    }

    @Test("a full spot's values are exported as written, with MapKit's raw category")
    func fullValues() throws {
        let json = try OrderedJSON.parse(ndjsonText(Self.full))
        #expect(json["osm_type"] == .string("way"))
        #expect(json["osm_id"] == .number("123456789012"))
        #expect(json["lat"] == .number("60.1699000"))
        #expect(json["lon"] == .number("-24.9384000"))
        #expect(json["category"] == .string("evCharger"))
        #expect(json["mapkit_category"] == .string("MKPOICategoryEVCharger"))
        #expect(json["kind"] == .string("charging_station"))
        #expect(json["tag"] == .string("amenity=charging_station"))
        #expect(json["name"] == .string("Lataus \"A\""))
        #expect(json["names"] == .object([("fi", .string("Lataus")), ("sv", .string("Laddning"))]))
        #expect(json["address"] == .object([("housenumber", .string("1")), ("street", .string("Mannerheimintie"))]))
        #expect(json["phone"] == .string("+358 1"))
        #expect(json["website"] == .string("https://example.fi/?a=1&b=2"))
        #expect(json["opening_hours"] == .string("24/7"))
        #expect(json["cuisine"] == .string("none"))
        #expect(json["wikidata"] == .string("Q1"))
        #expect(json["merged"] == .array([.string("n5"), .string("r-6")]))
    }

    @Test("absent values are null, absent maps and lists are empty")
    func nullsWhereAbsent() throws {
        let json = try OrderedJSON.parse(ndjsonText(Self.bare))
        for key in ["category", "mapkit_category", "name", "phone", "website", "opening_hours", "cuisine", "wikidata"] {
            #expect(json[key] == .null, "\(key)")
        }
        #expect(json["names"] == .object([]))
        #expect(json["address"] == .object([]))
        #expect(json["merged"] == .array([]))
        #expect(json["lat"] == .number("-0.0000001"))
        #expect(json["lon"] == .number("0.0000000"))
        #expect(json["osm_id"] == .number("-1"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(ndjsonText(Self.bare).utf8)) as? [String: Any])
        #expect(object["category"] is NSNull)
        #expect(object["name"] is NSNull)
    }

    @Test("an extension category is exported with a null MapKit category")
    func extensionCategory() throws {
        var spot = Self.bare
        spot.category = .viewpoint
        let json = try OrderedJSON.parse(ndjsonText(spot))
        #expect(json["category"] == .string("viewpoint"))
        #expect(json["mapkit_category"] == .null)
    }

    @Test("awkward strings survive a parse by JSONSerialization unchanged")
    func awkwardStrings() throws {
        let awkward = [
            "say \"hi\"", "back\\slash", "\\\"", "ctrl\u{0001}char", "\u{0000}", "\u{001F}\u{007F}", "line\nbreak",
            "cr\rlf\r\n",
            "tab\t", "emoji 🏳️‍🌈👍🏽", "日本語の名前", "مقهى", "\u{2028}\u{2029}", "</script>", "",
        ]
        for text in awkward {
            var spot = Self.bare
            spot.name = text
            spot.names = ["ja": text]
            spot.address = [text.isEmpty ? "street" : text: text]
            spot.details = [.openingHours: text]
            spot.kind = text
            let line = ndjsonText(spot)
            #expect(
                !line.unicodeScalars.contains { $0 == "\n" || $0 == "\r" },
                "no raw line breaks: \(line.debugDescription)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line.debugDescription)")
            #expect((object["name"] as? String).map { Array($0.unicodeScalars) } == Array(text.unicodeScalars))
            #expect((object["names"] as? [String: String])?["ja"] == text)
            #expect((object["address"] as? [String: String])?[text.isEmpty ? "street" : text] == text)
            #expect((object["opening_hours"] as? String) == text)
            #expect((object["kind"] as? String) == text)
            #expect((object["tag"] as? String) == "amenity=" + text)
            #expect(try OrderedJSON.parse(line)["name"] == .string(text))
        }
    }

    @Test("control characters are escaped as \\u00XX, or \\n, \\r, \\t")
    func controlEscapes() {
        var spot = Self.bare
        spot.name = "\u{0001}\u{001F}\n\r\t\u{0000}"
        #expect(ndjsonText(spot).contains(#""name":"\u0001\u001f\n\r\t\u0000""#))
    }

    @Test(
        "lat and lon are printed with exactly seven decimals",
        arguments: [
            (0, 0), (-1, 1), (900_000_000, -1_800_000_000), (-900_000_000, 1_800_000_000), (10_000_000, -10_000_000),
            (123_456_789, -987_654_321),
        ] as [(Int32, Int32)])
    func sevenDecimals(lat: Int32, lon: Int32) throws {
        var spot = Self.bare
        spot.coordinate = Coordinate(latitudeE7: lat, longitudeE7: lon)!
        let json = try OrderedJSON.parse(ndjsonText(spot))
        let pattern = #/^-?[0-9]+\.[0-9]{7}$/#
        let latText = try #require(json["lat"]?.number)
        let lonText = try #require(json["lon"]?.number)
        #expect(latText.wholeMatch(of: pattern) != nil)
        #expect(lonText.wholeMatch(of: pattern) != nil)
        #expect(latText == Coordinate.decimalString(lat))
        #expect(lonText == Coordinate.decimalString(lon))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ndjsonText(spot).utf8)) as? [String: Any])
        #expect(abs((object["lat"] as? Double ?? .nan) - Double(lat) / 1e7) < 1e-9)
        #expect(abs((object["lon"] as? Double ?? .nan) - Double(lon) / 1e7) < 1e-9)
    }

    @Test("extreme OSM ids are exported as exact integers")
    func extremeIds() throws {
        for id in [Int64.min, Int64.max, 0] {
            var spot = Self.bare
            spot.ref = OSMRef(.relation, id)
            let json = try OrderedJSON.parse(ndjsonText(spot))
            #expect(json["osm_id"] == .number(String(id)))
            #expect(json["osm_type"] == .string("relation"))
        }
    }

    @Test("exporting an index writes one line per spot, in index order, each the spot's ndjson")
    func wholeIndex() throws {
        var factory = SpotFactory(seed: 5)
        let spots = factory.uniqueSpots(60)
        let written = byReference(spots)
        let index = try openIndex(of: spots)
        let text = try exported(index, as: .ndjson)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == spots.count)
        var seen: Set<OSMRef> = []
        for (position, line) in lines.enumerated() {
            let ref = try index.ref(at: position)
            #expect(seen.insert(ref).inserted)
            let spot = try #require(written[ref])
            #expect(String(line) == ndjsonText(spot), "line \(position) is spot \(position) of the index")
            #expect(String(line) == ndjsonText(try index.spot(at: position)))
            let json = try OrderedJSON.parse(String(line))
            #expect(json.keys == Self.keyOrder)
            #expect(json["osm_id"] == .number(String(spot.ref.id)))
            #expect(json["name"] == (spot.name.map(OrderedJSON.string) ?? .null))
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
        #expect(seen == Set(written.keys))
    }

    @Test("exporting an empty index writes nothing")
    func emptyIndex() throws {
        let index = try openIndex(of: [])
        let text = try exported(index, as: .ndjson)
        #expect(text.isEmpty)
    }
}
