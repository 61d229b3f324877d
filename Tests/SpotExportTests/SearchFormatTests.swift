import Foundation
import SpotExport
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotSearch

@Suite("Search results and batch answers")
struct SearchFormatTests {
    static let results = [
        SearchResult(spot: NDJSONTests.full, distance: 12.5),
        SearchResult(spot: NDJSONTests.bare, distance: nil),
    ]

    @Test("NDJSON: the export's line with distance_m last, null without a point of reference")
    func ndjson() throws {
        let lines = utf8Text(SearchFormat.ndjson.render(Self.results)).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        for (line, result) in zip(lines, Self.results) {
            let json = try OrderedJSON.parse(line)
            #expect(json.keys == NDJSONTests.keyOrder + ["distance_m"])
            #expect(line.hasPrefix(String(ndjsonText(result.spot).dropLast()) + ",\"distance_m\":"))
        }
        #expect(lines[0].hasSuffix(",\"distance_m\":12.5}") && lines[1].hasSuffix(",\"distance_m\":null}"))
    }

    @Test("GeoJSON: the export's features, distance_m among the properties")
    func geojson() throws {
        let text = utf8Text(SearchFormat.geojson.render(Self.results))
        #expect(text.hasPrefix("{\"type\":\"FeatureCollection\",\"features\":[\n") && text.hasSuffix("\n]}\n"))
        let features = try #require(try OrderedJSON.parse(text)["features"]?.array)
        #expect(features.count == 2)
        #expect(features[0]["properties"]?.keys == NDJSONTests.keyOrder + ["distance_m"])
        #expect(features[0]["properties"]?["distance_m"] == .number("12.5"))
        #expect(features[1]["id"] == .string("n-1"))
        #expect(utf8Text(SearchFormat.geojson.render([])) == "{\"type\":\"FeatureCollection\",\"features\":[\n\n]}\n")
    }

    @Test("the table aligns columns by display width, wide characters counted twice")
    func table() {
        var cafe = Spot(
            ref: OSMRef(.node, 42), coordinate: Coordinate(latitudeE7: 348_394_000, longitudeE7: 1_346_939_000)!,
            tagKey: "amenity", kind: "cafe", category: .cafe)
        cafe.name = "カフェ"
        cafe.address = ["street": "Honmachi", "housenumber": "68", "city": "Himeji"]
        let text = utf8Text(SearchFormat.table.render([SearchResult(spot: cafe, distance: 1234.4), Self.results[1]]))
        let expected = [
            "distance  category       name    address              osm  lat,lon",
            "1234 m    cafe           カフェ  Honmachi 68, Himeji  n42  34.8394000,134.6939000",
            "-         amenity=bench  -       -                    n-1  -0.0000001,0.0000000",
        ]
        #expect(text == expected.joined(separator: "\n") + "\n")
        #expect(
            utf8Text(SearchFormat.table.render([])) == "distance  category  name  address  osm  lat,lon\n(no spots)\n")
    }

    @Test("batch answers: results read from the index, and errors as JSON strings")
    func batch() throws {
        let index = try openIndex(of: [NDJSONTests.full, NDJSONTests.bare])
        let full = try #require(try (0..<index.count).first { try index.ref(at: $0) == NDJSONTests.full.ref })
        let match = SearchMatch(level: .prefix, field: "name:fi", score: 1.5)
        let ranked = [
            RankedSpot(spot: full, distance: nil, match: nil), RankedSpot(spot: full, distance: 3, match: nil),
            RankedSpot(spot: full, distance: 3, match: match),
        ]
        let answer = utf8Text(try BatchAnswer.results(ranked, language: nil, of: index))
        let brief =
            #"{"osm_type":"way","osm_id":123456789012,"lat":60.1699000,"lon":-24.9384000,"#
            + #""category":"evCharger","result_type":"pointOfInterest","name":"Lataus \"A\"","#
            + #""display_name":"Lataus \"A\"","#
            + #""address_line":"Mannerheimintie 1","distance_m":"#
        let why = #","match":{"level":"prefix","field":"name:fi","score":1.5},"display_name_key":"name""#
        #expect(answer == "{\"results\":[" + brief + "null}," + brief + "3.0}," + brief + "3.0" + why + "}]}")
        #expect(utf8Text(try BatchAnswer.results([ClusterItem](), of: index)) == "{\"results\":[]}")
        #expect(utf8Text(BatchAnswer.error("unknown key \"x\"\n")) == #"{"error":"unknown key \"x\"\n"}"#)
    }

    @Test("distances are written to the nearest 0.1 m; warnings follow the results only when there are some")
    func roundedDistancesAndWarnings() throws {
        let index = try openIndex(of: [NDJSONTests.full])
        let ranked = [RankedSpot(spot: 0, distance: 1234.5678901234, match: nil)]
        let plain = utf8Text(try BatchAnswer.results(ranked, language: nil, of: index))
        #expect(plain.hasSuffix(#""distance_m":1234.6}]}"#))
        let warned = utf8Text(try BatchAnswer.results(ranked, language: nil, warnings: ["a \"b\"", "c"], of: index))
        #expect(warned == String(plain.dropLast()) + #","warnings":["a \"b\"","c"]}"#)
        let clusters = utf8Text(try BatchAnswer.results([ClusterItem](), warnings: ["far"], of: index))
        #expect(clusters == #"{"results":[],"warnings":["far"]}"#)
        let result = SearchResult(spot: NDJSONTests.full, distance: 0.04999)
        #expect(utf8Text(SearchFormat.ndjson.render([result])).hasSuffix(#""distance_m":0.0}"# + "\n"))
        let geojson = utf8Text(SearchFormat.geojson.render([SearchResult(spot: NDJSONTests.full, distance: 99.95)]))
        #expect(geojson.contains(#""distance_m":100.0}"#))
    }
}
