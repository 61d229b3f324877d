import Foundation
import SpotJSON
import SpotOutput
import SpotSearch
import Spots

/// The formats `spots search` prints results in.
public enum SearchFormat: String, CaseIterable, Sendable {
    /// Aligned columns for people: distance, category, name, address line, reference, point.
    case table
    /// One JSON object per line, per result: the export's fields and `distance_m`.
    case ndjson
    /// A GeoJSON FeatureCollection of Points, `distance_m` among each one's properties.
    case geojson

    /// `results` in this format, as UTF-8. NDJSON and GeoJSON carry `distance_m` on every
    /// result, null without a point of reference; with `explain`, each result's `match` (NDJSON
    /// and GeoJSON) or a `why` column (the table).
    public func render(_ results: [SearchResult], explain: Bool = false) -> [UInt8] {
        switch self {
        case .table:
            return Array(ResultTable.text(results, explain: explain).utf8)
        case .ndjson:
            return results.flatMap { result in
                SpotExporter.ndjson(
                    result.spot, shown: result.displayName, distance: .some(result.distance),
                    match: explain ? .some(result.match) : nil)
                    + [0x0A]
            }
        case .geojson:
            return GeoJSON.collection(count: results.count) { position in
                let result = results[position]
                return SpotExporter.geojson(
                    result.spot, shown: result.displayName, distance: .some(result.distance),
                    match: explain ? .some(result.match) : nil)
            }
        }
    }
}

/// Search results as a table for a terminal: a header row, one row per result, columns two
/// spaces apart, wide (East Asian) characters counted twice; "(no spots)" after the header
/// when there are none.
enum ResultTable {
    /// The table's text, every row ended by a line break.
    /// The name column shows each result's display name. With `explain`, a last column says
    /// why each result came back: its level, the name key (or tag) matched and its score, and
    /// the key its display name comes from.
    static func text(_ results: [SearchResult], explain: Bool = false) -> String {
        var rows = [["distance", "category", "name", "address", "osm", "lat,lon"] + (explain ? ["why"] : [])]
        for result in results {
            let spot = result.spot
            let why =
                result.match.map { match in
                    let level = match.level == .fuzzy ? "fuzzy(\(match.edits))" : match.level.name
                    return "\(level) \(match.field) \(String(format: "%.3g", match.score))"
                } ?? "-"
            let shownKey = result.displayName.map { "; shown: \($0.key)" } ?? ""
            rows.append(
                [
                    result.distance.map { String(format: "%.0f m", $0) } ?? "-", spot.category?.rawValue ?? spot.tag,
                    result.displayName?.name ?? "-", result.addressLine ?? "-", spot.ref.description,
                    Coordinate.decimalString(spot.coordinate.latitudeE7) + ","
                        + Coordinate.decimalString(spot.coordinate.longitudeE7),
                ] + (explain ? [why + shownKey] : []))
        }
        let last = rows[0].count - 1
        let widths = (0..<last).map { column in rows.map { displayWidth($0[column]) }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { column, text in
                column == last ? text : text + String(repeating: " ", count: widths[column] + 2 - displayWidth(text))
            }.joined()
        }
        return lines.joined(separator: "\n") + "\n" + (results.isEmpty ? "(no spots)\n" : "")
    }

    /// Columns a terminal gives `text`: two for East Asian wide characters, none for combining
    /// marks, one for the rest.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x20000...0x3FFFD:
                width + 2
            default: width + (scalar.properties.generalCategory == .nonspacingMark ? 0 : 1)
            }
        }
    }
}

extension SearchFormat: OutputFormat {
    /// `.ndjson`/`.jsonl` NDJSON, `.geojson`/`.json` GeoJSON, `.txt` the table; `.csv` and `.html` refused.
    public static let byExtension: [String: SearchFormat?] = [
        "ndjson": .ndjson, "jsonl": .ndjson, "geojson": .geojson, "json": .geojson, "txt": .table, "csv": nil,
        "html": nil,
    ]
    /// The table.
    public static let byDefault = SearchFormat.table
}

/// The `match` object of `--explain`: `{"level":…,"field":…,"score":…}`, or null for a result of
/// a search without text.
enum MatchJSON {
    /// The object of `match`, or null.
    static func object(_ match: SearchMatch?) -> [UInt8] {
        guard let match else { return Array("null".utf8) }
        var object = JSONObject()
        object.add("level", match.level.name)
        object.add("field", match.field)
        object.add("score", raw: String(format: "%.4g", match.score))
        if match.level == .fuzzy { object.add("edits", integer: Int64(match.edits)) }
        return object.closed
    }
}
