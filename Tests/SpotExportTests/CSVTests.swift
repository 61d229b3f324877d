import Foundation
import SpotExport
import SpotIndex
import SpotTestSupport
import SpotText
import Spots
import Testing

@Suite("CSV export")
struct CSVTests {
    /// The fields a spot's row should hold, computed here from the spot, column by column.
    static func expectedRow(_ spot: Spot) -> [String] {
        [
            spot.ref.type.name, String(spot.ref.id), Coordinate.decimalString(spot.coordinate.latitudeE7),
            Coordinate.decimalString(spot.coordinate.longitudeE7), spot.category?.rawValue ?? "",
            spot.category?.mapKitRawValue ?? "",
            spot.kind, spot.tagKey + "=" + spot.kind, spot.resultType.rawValue, spot.name ?? "",
            spot.name ?? spot.names["en"] ?? spot.names.min { $0.key < $1.key }?.value ?? spot.details[.brand]
                ?? spot.details[.operator] ?? "",
            spot.details[.phone] ?? "", spot.details[.website] ?? "", spot.details[.openingHours] ?? "",
            spot.details[.cuisine] ?? "", spot.details[.wikidata] ?? "", spot.details[.wikipedia] ?? "",
            spot.details[.brand] ?? "", spot.details[.operator] ?? "", spot.details[.elevation] ?? "",
            AddressLine(spot.address).listing,
        ]
    }

    /// Exports `spots` and reads the CSV back: one row per spot, in index order, each holding
    /// the fields of the spot it names, column by column.
    static func expectRoundTrip(_ spots: [Spot], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = byReference(spots)
        let index = try openIndex(of: spots)
        let text = try exported(index, as: .csv)
        let records = try parseCSV(text)
        #expect(records.count == spots.count + 1, sourceLocation: sourceLocation)
        #expect(records.first == SpotExporter.csvHeader, sourceLocation: sourceLocation)
        var seen: Set<OSMRef> = []
        for (position, record) in records.dropFirst().enumerated() {
            let ref = try index.ref(at: position)
            #expect(seen.insert(ref).inserted, sourceLocation: sourceLocation)
            let spot = try #require(written[ref], "\(ref) was not written", sourceLocation: sourceLocation)
            #expect(
                Array(record.prefix(2)) == [ref.type.name, String(ref.id)],
                "row \(position + 1) is spot \(position) of the index", sourceLocation: sourceLocation)
            let expected = Self.expectedRow(spot)
            #expect(record.count == SpotExporter.csvHeader.count, "\(spot.ref)", sourceLocation: sourceLocation)
            for (column, (got, want)) in zip(SpotExporter.csvHeader, zip(record, expected)) {
                #expect(
                    Array(got.unicodeScalars) == Array(want.unicodeScalars), "\(spot.ref) \(column)",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(seen == Set(written.keys), sourceLocation: sourceLocation)
    }

    @Test("the header row is exactly the documented columns, joined by commas, ending in CRLF")
    func header() throws {
        #expect(
            SpotExporter.csvHeader == [
                "osm_type", "osm_id", "lat", "lon", "category", "mapkit_category", "kind", "tag", "result_type",
                "name", "display_name", "phone", "website", "opening_hours", "cuisine", "wikidata", "wikipedia",
                "brand", "operator", "ele", "address",
            ])
        let index = try openIndex(of: [])
        let text = try exported(index, as: .csv)
        #expect(text == SpotExporter.csvHeader.joined(separator: ",") + "\r\n")
    }

    @Test("every line ends in CRLF and there is no bare LF between records")
    func crlfLineEnds() throws {
        let index = try openIndex(of: [NDJSONTests.full, NDJSONTests.bare])
        let text = try exported(index, as: .csv)
        let scalars = Array(text.unicodeScalars)
        #expect(scalars.suffix(2) == ["\r", "\n"])
        for (position, scalar) in scalars.enumerated() where scalar == "\n" {
            #expect(position > 0 && scalars[position - 1] == "\r")
        }
        #expect(text.components(separatedBy: "\r\n").count == 4)
    }

    @Test("a plain row has each value unquoted, with empty fields where absent")
    func plainRow() throws {
        let rows = [
            NDJSONTests.bare.ref: "node,-1,-0.0000001,0.0000000,,,bench,amenity=bench,pointOfInterest,,,,,,,,,,,,",
            NDJSONTests.full.ref:
                "way,123456789012,60.1699000,-24.9384000,evCharger,MKPOICategoryEVCharger,charging_station,"
                + "amenity=charging_station,pointOfInterest,\"Lataus \"\"A\"\"\",\"Lataus \"\"A\"\"\",+358 1,https://example.fi/?a=1&b=2,"
                + "24/7,none,Q1,,,,,Mannerheimintie 1",
        ]
        let index = try openIndex(of: [NDJSONTests.bare, NDJSONTests.full])
        let lines = try exported(index, as: .csv).components(separatedBy: "\r\n")
        #expect(lines.count == 4)
        #expect(lines.last == "")
        for position in 0..<2 {
            #expect(lines[position + 1] == rows[try index.ref(at: position)], "row \(position + 1), in index order")
        }
    }

    @Test("fields with a comma, a quote or a line feed are quoted with quotes doubled, and read back field by field")
    func quoting() throws {
        var spot = NDJSONTests.bare
        spot.name = "Fish, Chips & \"Co\""
        spot.kind = "a\nb"
        spot.details = [
            .phone: "\"", .website: ",", .openingHours: "Mo 9-5\nTu 9-5", .cuisine: "lone\rcr", .wikidata: "\"\"",
        ]
        spot.address = ["street": "Rue \"X\"", "housenumber": "1,5"]
        let index = try openIndex(of: [spot])
        let lines = try exported(index, as: .csv).components(separatedBy: "\r\n")
        #expect(
            lines[1].hasPrefix(
                "node,-1,-0.0000001,0.0000000,,,\"a\nb\",\"amenity=a\nb\",pointOfInterest,\"Fish, Chips & \"\"Co\"\"\","
                    + "\"Fish, Chips & \"\"Co\"\"\",\"\"\"\",\",\",")
        )
        try Self.expectRoundTrip([spot])
    }

    @Test("a field holding a CR LF line break is quoted")
    func crlfInsideField() throws {
        var spot = NDJSONTests.bare
        spot.name = "first line\r\nsecond line"
        let index = try openIndex(of: [spot])
        let text = try exported(index, as: .csv)
        #expect(text.contains("\"first line\r\nsecond line\""), "the name field must be quoted")
        let records = try parseCSV(text)
        #expect(records.count == 2, "one header and one record")
    }

    @Test("random spots with awkward text read back field by field")
    func randomRoundTrip() throws {
        var factory = SpotFactory(seed: 23)
        let known = [NDJSONTests.full, NDJSONTests.bare]
        try Self.expectRoundTrip(factory.uniqueSpots(150, besides: known) + known)
    }
}
