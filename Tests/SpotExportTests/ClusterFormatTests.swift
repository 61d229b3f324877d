import Foundation
import SpotCluster
import SpotExport
import SpotIndex
import SpotSearch
import SpotTestSupport
import Spots
import Testing

@Suite("Cluster output")
struct ClusterFormatTests {
    /// A cluster of 1,234 spots: 1,000 cafes and 234 museums.
    static let cluster = MapCluster(
        id: 7, coordinate: Coordinate(latitudeE7: 601_699_000, longitudeE7: 249_384_000)!, count: 1234,
        categories: [CategoryCount(.cafe, 1000), CategoryCount(.museum, 234)],
        boundingBox: GeoBox(enclosing: [
            Coordinate(latitudeE7: 601_000_000, longitudeE7: 249_000_000)!,
            Coordinate(latitudeE7: 602_000_000, longitudeE7: 250_000_000)!,
        ])!,
        expansionZoom: 5)

    /// `items` rendered as `format` for the index of the two known spots, as text.
    static func rendered(
        _ items: (SpotIndexReader) throws -> [ClusterItem], as format: ClusterFormat
    ) throws -> String {
        let index = try openIndex(of: [NDJSONTests.full, NDJSONTests.bare])
        return utf8Text(try format.render(try items(index), of: index))
    }

    /// The number of the spot `ref` in `index`.
    static func number(of ref: OSMRef, in index: SpotIndexReader) throws -> Int {
        try #require(try (0..<index.count).first { try index.ref(at: $0) == ref })
    }

    @Test("NDJSON: a cluster's fields and a spot's, one object a line, in the documented order")
    func ndjson() throws {
        let text = try Self.rendered(
            { [.cluster(Self.cluster), .spot(try Self.number(of: NDJSONTests.full.ref, in: $0))] }, as: .ndjson)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(
            lines[0] == #"{"cluster":true,"lat":60.1699000,"lon":24.9384000,"cluster_id":7,"#
                + #""point_count":1234,"categories":{"cafe":1000,"museum":234},"expansion_zoom":5,"#
                + #""bbox":[24.9000000,60.1000000,25.0000000,60.2000000]}"#)
        #expect(
            lines[1] == #"{"cluster":false,"lat":60.1699000,"lon":-24.9384000,"osm_type":"way","#
                + #""osm_id":123456789012,"category":"evCharger","result_type":"pointOfInterest","#
                + #""name":"Lataus \"A\"","display_name":"Lataus \"A\""}"#)
    }

    @Test("a single spot carries the export's reference and label fields, with the same values")
    func sharedSpotFields() throws {
        for spot in [NDJSONTests.full, NDJSONTests.bare] {
            let text = try Self.rendered({ [.spot(try Self.number(of: spot.ref, in: $0))] }, as: .ndjson)
            let object = try OrderedJSON.parse(String(text.dropLast()))
            let exported = try OrderedJSON.parse(ndjsonText(spot))
            #expect(
                object.keys == [
                    "cluster", "lat", "lon", "osm_type", "osm_id", "category", "result_type", "name", "display_name",
                ])
            for key in ["lat", "lon", "osm_type", "osm_id", "category", "result_type", "name", "display_name"] {
                #expect(object[key] == exported[key], "\(spot.ref) \(key)")
            }
        }
    }

    @Test("GeoJSON: features as supercluster's, in the export's FeatureCollection")
    func geojson() throws {
        let text = try Self.rendered(
            { [.cluster(Self.cluster), .spot(try Self.number(of: NDJSONTests.bare.ref, in: $0))] }, as: .geojson)
        #expect(text.hasPrefix("{\"type\":\"FeatureCollection\",\"features\":[\n") && text.hasSuffix("}}\n]}\n"))
        let features = try #require(try OrderedJSON.parse(text)["features"]?.array)
        #expect(features.count == 2)
        #expect(features[0].keys == ["type", "id", "bbox", "geometry", "properties"])
        #expect(features[0]["id"] == .number("7"))
        #expect(
            features[0]["geometry"]
                == .object([
                    ("type", .string("Point")),
                    ("coordinates", .array([.number("24.9384000"), .number("60.1699000")])),
                ]))
        #expect(
            features[0]["properties"]?.keys == [
                "cluster", "cluster_id", "point_count", "point_count_abbreviated", "categories", "expansion_zoom",
            ])
        #expect(features[0]["properties"]?["point_count_abbreviated"] == .string("1.2k"))
        #expect(features[1].keys == ["type", "id", "geometry", "properties"])
        #expect(features[1]["id"] == .string("n-1"))
        #expect(
            features[1]["properties"]?.keys == [
                "cluster", "osm_type", "osm_id", "category", "result_type", "name", "display_name",
            ])
        #expect(features[1]["properties"]?["category"] == .null)
    }

    @Test(
        "point_count_abbreviated is supercluster's: the count below 1000, else thousands",
        arguments: [
            (950, OrderedJSON.number("950")), (1000, .string("1k")), (1250, .string("1.3k")), (9999, .string("10k")),
            (15_400, .string("15k")),
        ])
    func abbreviation(_ count: Int, _ expected: OrderedJSON) throws {
        let cluster = MapCluster(
            id: nil, coordinate: Self.cluster.coordinate, count: count, categories: [],
            boundingBox: Self.cluster.boundingBox, expansionZoom: 1)
        let text = try Self.rendered({ _ in [.cluster(cluster)] }, as: .geojson)
        let feature = try #require(try OrderedJSON.parse(text)["features"]?.array?.first)
        #expect(feature.keys == ["type", "bbox", "geometry", "properties"], "no id without a cluster id")
        #expect(feature["properties"]?["point_count_abbreviated"] == expected)
        #expect(feature["properties"]?["cluster_id"] == .null)
    }

    @Test("no items: an empty FeatureCollection like the export's, or no lines")
    func empty() throws {
        let geojson = try Self.rendered({ _ in [] }, as: .geojson)
        let export = try exported(try openIndex(of: []), as: .geojson)
        #expect(geojson == export)
        #expect(try Self.rendered({ _ in [] }, as: .ndjson).isEmpty)
    }
}
