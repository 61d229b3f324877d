import SpotSearch
import Spots

/// Places on the map as people give them, in degrees, on the command line or in a batch line:
/// a point, a box, a zoom. Nil for a value off the Earth.
public enum MapInput {
    /// The point at `latitude`, `longitude` in degrees, rounded to 10^-7.
    public static func coordinate(latitude: Double, longitude: Double) -> Coordinate? {
        guard let latitudeE7 = fixedPoint(latitude), let longitudeE7 = fixedPoint(longitude) else { return nil }
        return Coordinate(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
    }

    /// The box with `edges` MINLON, MINLAT, MAXLON, MAXLAT in degrees (as GeoJSON and osmium
    /// give it); MINLON > MAXLON crosses the antimeridian.
    public static func box(_ edges: [Double]) -> GeoBox? {
        guard edges.count == 4 else { return nil }
        return GeoBox(west: edges[0], south: edges[1], east: edges[2], north: edges[3])
    }

    /// The highest zoom a request may ask for (maps go to about 22).
    public static let maxZoom = 30

    /// The zooms a request may ask for, fractions included.
    public static let zooms = 0...Double(maxZoom)

    /// A zoom as maps give it, rounded down.
    public static func zoom(_ value: Double) -> Int? {
        zooms.contains(value) ? Int(value.rounded(.down)) : nil
    }

    /// Degrees × 10^7 as `Int32`, or nil when not finite or out of `Int32`'s range.
    private static func fixedPoint(_ degrees: Double) -> Int32? {
        guard degrees.isFinite else { return nil }
        return Int32(exactly: (degrees * 1e7).rounded())
    }
}
