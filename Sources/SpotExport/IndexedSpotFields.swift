import SpotIndex
import SpotJSON
import SpotText
import Spots

/// The fields an answer carries for a spot read from the index without decoding it: the
/// reference (`osm_type`, `osm_id`) and the label (`category`, `name`), in the words and
/// order the export uses. Batch search answers and clusters both write them.
enum IndexedSpotFields {
    /// Appends `"osm_type":…,"osm_id":…` of spot number `spot`, after `{` when `first`, else
    /// after a comma.
    static func appendReference(
        of spot: Int, in index: SpotIndexReader, first: Bool = false, to bytes: inout [UInt8]
    ) throws {
        let ref = try index.ref(at: spot)
        JSONText.appendKey("osm_type", first: first, to: &bytes)
        JSONText.appendString(ref.type.name, to: &bytes)
        JSONText.appendKey("osm_id", to: &bytes)
        JSONText.appendInteger(ref.id, to: &bytes)
    }

    /// Appends `,"category":…,"result_type":…,"name":…,"display_name":…` of spot number `spot`, each null when
    /// absent.
    static func appendLabel(of spot: Int, in index: SpotIndexReader, to bytes: inout [UInt8]) throws {
        let label = try index.label(at: spot)
        try appendKind(of: spot, in: index, to: &bytes)
        appendNames(label, to: &bytes)
    }

    /// Appends `,"name":…,"display_name":…` of `label`.
    private static func appendNames(_ label: SpotLabel, to bytes: inout [UInt8]) {
        JSONText.appendKey("name", to: &bytes)
        JSONText.appendString(label.name, to: &bytes)
        JSONText.appendKey("display_name", to: &bytes)
        JSONText.appendString(label.displayName?.name, to: &bytes)
    }

    /// Appends `,"category":…,"result_type":…,"name":…,"display_name":…,"address_line":…` of spot number `spot` with its `label`
    /// (`SpotIndexReader.labels(of:)`; the line by `AddressLine`), each null when absent.
    static func appendLabel(
        _ label: SpotLabel, of spot: Int, in index: SpotIndexReader, to bytes: inout [UInt8]
    ) throws {
        try appendKind(of: spot, in: index, to: &bytes)
        appendNames(label, to: &bytes)
        JSONText.appendKey("address_line", to: &bytes)
        // The line's pieces copied as they are, with no line made between.
        let pieces = AddressLine.Pieces(label.addressParts)
        if pieces.isEmpty {
            JSONText.appendString(nil, to: &bytes)
        } else {
            JSONText.appendString(to: &bytes) { write in pieces.forEachPiece(write) }
        }
    }

    /// Appends `,"category":…,"result_type":…` of spot number `spot`, the category null when it
    /// has none.
    private static func appendKind(of spot: Int, in index: SpotIndexReader, to bytes: inout [UInt8]) throws {
        let kind = try index.kind(at: spot)
        JSONText.appendKey("category", to: &bytes)
        JSONText.appendString(kind.category?.rawValue, to: &bytes)
        JSONText.appendKey("result_type", to: &bytes)
        JSONText.appendString(kind.resultType.rawValue, to: &bytes)
    }

    /// Appends `,"lat":…,"lon":…` with seven decimals.
    static func appendLatitudeLongitude(_ coordinate: Coordinate, to bytes: inout [UInt8]) {
        JSONText.appendKey("lat", to: &bytes)
        JSONText.appendFixedPoint(coordinate.latitudeE7, to: &bytes)
        JSONText.appendKey("lon", to: &bytes)
        JSONText.appendFixedPoint(coordinate.longitudeE7, to: &bytes)
    }
}
