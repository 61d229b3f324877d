import Foundation
import SpotIndex
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
/// named in snake_case; the README documents them.
public struct SpotExporter {
    /// The output format.
    public let format: ExportFormat

    /// An exporter for `format`.
    public init(format: ExportFormat) {
        self.format = format
    }

    /// Writes every spot of `index`, in index order, through `write` (called with text pieces).
    public func export(_ index: SpotIndexReader, to write: (String) throws -> Void) throws {
        switch format {
        case .ndjson:
            for position in 0..<index.count { try write(Self.ndjson(try index.spot(at: position)) + "\n") }
        case .geojson:
            try write("{\"type\":\"FeatureCollection\",\"features\":[\n")
            for position in 0..<index.count {
                try write((position == 0 ? "" : ",\n") + Self.geojson(try index.spot(at: position)))
            }
            try write("\n]}\n")
        case .csv:
            try write(Self.csvHeader.joined(separator: ",") + "\r\n")
            for position in 0..<index.count {
                try write(Self.csvRow(try index.spot(at: position)).map(Self.csvField).joined(separator: ",") + "\r\n")
            }
        }
    }

    /// One spot as an NDJSON line (without the newline), with `distance_m` last when given.
    public static func ndjson(_ spot: Spot, distance: Double?? = nil) -> String {
        var object = properties(spot)
        if let distance { object.add("distance_m", raw: number(distance)) }
        return object.closed
    }

    /// The short form of a search result: `osm_type`, `osm_id`, `lat`, `lon`, `category`,
    /// `name`, `distance_m` (null without a point of reference).
    public static func brief(_ spot: Spot, distance: Double?) -> String {
        var object = JSONObject()
        object.add("osm_type", spot.ref.type.name)
        object.add("osm_id", raw: String(spot.ref.id))
        object.add("lat", raw: Coordinate.decimalString(spot.coordinate.latitudeE7))
        object.add("lon", raw: Coordinate.decimalString(spot.coordinate.longitudeE7))
        object.add("category", spot.category?.rawValue)
        object.add("name", spot.name)
        object.add("distance_m", raw: number(distance))
        return object.closed
    }

    /// A JSON string for `text`.
    public static func jsonString(_ text: String) -> String { JSONText.string(text) }

    /// A distance as JSON: the shortest decimal that reads back to the same Double, or null.
    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    /// One spot as a GeoJSON Feature, with `distance_m` among its properties when given.
    public static func geojson(_ spot: Spot, distance: Double?? = nil) -> String {
        let longitude = Coordinate.decimalString(spot.coordinate.longitudeE7)
        let latitude = Coordinate.decimalString(spot.coordinate.latitudeE7)
        var feature = JSONObject()
        feature.add("type", "Feature")
        feature.add("id", spot.ref.description)
        feature.add("geometry", raw: "{\"type\":\"Point\",\"coordinates\":[\(longitude),\(latitude)]}")
        var properties = properties(spot)
        if let distance { properties.add("distance_m", raw: number(distance)) }
        feature.add("properties", raw: properties.closed)
        return feature.closed
    }

    /// The fields of a spot, in the documented order.
    private static func properties(_ spot: Spot) -> JSONObject {
        var object = JSONObject()
        object.add("osm_type", spot.ref.type.name)
        object.add("osm_id", raw: String(spot.ref.id))
        object.add("lat", raw: Coordinate.decimalString(spot.coordinate.latitudeE7))
        object.add("lon", raw: Coordinate.decimalString(spot.coordinate.longitudeE7))
        object.add("category", spot.category?.rawValue)
        object.add("mapkit_category", spot.category?.mapKitRawValue)
        object.add("kind", spot.kind)
        object.add("tag", spot.tag)
        object.add("name", spot.name)
        object.add("names", raw: JSONText.object(spot.names))
        object.add("address", raw: JSONText.object(spot.address))
        for detail in Spot.Detail.allCases { object.add(detail.rawValue, spot.details[detail]) }
        object.add("merged", raw: "[" + spot.merged.map { JSONText.string($0.description) }.joined(separator: ",") + "]")
        return object
    }

    /// The CSV columns: the scalar fields in export order, then the formatted address.
    public static let csvHeader = ["osm_type", "osm_id", "lat", "lon", "category", "mapkit_category", "kind", "tag", "name"]
        + Spot.Detail.allCases.map(\.rawValue) + ["address"]

    private static func csvRow(_ spot: Spot) -> [String] {
        [
            spot.ref.type.name, String(spot.ref.id), Coordinate.decimalString(spot.coordinate.latitudeE7),
            Coordinate.decimalString(spot.coordinate.longitudeE7), spot.category?.rawValue ?? "",
            spot.category?.mapKitRawValue ?? "", spot.kind, spot.tag, spot.name ?? "",
        ] + Spot.Detail.allCases.map { spot.details[$0] ?? "" } + [formattedAddress(spot.address)]
    }

    /// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
    private static func csvField(_ field: String) -> String {
        // Scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The address on one line: `addr:full` when given; else "street housenumber, postcode
    /// city, country" from the parts present, then any other parts as `key: value`, in key order.
    public static func formattedAddress(_ address: [String: String]) -> String {
        if let full = address["full"] { return full }
        let groups = [["street", "housenumber"], ["postcode", "city"], ["country"]]
        var used = Set(groups.joined())
        if address["street"] == nil, address["place"] != nil {
            used.insert("place")
        }
        var parts = groups.map { group in
            group.compactMap { $0 == "street" ? address["street"] ?? address["place"] : address[$0] }.joined(separator: " ")
        }.filter { !$0.isEmpty }
        parts += address.keys.filter { !used.contains($0) }.sorted().map { "\($0): \(address[$0]!)" }
        return parts.joined(separator: ", ")
    }
}
