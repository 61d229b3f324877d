/// What an OSM object tells of how well known and how well mapped a place is, fixed at build
/// time and stored per spot: a search ranks better-known places first among equal matches
/// (docs/search.md, "How results are ranked").
///
/// Each flag is a fact read from the tags; `score` weighs them. The flags are what the index
/// stores (one byte per spot, FORMAT.md `QUAL`), so the weights live in code and a posting list
/// is ordered by the score they give when the index is written.
public struct PlaceQuality: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    /// A quality of the stored flags `rawValue`.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A `wikidata` tag.
    public static let wikidata = PlaceQuality(rawValue: 1 << 0)
    /// A `wikipedia` (or `wikipedia:xx`) tag.
    public static let wikipedia = PlaceQuality(rawValue: 1 << 1)
    /// A `website` tag.
    public static let website = PlaceQuality(rawValue: 1 << 2)
    /// An `opening_hours` tag.
    public static let openingHours = PlaceQuality(rawValue: 1 << 3)
    /// A `phone` tag.
    public static let phone = PlaceQuality(rawValue: 1 << 4)
    /// Mapped as an area (a way or relation) rather than a point.
    public static let area = PlaceQuality(rawValue: 1 << 5)

    /// Every flag there is.
    public static let known: PlaceQuality = [.wikidata, .wikipedia, .website, .openingHours, .phone, .area]
    /// The best score there is.
    public static let maximumScore = 10

    /// The flags of `spot`.
    public init(of spot: Spot) {
        var quality: PlaceQuality = []
        if spot.details[.wikidata] != nil { quality.insert(.wikidata) }
        if spot.hasWikipedia { quality.insert(.wikipedia) }
        if spot.details[.website] != nil { quality.insert(.website) }
        if spot.details[.openingHours] != nil { quality.insert(.openingHours) }
        if spot.details[.phone] != nil { quality.insert(.phone) }
        if spot.ref.type != .node { quality.insert(.area) }
        self = quality
    }

    /// The weight of the flags, 0 to `maximumScore`: an encyclopedia article (either tag) 4, a
    /// website 2, opening hours 2, a phone 1, an area 1.
    public var score: Int {
        (isDisjoint(with: [.wikidata, .wikipedia]) ? 0 : 4) + (contains(.website) ? 2 : 0)
            + (contains(.openingHours) ? 2 : 0) + (contains(.phone) ? 1 : 0) + (contains(.area) ? 1 : 0)
    }
}
