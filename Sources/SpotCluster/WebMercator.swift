import Foundation
import Spots

/// The Web Mercator projection as supercluster computes it: x and y from 0 to 1, x eastward from
/// the antimeridian, y southward from about 85.05° north; latitudes beyond ±85.05° are
/// clamped to the edges.
public enum WebMercator {
    /// The x of a longitude in degrees × 10^7.
    public static func x(longitudeE7: Int32) -> Double {
        Double(longitudeE7) / 1e7 / 360 + 0.5
    }

    /// The y of a latitude in degrees × 10^7, clamped to [0, 1].
    public static func y(latitudeE7: Int32) -> Double {
        let sine = sin(Double(latitudeE7) / 1e7 * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }

    /// The longitude in degrees × 10^7 of `x`, rounded.
    public static func longitudeE7(x: Double) -> Int32 {
        Int32(((x - 0.5) * 360 * 1e7).rounded())
    }

    /// The latitude in degrees × 10^7 of `y`, rounded.
    public static func latitudeE7(y: Double) -> Int32 {
        let degrees = 360 * atan(exp((180 - y * 360) * .pi / 180)) / .pi - 90
        return Int32((degrees * 1e7).rounded())
    }

    /// The point of `coordinate`.
    public static func point(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        (x(longitudeE7: coordinate.longitudeE7), y(latitudeE7: coordinate.latitudeE7))
    }
}
