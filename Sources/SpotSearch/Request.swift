import Spots

/// A rectangle of the map, edges included, in degrees × 10^7. A box whose western edge is east
/// of its eastern edge crosses the antimeridian.
public struct SearchRegion: Sendable, Equatable {
    /// Southern and northern edges.
    public let minLatitudeE7, maxLatitudeE7: Int32
    /// Western and eastern edges.
    public let minLongitudeE7, maxLongitudeE7: Int32

    /// A box as GeoJSON and osmium give it: MINLON, MINLAT, MAXLON, MAXLAT, in degrees; nil
    /// when a value is off the Earth or the south edge is north of the north edge.
    public init?(minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double) {
        guard let south = Self.fixed(minLatitude, limit: 90), let north = Self.fixed(maxLatitude, limit: 90),
            let west = Self.fixed(minLongitude, limit: 180), let east = Self.fixed(maxLongitude, limit: 180), south <= north
        else { return nil }
        (minLatitudeE7, maxLatitudeE7, minLongitudeE7, maxLongitudeE7) = (south, north, west, east)
    }

    /// A region as MKCoordinateRegion gives it: a centre and the span in degrees, the longitude
    /// span wrapping across the antimeridian.
    public init?(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
        guard latitudeDelta >= 0, longitudeDelta >= 0 else { return nil }
        let south = max(-90, center.latitude - latitudeDelta / 2)
        let north = min(90, center.latitude + latitudeDelta / 2)
        if longitudeDelta >= 360 {
            self.init(minLongitude: -180, minLatitude: south, maxLongitude: 180, maxLatitude: north)
        } else {
            func wrap(_ longitude: Double) -> Double { longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude }
            self.init(
                minLongitude: wrap(center.longitude - longitudeDelta / 2), minLatitude: south,
                maxLongitude: wrap(center.longitude + longitudeDelta / 2), maxLatitude: north)
        }
    }

    /// Whether the box crosses the antimeridian.
    public var crossesAntimeridian: Bool { minLongitudeE7 > maxLongitudeE7 }

    /// Whether `coordinate` lies in the box, edges included.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitudeE7 >= minLatitudeE7, coordinate.latitudeE7 <= maxLatitudeE7 else { return false }
        return crossesAntimeridian
            ? coordinate.longitudeE7 >= minLongitudeE7 || coordinate.longitudeE7 <= maxLongitudeE7
            : coordinate.longitudeE7 >= minLongitudeE7 && coordinate.longitudeE7 <= maxLongitudeE7
    }

    /// Whether the box meets the rectangle [west, east] × [south, north] (not crossing).
    func intersects(west: Int32, south: Int32, east: Int32, north: Int32) -> Bool {
        guard south <= maxLatitudeE7, north >= minLatitudeE7 else { return false }
        return crossesAntimeridian
            ? east >= minLongitudeE7 || west <= maxLongitudeE7
            : east >= minLongitudeE7 && west <= maxLongitudeE7
    }

    /// The box's centre: where results of a region search are measured from.
    public var center: Coordinate {
        let latitude = (Int64(minLatitudeE7) + Int64(maxLatitudeE7)) / 2
        var longitude = (Int64(minLongitudeE7) + Int64(maxLongitudeE7) + (crossesAntimeridian ? 3_600_000_000 : 0)) / 2
        if longitude > 1_800_000_000 { longitude -= 3_600_000_000 }
        return Coordinate(latitudeE7: Int32(latitude), longitudeE7: Int32(longitude))!
    }

    private static func fixed(_ degrees: Double, limit: Double) -> Int32? {
        guard degrees.isFinite, abs(degrees) <= limit else { return nil }
        return Int32((degrees * 1e7).rounded())
    }
}

/// Which categories a search keeps, as MKPointOfInterestFilter says it.
public struct PointOfInterestFilter: Sendable, Equatable {
    /// Keep only these categories, or everything but them.
    public enum Mode: Sendable, Equatable { case including, excluding }
    /// Including or excluding.
    public let mode: Mode
    /// The categories named.
    public let categories: Set<Category>

    /// Keeps only spots of `categories`.
    public init(including categories: Set<Category>) {
        mode = .including
        self.categories = categories
    }

    /// Keeps every spot but those of `categories` (spots without a category are kept).
    public init(excluding categories: Set<Category>) {
        mode = .excluding
        self.categories = categories
    }

    /// Whether a spot of `category` passes.
    public func allows(_ category: Category?) -> Bool {
        switch mode {
        case .including: category.map(categories.contains) ?? false
        case .excluding: category.map { !categories.contains($0) } ?? true
        }
    }
}

/// What to search for, as MKLocalSearch.Request says it, plus `near` and `radius`.
public struct SearchRequest: Sendable, Equatable {
    /// Free text: words that name a category filter by it; other words must each start a word
    /// of one of the spot's names (or, in Chinese, Japanese and Korean, occur in it).
    public var naturalLanguageQuery: String?
    /// Only spots inside this box.
    public var region: SearchRegion?
    /// Only spots of these categories, or all but these.
    public var pointOfInterestFilter: PointOfInterestFilter?
    /// Measure distances from here and return the nearest first.
    public var near: Coordinate?
    /// Only spots within this many metres of `near`.
    public var radius: Double?
    /// At most this many results.
    public var limit: Int

    /// A request; every constraint is optional, the limit 20 by default.
    public init(
        naturalLanguageQuery: String? = nil, region: SearchRegion? = nil, pointOfInterestFilter: PointOfInterestFilter? = nil,
        near: Coordinate? = nil, radius: Double? = nil, limit: Int = 20
    ) {
        self.naturalLanguageQuery = naturalLanguageQuery
        self.region = region
        self.pointOfInterestFilter = pointOfInterestFilter
        self.near = near
        self.radius = radius
        self.limit = limit
    }
}

/// One result: the spot, and its distance in metres from `near` or the region's centre (nil for
/// a text search without either).
public struct SearchResult: Sendable, Equatable {
    /// The spot.
    public let spot: Spot
    /// Great-circle metres from the point of reference, or nil.
    public let distance: Double?

    /// A result.
    public init(spot: Spot, distance: Double?) {
        self.spot = spot
        self.distance = distance
    }
}

/// A request that cannot be answered as asked.
public struct SearchError: Error, CustomStringConvertible, Sendable {
    /// What is wrong with it.
    public let description: String

    /// An error saying `description`.
    public init(description: String) {
        self.description = description
    }
}
