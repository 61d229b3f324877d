import Foundation

/// A point on the Earth in fixed point: degrees × 10^7 as `Int32`, the way OpenStreetMap stores
/// coordinates. Fixed point keeps every coordinate exact from input to index to export.
public struct Coordinate: Hashable, Sendable {
    /// Fixed-point units per degree.
    public static let unitsPerDegree: Int32 = 10_000_000

    /// Latitude in degrees × 10^7, from -900,000,000 to 900,000,000.
    public let latitudeE7: Int32
    /// Longitude in degrees × 10^7, from -1,800,000,000 to 1,800,000,000.
    public let longitudeE7: Int32

    /// A coordinate from fixed-point values, or nil when either lies outside the Earth
    /// (|lat| > 90° or |lon| > 180°). Inlinable: index readers check every coordinate they load.
    @inlinable
    public init?(latitudeE7: Int32, longitudeE7: Int32) {
        guard abs(Int64(latitudeE7)) <= 900_000_000, abs(Int64(longitudeE7)) <= 1_800_000_000 else {
            return nil
        }
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    /// Latitude in degrees.
    public var latitude: Double { Double(latitudeE7) / 1e7 }
    /// Longitude in degrees.
    public var longitude: Double { Double(longitudeE7) / 1e7 }

    /// The mean radius of the Earth in metres, as used for every distance in Spots.
    public static let earthRadius = 6_371_008.8

    /// The great-circle distance to `other` in metres (haversine formula on a sphere).
    public func distance(to other: Coordinate) -> Double {
        DistanceFrom(other).distance(to: self)
    }

    /// A fixed-point value written as a decimal with exactly seven decimals ("-0.0000001",
    /// "60.1699000"): exact, with no floating-point rounding.
    public static func decimalString(_ valueE7: Int32) -> String {
        let magnitude = abs(Int64(valueE7))
        let whole = magnitude / 10_000_000
        let fraction = String(magnitude % 10_000_000)
        let padding = String(repeating: "0", count: 7 - fraction.count)
        return (valueE7 < 0 ? "-" : "") + "\(whole)." + padding + fraction
    }
}

/// Great-circle distances to one point (`Coordinate.distance(to:)`), its latitude's cosine worked
/// out once: what a search that measures many spots from one origin uses. Every distance is the
/// same Double `Coordinate.distance(to:)` gives.
public struct DistanceFrom: Sendable {
    /// The point distances are measured to.
    public let origin: Coordinate
    private let originCosine: Double

    /// Distances to `origin`.
    public init(_ origin: Coordinate) {
        self.origin = origin
        originCosine = cos(origin.latitude * (Double.pi / 180))
    }

    /// The great-circle distance from `point` to the origin in metres (haversine formula on a
    /// sphere).
    public func distance(to point: Coordinate) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (origin.latitude - point.latitude) * radians
        let deltaLongitude = (origin.longitude - point.longitude) * radians
        let a =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(point.latitude * radians) * originCosine * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        return 2 * Coordinate.earthRadius * asin(min(1, a.squareRoot()))
    }
}
