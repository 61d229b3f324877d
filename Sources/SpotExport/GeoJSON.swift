import SpotJSON
import Spots

/// The GeoJSON every command writes: one FeatureCollection wrapper and one Point geometry.
enum GeoJSON {
    /// Writes a FeatureCollection of `count` features through `write`; `feature` makes feature
    /// number `position` (from 0). The opening and a line break, the features separated by a
    /// comma and a line break, then a line break and the closing with a final line break.
    /// Features are written one at a time, so an export never holds them all.
    static func writeCollection(
        count: Int, feature: (_ position: Int) throws -> [UInt8], to write: ([UInt8]) throws -> Void
    ) rethrows {
        try write(Array("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8))
        for position in 0..<count {
            try write((position == 0 ? [] : Array(",\n".utf8)) + feature(position))
        }
        try write(Array("\n]}\n".utf8))
    }

    /// A FeatureCollection of `count` features as bytes.
    static func collection(count: Int, feature: (_ position: Int) throws -> [UInt8]) rethrows -> [UInt8] {
        var bytes: [UInt8] = []
        try writeCollection(count: count, feature: feature) { bytes += $0 }
        return bytes
    }

    /// Appends the Point geometry at `coordinate`: `{"type":"Point","coordinates":[lon,lat]}`.
    static func appendPoint(_ coordinate: Coordinate, to bytes: inout [UInt8]) {
        bytes += Array("{\"type\":\"Point\",\"coordinates\":[".utf8)
        JSONText.appendFixedPoint(coordinate.longitudeE7, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONText.appendFixedPoint(coordinate.latitudeE7, to: &bytes)
        bytes += Array("]}".utf8)
    }
}
