import Spots

/// The Hilbert curve index of a point on a 2^16 × 2^16 grid (as flatbush computes it): points
/// near each other on the curve are near each other on the map, so spots sorted by it fill the
/// packed R-tree's nodes with small boxes.
enum Hilbert {
    static func index(x: UInt32, y: UInt32) -> UInt32 {
        var a = x ^ y
        var b = 0xFFFF ^ a
        var c = 0xFFFF ^ (x | y)
        var d = x & (y ^ 0xFFFF)
        var aa = a | (b >> 1)
        var bb = (a >> 1) ^ a
        var cc = ((c >> 1) ^ (b & (d >> 1))) ^ c
        var dd = ((a & (c >> 1)) ^ (d >> 1)) ^ d
        a = aa
        b = bb
        c = cc
        d = dd
        aa = (a & (a >> 2)) ^ (b & (b >> 2))
        bb = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2))
        cc ^= (a & (c >> 2)) ^ (b & (d >> 2))
        dd ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2))
        a = aa
        b = bb
        c = cc
        d = dd
        aa = (a & (a >> 4)) ^ (b & (b >> 4))
        bb = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4))
        cc ^= (a & (c >> 4)) ^ (b & (d >> 4))
        dd ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4))
        a = aa
        b = bb
        c = cc
        d = dd
        cc ^= (a & (c >> 8)) ^ (b & (d >> 8))
        dd ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8))
        a = cc ^ (cc >> 1)
        b = dd ^ (dd >> 1)
        var i0 = x ^ y
        var i1 = b | (0xFFFF ^ (i0 | a))
        i0 = (i0 | (i0 << 8)) & 0x00FF_00FF
        i0 = (i0 | (i0 << 4)) & 0x0F0F_0F0F
        i0 = (i0 | (i0 << 2)) & 0x3333_3333
        i0 = (i0 | (i0 << 1)) & 0x5555_5555
        i1 = (i1 | (i1 << 8)) & 0x00FF_00FF
        i1 = (i1 | (i1 << 4)) & 0x0F0F_0F0F
        i1 = (i1 | (i1 << 2)) & 0x3333_3333
        i1 = (i1 | (i1 << 1)) & 0x5555_5555
        return (i1 << 1) | i0
    }
}

/// Hilbert indexes of coordinates over a box (16 bits a side): SPOT is sorted by them, and the
/// clusters of each zoom too.
struct HilbertKeys {
    private let box: GeoBox
    private let width, height: Int64

    /// Keys over the box enclosing `coordinates`; nil when there are none.
    init?(enclosing coordinates: [Coordinate]) {
        guard let box = GeoBox(enclosing: coordinates) else { return nil }
        self.box = box
        width = max(1, Int64(box.eastE7) - Int64(box.westE7))
        height = max(1, Int64(box.northE7) - Int64(box.southE7))
    }

    /// The Hilbert index of `coordinate`, clamped into the box.
    func key(_ coordinate: Coordinate) -> UInt32 {
        func scaled(_ value: Int32, _ low: Int32, _ extent: Int64) -> UInt32 {
            UInt32(min(extent, max(0, Int64(value) - Int64(low))) * 0xFFFF / extent)
        }
        return Hilbert.index(
            x: scaled(coordinate.longitudeE7, box.westE7, width), y: scaled(coordinate.latitudeE7, box.southE7, height))
    }
}
