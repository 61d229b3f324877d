import Foundation
import SpotExport
import SpotIndex
import Spots
import Testing

/// Everything `format` writes for `index`, which must be UTF-8.
func exported(_ index: SpotIndexReader, as format: ExportFormat, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> String
{
    var bytes: [UInt8] = []
    try SpotExporter(format: format).export(index) { bytes += $0 }
    return utf8Text(bytes, sourceLocation: sourceLocation)
}

/// `bytes` as text, recording an issue when they are not valid UTF-8.
func utf8Text(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
        Issue.record("not valid UTF-8: \(bytes)", sourceLocation: sourceLocation)
        return String(decoding: bytes, as: UTF8.self)
    }
    return text
}

/// A spot's NDJSON line (without the newline) as text.
func ndjsonText(_ spot: Spot, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    utf8Text(SpotExporter.ndjson(spot, shown: spot.displayName(language: nil)), sourceLocation: sourceLocation)
}

/// A spot's GeoJSON Feature as text.
func geojsonText(_ spot: Spot, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    utf8Text(SpotExporter.geojson(spot, shown: spot.displayName(language: nil)), sourceLocation: sourceLocation)
}

/// The written spots by reference, to compare with an index that orders them its own way.
func byReference(_ spots: [Spot]) -> [OSMRef: Spot] {
    Dictionary(
        spots.map { ($0.ref, $0) },
        uniquingKeysWith: { first, _ in
            Issue.record("two spots are \(first.ref)")
            return first
        })
}
