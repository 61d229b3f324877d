import Foundation
import SpotExport
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@Suite("GeoJSON export")
struct GeoJSONTests {
    @Test("an index exports as a FeatureCollection of Points at [lon, lat] with the NDJSON properties")
    func featureCollection() throws {
        var factory = SpotFactory(seed: 17)
        let known = [NDJSONTests.full, NDJSONTests.bare]
        let spots = factory.uniqueSpots(40, besides: known) + known
        let written = byReference(spots)
        let index = try openIndex(of: spots)
        let text = try exported(index, as: .geojson)
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == spots.count)

        let ordered = try OrderedJSON.parse(text)
        #expect(ordered.keys == ["type", "features"])
        let orderedFeatures = try #require(ordered["features"]?.array)
        #expect(Set(features.compactMap { $0["id"] as? String }) == Set(spots.map(\.ref.description)))
        for position in 0..<index.count {
            // Features come in index order; each is the spot the index holds there.
            let spot = try #require(written[try index.ref(at: position)])
            #expect(try index.spot(at: position) == spot)
            let feature = features[position]
            #expect(feature["type"] as? String == "Feature")
            #expect(feature["id"] as? String == spot.ref.description)
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            let coordinates = try #require(geometry["coordinates"] as? [Double])
            #expect(coordinates.count == 2)
            #expect(abs(coordinates[0] - spot.coordinate.longitude) < 1e-9, "longitude first")
            #expect(abs(coordinates[1] - spot.coordinate.latitude) < 1e-9, "latitude second")

            let orderedFeature = orderedFeatures[position]
            #expect(orderedFeature.keys == ["type", "id", "geometry", "properties"])
            #expect(
                orderedFeature["geometry"]?["coordinates"]
                    == .array([
                        .number(Coordinate.decimalString(spot.coordinate.longitudeE7)),
                        .number(Coordinate.decimalString(spot.coordinate.latitudeE7)),
                    ]))
            #expect(orderedFeature["properties"] == (try OrderedJSON.parse(ndjsonText(spot))))
            let properties = try #require(feature["properties"] as? NSDictionary)
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data(ndjsonText(spot).utf8)) as? NSDictionary)
            #expect(properties == line)
        }
    }

    @Test("a single feature is a complete GeoJSON Feature")
    func singleFeature() throws {
        let json = try OrderedJSON.parse(geojsonText(NDJSONTests.full))
        #expect(json["type"] == .string("Feature"))
        #expect(json["id"] == .string("w123456789012"))
        #expect(
            json["geometry"]
                == .object([
                    ("type", .string("Point")),
                    ("coordinates", .array([.number("-24.9384000"), .number("60.1699000")])),
                ]))
        #expect(json["properties"]?.keys == NDJSONTests.keyOrder)
    }

    @Test("an empty index exports as an empty FeatureCollection")
    func empty() throws {
        let index = try openIndex(of: [])
        let text = try exported(index, as: .geojson)
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        #expect((collection["features"] as? [Any])?.isEmpty == true)
    }
}
