import Foundation
import SpotText
import Spots

/// The order of text results: by relevance (match level, then score) or nearest first.
public enum SearchSort: String, Sendable, CaseIterable {
    /// Match level first, then the score within the level (docs/search.md, "How results are ranked").
    case relevance
    /// Nearest first, then match level; today's order before ranking, for those who want it.
    case distance
}

/// The relevance order, written once: match level, typos forgiven (`FuzzyWord`: 0 but at the
/// fuzzy level), name field, then the higher score. Results, and the best a run of candidates
/// can offer (`KeyBound`), are compared by it.
struct Relevance: Comparable {
    let level: MatchLevel
    let edits: Int
    let field: NameField
    /// The score within the level: higher is better.
    let score: Double

    static func < (a: Relevance, b: Relevance) -> Bool {
        (a.level, a.edits, a.field, -a.score) < (b.level, b.edits, b.field, -b.score)
    }
}

/// Where a candidate stands among the results of a text query. Compared by the request's sort:
/// relevance orders by `Relevance`, then OSM type and id; distance by distance, level, edits,
/// then OSM type and id, but with every match that forgives typos after those that do not.
struct RankKey: Comparable {
    let sort: SearchSort
    let level: MatchLevel
    /// The typos forgiven (`FuzzyWord`): 0 but at the fuzzy level.
    let edits: Int
    let field: NameField
    /// The score within the level: higher is better.
    let score: Double
    /// Metres from the point of reference, 0 without one.
    let distance: Double
    let ref: OSMRef

    /// Where the key stands in the relevance order.
    var relevance: Relevance { Relevance(level: level, edits: edits, field: field, score: score) }

    static func < (a: RankKey, b: RankKey) -> Bool {
        switch a.sort {
        case .relevance:
            (a.relevance, a.ref.type, a.ref.id) < (b.relevance, b.ref.type, b.ref.id)
        case .distance:
            (a.level == .fuzzy ? 1 : 0, a.distance, a.level, a.edits, a.ref.type, a.ref.id)
                < (b.level == .fuzzy ? 1 : 0, b.distance, b.level, b.edits, b.ref.type, b.ref.id)
        }
    }

    static func == (a: RankKey, b: RankKey) -> Bool { !(a < b) && !(b < a) }

    /// Whether every key a spot bounded by `bound` can have ranks after this one, its best score
    /// (at no distance) given by `scoring`.
    func precedes(_ bound: KeyBound, scoredBy scoring: Scoring) -> Bool {
        relevance < bound.relevance(score: scoring.score(quality: bound.score, distance: 0))
    }
}

/// The best key any spot of a run of candidates can have: its level, edits, field and quality
/// score (with a place, the score at no distance).
struct KeyBound: Comparable, Hashable {
    let level: MatchLevel
    let edits: Int
    let field: NameField
    let score: Int

    /// A bound; `edits` is 0 but at the fuzzy level.
    init(level: MatchLevel, edits: Int = 0, field: NameField, score: Int) {
        self.level = level
        self.edits = edits
        self.field = field
        self.score = score
    }

    /// The bound in the relevance order, with the score `score` (the quality score, or what a
    /// place makes of it).
    func relevance(score: Double) -> Relevance { Relevance(level: level, edits: edits, field: field, score: score) }

    static func < (a: KeyBound, b: KeyBound) -> Bool {
        a.relevance(score: Double(a.score)) < b.relevance(score: Double(b.score))
    }
}

/// The score within a level (docs/search.md, "How results are ranked"): the quality score, and with a
/// point of reference Photon's location bias, (1 + quality / 10) × exp(−distance / scale).
struct Scoring {
    /// The point distances are measured from, if any.
    let origin: Coordinate?
    /// The distance at which the bias falls to 1/e, in metres.
    let scale: Double

    /// The score of a spot of quality score `quality` at `distance` metres from the origin.
    func score(quality: Int, distance: Double) -> Double {
        guard origin != nil else { return Double(quality) }
        return (1 + Double(quality) / Double(PlaceQuality.maximumScore)) * exp(-distance / scale)
    }
}

extension Coordinate {
    /// The distance in metres between the latitudes of this point and `other`: never more than
    /// the great-circle distance between them, and cheap.
    func metresAlongMeridian(to other: Coordinate) -> Double {
        Double(abs(Int64(latitudeE7) - Int64(other.latitudeE7))) * 1e-7 * .pi / 180 * Coordinate.earthRadius
    }
}
