import Foundation
import SpotIndex
import SpotJSON
import SpotOutput
import SpotSearch
import SpotText
import Spots

/// The formats an index exports to.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// One JSON object per line, per spot.
    case ndjson
    /// A GeoJSON FeatureCollection of Points.
    case geojson
    /// RFC 4180 CSV with a header row.
    case csv
}

/// Writes an index's spots as NDJSON, GeoJSON or CSV. Every format carries the same fields,
/// named in snake_case; docs/outputs.md documents them.
public struct SpotExporter {
    /// The output format.
    public let format: ExportFormat

    /// An exporter for `format`.
    public init(format: ExportFormat) {
        self.format = format
    }

    /// Writes every spot of `index`, in index order, through `write` (called with pieces of UTF-8).
    public func export(_ index: SpotIndexReader, to write: ([UInt8]) throws -> Void) throws {
        switch format {
        case .ndjson:
            for position in 0..<index.count {
                let spot = try index.spot(at: position)
                try write(Self.ndjson(spot, shown: spot.displayName(language: nil)) + [0x0A])
            }
        case .geojson:
            try GeoJSON.writeCollection(
                count: index.count,
                feature: { position in
                    let spot = try index.spot(at: position)
                    return Self.geojson(spot, shown: spot.displayName(language: nil))
                }, to: write)
        case .csv:
            try write(Array((Self.csvHeader.joined(separator: ",") + "\r\n").utf8))
            for position in 0..<index.count {
                let fields = Self.csvRow(try index.spot(at: position)).map(Self.csvField)
                try write(Array((fields.joined(separator: ",") + "\r\n").utf8))
            }
        }
    }

    /// One spot as an NDJSON line (without the newline), showing the name `shown`
    /// (`Spot.displayName(language:)`), with `distance_m` and then `match` and
    /// `display_name_key` (`--explain`) last when given.
    public static func ndjson(
        _ spot: Spot, shown: DisplayName?, distance: Double?? = nil, match: SearchMatch?? = nil
    ) -> [UInt8] {
        var object = properties(spot, shown: shown)
        addResultFields(to: &object, shown: shown, distance: distance, match: match)
        return object.closed
    }

    /// One spot as a GeoJSON Feature showing the name `shown`, with `distance_m`, `match` and
    /// `display_name_key` among its properties when given.
    public static func geojson(
        _ spot: Spot, shown: DisplayName?, distance: Double?? = nil, match: SearchMatch?? = nil
    ) -> [UInt8] {
        var point: [UInt8] = []
        GeoJSON.appendPoint(spot.coordinate, to: &point)
        var feature = JSONObject()
        feature.add("type", "Feature")
        feature.add("id", spot.ref.description)
        feature.add("geometry", raw: point)
        var properties = properties(spot, shown: shown)
        addResultFields(to: &properties, shown: shown, distance: distance, match: match)
        feature.add("properties", raw: properties.closed)
        return feature.closed
    }

    /// A search result's fields after the spot's: `distance_m`, then with `--explain` its
    /// `match` and the key its display name comes from.
    private static func addResultFields(
        to object: inout JSONObject, shown: DisplayName?, distance: Double??, match: SearchMatch??
    ) {
        if let distance {
            var metres: [UInt8] = []
            JSONText.appendTenths(distance, to: &metres)
            object.add("distance_m", raw: metres)
        }
        if let match {
            object.add("match", raw: MatchJSON.object(match))
            object.add("display_name_key", shown?.key)
        }
    }

    /// The fields of a spot showing the name `shown`, in the documented order.
    private static func properties(_ spot: Spot, shown: DisplayName?) -> JSONObject {
        var object = JSONObject()
        object.add("osm_type", spot.ref.type.name)
        object.add("osm_id", integer: spot.ref.id)
        object.add("lat", fixedPoint: spot.coordinate.latitudeE7)
        object.add("lon", fixedPoint: spot.coordinate.longitudeE7)
        object.add("category", spot.category?.rawValue)
        object.add("mapkit_category", spot.category?.mapKitRawValue)
        object.add("kind", spot.kind)
        object.add("tag", spot.tag)
        object.add("result_type", spot.resultType.rawValue)
        object.add("name", spot.name)
        object.add("display_name", shown?.name)
        object.add("names", raw: JSONObject.closed(spot.names))
        object.add("address", raw: JSONObject.closed(spot.address))
        object.add("address_line", spot.addressLine)
        for detail in Spot.Detail.allCases { object.add(detail.jsonKey, spot.details[detail]) }
        var merged: [UInt8] = [UInt8(ascii: "[")]
        for (position, ref) in spot.merged.enumerated() {
            if position > 0 { merged.append(UInt8(ascii: ",")) }
            JSONText.appendString(ref.description, to: &merged)
        }
        merged.append(UInt8(ascii: "]"))
        object.add("merged", raw: merged)
        return object
    }

    /// The CSV columns: the scalar fields in export order, then the formatted address.
    public static let csvHeader =
        [
            "osm_type", "osm_id", "lat", "lon", "category", "mapkit_category", "kind", "tag", "result_type", "name",
            "display_name",
        ]
        + Spot.Detail.allCases.map(\.rawValue) + ["address"]

    private static func csvRow(_ spot: Spot) -> [String] {
        [
            spot.ref.type.name, String(spot.ref.id), Coordinate.decimalString(spot.coordinate.latitudeE7),
            Coordinate.decimalString(spot.coordinate.longitudeE7), spot.category?.rawValue ?? "",
            spot.category?.mapKitRawValue ?? "", spot.kind, spot.tag, spot.resultType.rawValue, spot.name ?? "",
            spot.displayName(language: nil)?.name ?? "",
        ] + Spot.Detail.allCases.map { spot.details[$0] ?? "" } + [AddressLine(spot.address).listing]
    }

    /// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
    private static func csvField(_ field: String) -> String {
        // Scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension Spot.Detail {
    /// The key as a static string, for `JSONObject`.
    var jsonKey: StaticString {
        switch self {
        case .phone: "phone"
        case .website: "website"
        case .openingHours: "opening_hours"
        case .cuisine: "cuisine"
        case .wikidata: "wikidata"
        case .wikipedia: "wikipedia"
        case .brand: "brand"
        case .operator: "operator"
        case .elevation: "ele"
        }
    }
}

extension ExportFormat: OutputFormat {
    /// `.ndjson`/`.jsonl` NDJSON, `.geojson`/`.json` GeoJSON, `.csv` CSV; `.html` and `.txt` refused.
    public static let byExtension: [String: ExportFormat?] = [
        "ndjson": .ndjson, "jsonl": .ndjson, "geojson": .geojson, "json": .geojson, "csv": .csv, "html": nil,
        "txt": nil,
    ]
    /// NDJSON.
    public static let byDefault = ExportFormat.ndjson
}
