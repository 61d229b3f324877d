import Spots

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
    /// Only spots inside this box (which may cross the antimeridian).
    public var region: GeoBox?
    /// Only spots of these categories, or all but these.
    public var pointOfInterestFilter: PointOfInterestFilter?
    /// Only spots whose selecting tag (`key=value`) passes this filter.
    public var tagFilter: TagFilter?
    /// Only spots of these result types (as `MKLocalSearch.Request.resultTypes`); every type
    /// by default.
    public var resultTypes: ResultTypes = .all
    /// Measure distances from here and return the nearest first.
    public var near: Coordinate?
    /// Only spots within this many metres of `near`.
    public var radius: Double?
    /// At most this many results.
    public var limit: Int
    /// How text results are ordered: by relevance (the default) or nearest first.
    public var sort: SearchSort
    /// The distance in metres within which nearness counts little in a text query with a place:
    /// a name match's score is halved at this distance, and halved again at three times it
    /// (docs/search.md, "How results are ranked").
    public var distanceScale: Double
    /// How much the quality score still counts beside distance in a text query with a place and
    /// name words: the score is `weight × 1.5^(qualityWeight × q/10) / (1 + d/scale)`, so 1 (the
    /// default) is the documented ranking, 0 ignores quality there and 2 lets the best-known place
    /// rank before the least known up to 1.5² = 2.25 times as far. Clamped to
    /// `qualityWeightRange`; NaN counts as 1. It ranks nothing else.
    public var qualityWeight: Double
    /// Whether each result says why it came back (`SearchResult.match`): a name match costs a
    /// second reading of the result's names.
    public var explain: Bool
    /// The reader's language, a `name:xx` code ("ca", "zh-Hant"): the name each result shows
    /// (`SearchResult.displayName`) is the spot's name in it when it has one. It ranks nothing.
    public var language: String?

    /// The default `distanceScale`: 100 m, a city block, about where a phone's place is sure.
    public static let defaultDistanceScale = 100.0
    /// The quality weights a request may give; one beyond is taken as the nearest end.
    public static let qualityWeightRange = 0.0...10.0

    /// A request; every constraint is optional, the limit 20 by default.
    public init(
        naturalLanguageQuery: String? = nil, region: GeoBox? = nil, pointOfInterestFilter: PointOfInterestFilter? = nil,
        near: Coordinate? = nil, radius: Double? = nil, limit: Int = 20, sort: SearchSort = .relevance,
        distanceScale: Double = SearchRequest.defaultDistanceScale, qualityWeight: Double = 1, explain: Bool = false,
        language: String? = nil
    ) {
        self.naturalLanguageQuery = naturalLanguageQuery
        self.region = region
        self.pointOfInterestFilter = pointOfInterestFilter
        self.near = near
        self.radius = radius
        self.limit = limit
        self.sort = sort
        self.distanceScale = distanceScale
        self.qualityWeight = qualityWeight
        self.explain = explain
        self.language = language
    }
}

/// One result: the spot, its distance in metres from `near` or the region's centre (nil for
/// a text search without either), and for a text query why it came back.
public struct SearchResult: Sendable, Equatable {
    /// The spot.
    public let spot: Spot
    /// Great-circle metres from the point of reference, or nil.
    public let distance: Double?
    /// How the spot matched the query's text; nil without text.
    public let match: SearchMatch?
    /// The name it shows, in the request's language when the spot has one (`DisplayName`).
    public let displayName: DisplayName?
    /// The spot's address on one line, as its country writes it (`AddressLine`), or nil.
    public var addressLine: String? { spot.addressLine }

    /// A result, showing its name for a reader of `language`.
    public init(spot: Spot, distance: Double?, match: SearchMatch? = nil, language: String? = nil) {
        self.spot = spot
        self.distance = distance
        self.match = match
        displayName = spot.displayName(language: language)
    }
}

/// One result as spot number: what `SpotSearch.rankedSpots` gives before spots are decoded.
public struct RankedSpot: Sendable, Equatable {
    /// The spot's number in the index.
    public let spot: Int
    /// Great-circle metres from the point of reference, or nil.
    public let distance: Double?
    /// How it matched, when the request asked (`SearchRequest.explain`) and has text.
    public let match: SearchMatch?
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
