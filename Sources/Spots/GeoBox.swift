/// A rectangle of the map in fixed point (degrees × 10^7), edges included: an index's extent, a
/// box of the spatial trees, a cluster's box, the region of a search.
///
/// Edges are named for the compass: `westE7`, `southE7`, `eastE7`, `northE7`. A box whose western
/// edge lies east of its eastern edge crosses the antimeridian: it runs east from `westE7` to
/// 180° and on from -180° to `eastE7`. Written, it is "MINLON,MINLAT,MAXLON,MAXLAT" (west,
/// south, east, north), the order of GeoJSON's `bbox` and osmium's `--bbox`.
public struct GeoBox: Hashable, Sendable, CustomStringConvertible {
    /// Western edge, degrees × 10^7.
    public var westE7: Int32
    /// Southern edge, degrees × 10^7.
    public var southE7: Int32
    /// Eastern edge, degrees × 10^7.
    public var eastE7: Int32
    /// Northern edge, degrees × 10^7.
    public var northE7: Int32

    /// A box with these edges, taken as they are (a tree box read from a file may lie anywhere).
    @inlinable
    public init(westE7: Int32, southE7: Int32, eastE7: Int32, northE7: Int32) {
        self.westE7 = westE7
        self.southE7 = southE7
        self.eastE7 = eastE7
        self.northE7 = northE7
    }

    /// The box of one point.
    @inlinable
    public init(_ coordinate: Coordinate) {
        self.init(
            westE7: coordinate.longitudeE7, southE7: coordinate.latitudeE7, eastE7: coordinate.longitudeE7,
            northE7: coordinate.latitudeE7)
    }

    /// The whole Earth.
    public static let world = GeoBox(
        westE7: -1_800_000_000, southE7: -900_000_000, eastE7: 1_800_000_000, northE7: 900_000_000)

    /// The smallest box (not crossing the antimeridian) holding every coordinate, or nil when
    /// there are none. Inlinable, so that callers' sequences (a polygon's rings joined) are
    /// walked by code specialized for them.
    @inlinable
    public init?<S: Sequence>(enclosing coordinates: S) where S.Element == Coordinate {
        var iterator = coordinates.makeIterator()
        guard let first = iterator.next() else { return nil }
        self.init(first)
        while let next = iterator.next() { formUnion(GeoBox(next)) }
    }

    /// The smallest box holding every box of `boxes`, none of which crosses the antimeridian;
    /// nil when there are none.
    @inlinable
    public init?<S: Sequence>(enclosing boxes: S) where S.Element == GeoBox {
        var iterator = boxes.makeIterator()
        guard let first = iterator.next() else { return nil }
        self = first
        while let next = iterator.next() { formUnion(next) }
    }

    /// A box as GeoJSON and osmium give it: west, south, east, north (MINLON, MINLAT, MAXLON,
    /// MAXLAT) in degrees, rounded to the nearest 10^-7; nil when a value is not a number or off
    /// the Earth, or the south edge is north of the north edge. West may be east of east: the
    /// box then crosses the antimeridian.
    public init?(west: Double, south: Double, east: Double, north: Double) {
        guard let westE7 = Self.fixed(west, limit: 180), let southE7 = Self.fixed(south, limit: 90),
            let eastE7 = Self.fixed(east, limit: 180), let northE7 = Self.fixed(north, limit: 90), southE7 <= northE7
        else { return nil }
        self.init(westE7: westE7, southE7: southE7, eastE7: eastE7, northE7: northE7)
    }

    /// A box as MKCoordinateRegion gives it: a centre and the spans in degrees. The latitude span
    /// stops at the poles; the longitude span wraps across the antimeridian, and from 360° on
    /// covers every longitude. Nil for a negative span.
    public init?(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
        guard latitudeDelta >= 0, longitudeDelta >= 0 else { return nil }
        let south = max(-90, center.latitude - latitudeDelta / 2)
        let north = min(90, center.latitude + latitudeDelta / 2)
        guard longitudeDelta < 360 else {
            self.init(west: -180, south: south, east: 180, north: north)
            return
        }
        func wrap(_ longitude: Double) -> Double {
            longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude
        }
        self.init(
            west: wrap(center.longitude - longitudeDelta / 2), south: south,
            east: wrap(center.longitude + longitudeDelta / 2), north: north)
    }

    /// Whether the box crosses the antimeridian: its western edge lies east of its eastern one.
    @inlinable
    public var crossesAntimeridian: Bool { westE7 > eastE7 }

    /// The box as boxes that do not cross the antimeridian: itself, or its part from its western
    /// edge to 180° and its part from -180° to its eastern edge, in that order.
    public func splitAtAntimeridian() -> [GeoBox] {
        guard crossesAntimeridian else { return [self] }
        return [
            GeoBox(westE7: westE7, southE7: southE7, eastE7: GeoBox.world.eastE7, northE7: northE7),
            GeoBox(westE7: GeoBox.world.westE7, southE7: southE7, eastE7: eastE7, northE7: northE7),
        ]
    }

    /// Whether `coordinate` lies in the box, edges included.
    @inlinable
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitudeE7 >= southE7, coordinate.latitudeE7 <= northE7 else { return false }
        return crossesAntimeridian
            ? coordinate.longitudeE7 >= westE7 || coordinate.longitudeE7 <= eastE7
            : coordinate.longitudeE7 >= westE7 && coordinate.longitudeE7 <= eastE7
    }

    /// Whether the boxes share a point, edges included; either may cross the antimeridian.
    @inlinable
    public func intersects(_ other: GeoBox) -> Bool {
        guard southE7 <= other.northE7, northE7 >= other.southE7 else { return false }
        switch (crossesAntimeridian, other.crossesAntimeridian) {
        case (false, false): return westE7 <= other.eastE7 && eastE7 >= other.westE7
        case (true, false): return other.eastE7 >= westE7 || other.westE7 <= eastE7
        case (false, true): return eastE7 >= other.westE7 || westE7 <= other.eastE7
        case (true, true): return true  // both hold the antimeridian
        }
    }

    /// The smallest box holding this box and `other`, neither crossing the antimeridian.
    @inlinable
    public func union(_ other: GeoBox) -> GeoBox {
        var union = self
        union.formUnion(other)
        return union
    }

    /// Grows the box to hold `other` as well; neither may cross the antimeridian.
    @inlinable
    public mutating func formUnion(_ other: GeoBox) {
        westE7 = min(westE7, other.westE7)
        southE7 = min(southE7, other.southE7)
        eastE7 = max(eastE7, other.eastE7)
        northE7 = max(northE7, other.northE7)
    }

    /// The box's centre, halfway between its edges (across the antimeridian for a box that
    /// crosses it): where a region search measures distances from. With edges off the Earth, it
    /// is clamped onto it.
    public var center: Coordinate {
        let latitude = (Int64(southE7) + Int64(northE7)) / 2
        let turn: Int64 = 3_600_000_000
        var longitude = (Int64(westE7) + Int64(eastE7) + (crossesAntimeridian ? turn : 0)) / 2
        if longitude > turn / 2 { longitude -= turn }
        let clampedLatitude = Int32(min(max(latitude, -900_000_000), 900_000_000))
        let clampedLongitude = Int32(min(max(longitude, -turn / 2), turn / 2))
        // Both values are clamped to the Earth, so the coordinate exists.
        return Coordinate(latitudeE7: clampedLatitude, longitudeE7: clampedLongitude)!
    }

    /// The box as GeoJSON and osmium write it: "MINLON,MINLAT,MAXLON,MAXLAT", each with seven
    /// decimals.
    public var description: String {
        [westE7, southE7, eastE7, northE7].map(Coordinate.decimalString).joined(separator: ",")
    }

    private static func fixed(_ degrees: Double, limit: Double) -> Int32? {
        guard degrees.isFinite, abs(degrees) <= limit else { return nil }
        return Int32((degrees * 1e7).rounded())
    }
}
