import Foundation
import Spots

/// A lower bound of the great-circle distance from a point to any point of a box, as geokdbush
/// computes it: exact along meridians, and through the point of the nearest meridian edge where
/// the great circle is farthest from the equator. `PackedTreeView.nearest` orders boxes by it.
public struct BoxDistance {
    private let longitude: Double
    @usableFromInline let latitude: Double
    private let cosLatitude: Double
    @usableFromInline static let radians = Double.pi / 180

    /// Bounds of distances from `origin`.
    public init(_ origin: Coordinate) {
        longitude = origin.longitude
        latitude = origin.latitude
        cosLatitude = cos(latitude * Self.radians)
    }

    /// The distance along the meridian from the origin to the latitude band [south, north]
    /// (degrees × 10^7): a lower bound of the great-circle distance to anything in the band, with
    /// no trigonometry. Inlinable: a nearest search checks every spot it reads against it.
    @inlinable
    public func alongMeridian(_ southE7: Int32, _ northE7: Int32) -> Double {
        let south = Double(southE7) / 1e7
        let north = Double(northE7) / 1e7
        let degrees = latitude < south ? south - latitude : latitude > north ? latitude - north : 0
        return max(0, degrees * Self.radians * Coordinate.earthRadius - 1e-6)
    }

    /// A lower bound of the great-circle distance from the origin to any point of `box` (not
    /// crossing the antimeridian), a hair below the exact value.
    public func minimum(to box: GeoBox) -> Double {
        let minLon = Double(box.westE7) / 1e7
        let maxLon = Double(box.eastE7) / 1e7
        let minLat = Double(box.southE7) / 1e7
        let maxLat = Double(box.northE7) / 1e7
        let h: Double
        if longitude >= minLon && longitude <= maxLon {
            h =
                latitude < minLat
                ? Self.haverSin((latitude - minLat) * Self.radians)
                : latitude > maxLat ? Self.haverSin((latitude - maxLat) * Self.radians) : 0
        } else {
            let haverSinDLon = min(
                Self.haverSin((longitude - minLon) * Self.radians), Self.haverSin((longitude - maxLon) * Self.radians))
            let extremum = vertexLatitude(haverSinDLon)
            if extremum > minLat && extremum < maxLat {
                h = partial(haverSinDLon, extremum)
            } else {
                h = min(partial(haverSinDLon, minLat), partial(haverSinDLon, maxLat))
            }
        }
        // A hair below the exact value, so that rounding never prunes a box holding a spot at
        // exactly the bound.
        return max(0, 2 * Coordinate.earthRadius * asin(min(1, h.squareRoot())) - 1e-6)
    }

    private static func haverSin(_ theta: Double) -> Double {
        let s = sin(theta / 2)
        return s * s
    }

    private func partial(_ haverSinDLon: Double, _ otherLatitude: Double) -> Double {
        cosLatitude * cos(otherLatitude * Self.radians) * haverSinDLon
            + Self.haverSin((latitude - otherLatitude) * Self.radians)
    }

    private func vertexLatitude(_ haverSinDLon: Double) -> Double {
        let cosDLon = 1 - 2 * haverSinDLon
        if cosDLon <= 0 { return latitude > 0 ? 90 : -90 }
        return atan(tan(latitude * Self.radians) / cosDLon) / Self.radians
    }
}
