import SpotIndex
import SpotJSON
import SpotSearch

/// The answer lines of `--batch` (without their line break): `{"results":[...]}` for a request
/// answered, `{"error":"..."}` for a line that is not a valid request.
public enum BatchAnswer {
    /// The answer to a search request: each result's `osm_type`, `osm_id`, `lat`, `lon`,
    /// `category`, `result_type`, `name`, `display_name` (for a reader of `language`), `address_line` and
    /// `distance_m` (null without a point of reference), read from `index` without decoding the
    /// spot, and `match` and `display_name_key` when the request asked why; then `warnings`
    /// (`appendWarnings`).
    public static func results(
        _ ranked: [RankedSpot], language: String?, warnings: [String] = [], of index: SpotIndexReader
    ) throws -> [UInt8] {
        var bytes = Array("{\"results\":[".utf8)
        bytes.reserveCapacity(Self.bytesPerResult * ranked.count)
        let labels = try index.labels(of: ranked.map(\.spot), language: language)
        for (position, result) in ranked.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            try IndexedSpotFields.appendReference(of: result.spot, in: index, first: true, to: &bytes)
            IndexedSpotFields.appendLatitudeLongitude(try index.coordinate(at: result.spot), to: &bytes)
            try IndexedSpotFields.appendLabel(labels[position], of: result.spot, in: index, to: &bytes)
            JSONText.appendKey("distance_m", to: &bytes)
            JSONText.appendTenths(result.distance, to: &bytes)
            if let match = result.match {
                JSONText.appendKey("match", to: &bytes)
                bytes += MatchJSON.object(match)
                JSONText.appendKey("display_name_key", to: &bytes)
                JSONText.appendString(labels[position].displayName?.key, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        close(&bytes, warnings: warnings)
        return bytes
    }

    /// About what a search result takes (its fields, a name and an address line), so that an
    /// answer's bytes are seldom copied to grow.
    private static let bytesPerResult = 256

    /// The answer to a cluster request: the NDJSON objects of `spots cluster`, comma-separated;
    /// then `warnings` (`appendWarnings`).
    public static func results(
        _ items: [ClusterItem], warnings: [String] = [], of index: SpotIndexReader
    ) throws -> [UInt8] {
        var bytes = Array("{\"results\":[".utf8)
        for (position, item) in items.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            try ClusterJSON.appendObject(item, of: index, to: &bytes)
        }
        close(&bytes, warnings: warnings)
        return bytes
    }

    /// Closes the answer `bytes` (up to its results' last): `]`, then `,"warnings":[...]` when
    /// there are `warnings` (an answer without keeps its bytes), then `}`.
    private static func close(_ bytes: inout [UInt8], warnings: [String]) {
        bytes.append(UInt8(ascii: "]"))
        if !warnings.isEmpty {
            JSONText.appendKey("warnings", to: &bytes)
            bytes.append(UInt8(ascii: "["))
            for (position, warning) in warnings.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendString(warning, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The answer to a line that is not a valid request, saying why.
    public static func error(_ message: String) -> [UInt8] {
        var bytes = Array("{\"error\":".utf8)
        JSONText.appendString(message, to: &bytes)
        return bytes + [UInt8(ascii: "}")]
    }
}
