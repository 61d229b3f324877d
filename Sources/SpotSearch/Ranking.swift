import Foundation
import SpotText
import Spots

/// The order of text results: by relevance (match level, then score) or nearest first.
public enum SearchSort: String, Sendable, CaseIterable {
    /// What the query meant, as docs/search.md's "How results are ranked" says: without a place
    /// match level first; with one, kinds named by distance or one score of level and distance.
    case relevance
    /// Nearest first, then match level; today's order before ranking, for those who want it.
    case distance
}

/// How a candidate fits the kinds a query's category phrases name.
struct KindFit {
    /// Whether some phrase is met otherwise than by the spot's kind or the build's lists of its
    /// targets (by its names alone: a theatre named "Comics Museum" for "museum").
    let missed: Bool
    /// How many of the phrases' targets the spot meets, its kind counting once per phrase and
    /// each target's list once ("coffee": a café tagged `cuisine=coffee_shop` meets two).
    let targetsMet: Int

    /// The fit of a spot of a query without phrases, and the best a spot can have.
    static let best = KindFit(missed: false, targetsMet: RankOrder.countedTargets)
}

/// How the results of a text query are ordered (docs/search.md, "How results are ranked"),
/// chosen by the request's sort, its place, and whether the query names kinds alone. Each
/// candidate gets a `RankKey`; `bestKey` gives the best key a run of candidates can have, so
/// that the walk can stop where nothing left can rank among the kept.
///
/// Near a place, distance counts as a ratio: a spot's score is its weight over 1 + d / d₀, so
/// that twice as far counts half (beyond d₀), whether 100 m or 10 km away, and every weight
/// reads as a distance: a whole name (weight 1) ranks before a name begun (0.5) up to twice as
/// far. Exponential decay (Photon's) would count 5.0 km against 5.2 km as it counts the user's
/// street against the next one, and bury far exact names under near nothing.
enum RankOrder {
    /// No place: match level; then, for a query with category words beside name words, the
    /// spots of the named kinds; typos, name field; at the category level the targets met
    /// (cuisine matches first); then the quality score.
    case relevance(namedKindsFirst: Bool)
    /// A place and name words: typos after, then the spots of the named kinds, then the score
    /// `weight` × `nameQualityReach`^(`qualityWeight` × quality / 10) / (1 + d / scale).
    case near(scale: Double, qualityWeight: Double = 1)
    /// A place and a query that names kinds alone: typos after, then the spots of those kinds,
    /// then the others whose names hold the words; each by distance, the quality score counting
    /// as at most 10% nearer: `kindQualityReach`^(quality / 10) / (1 + d / 1 m).
    case kindsNear
    /// Nearest first, every match that forgives typos after those that do not, then level and
    /// edits; `scale` is the request's distance scale when it has a place (and `qualityWeight`
    /// its quality weight), for the score `--explain` shows.
    case distance(scale: Double?, qualityWeight: Double = 1)

    /// The most targets met that the key tells apart (it packs them in four bits).
    static let countedTargets = 15
    /// How much nearer the best quality score counts a spot than the least, for names.
    static let nameQualityReach = 1.5
    /// The same for the spots of the kinds a query names alone: quality reorders two spots
    /// only when their distances are within 10% of each other.
    static let kindQualityReach = 1.1
    /// Below this distance kinds' spots are not told apart by distance: a GPS fix's error.
    static let kindDistanceFloor = 1.0

    /// The order of `request`'s results, its query parsed as `query`, distances measured from
    /// `origin` (the request's place).
    init(request: SearchRequest, origin: Coordinate?, query: ParsedQuery) {
        let namesKinds = !query.phrases.isEmpty
        let qualityWeight = Self.qualityWeight(of: request)
        if request.sort == .distance {
            self = .distance(scale: origin == nil ? nil : request.distanceScale, qualityWeight: qualityWeight)
        } else if origin == nil {
            self = .relevance(namedKindsFirst: namesKinds && !query.terms.isEmpty)
        } else {
            self =
                namesKinds && query.terms.isEmpty
                ? .kindsNear : .near(scale: request.distanceScale, qualityWeight: qualityWeight)
        }
    }

    /// The request's quality weight as the ranking counts it: within
    /// `SearchRequest.qualityWeightRange`, 1 for NaN.
    static func qualityWeight(of request: SearchRequest) -> Double {
        let weight = request.qualityWeight
        guard !weight.isNaN else { return 1 }
        return min(
            max(weight, SearchRequest.qualityWeightRange.lowerBound), SearchRequest.qualityWeightRange.upperBound)
    }

    /// The weight of a match at `level` in `field` near a place: a whole name 1, a name begun
    /// 0.5, a name's words begun (or a spot of a category whose names hold the other words) 0.4;
    /// a match in other names (`alt_name`, …) 0.8 of that, in the address 0.25. Typos forgiven
    /// rank after every other match, by their edits first.
    static func weight(level: MatchLevel, field: NameField) -> Double {
        let levelWeight =
            switch level {
            case .exact, .address, .fuzzy: 1.0
            case .prefix: 0.5
            case .words, .category: 0.4
            }
        let fieldWeight =
            switch field {
            case .primary: 1.0
            case .other: 0.8
            case .address: 0.25
            }
        return levelWeight * fieldWeight
    }

    /// The key of a candidate that matches as `match`, fits the named kinds as `fit`, and lies
    /// `distance` metres from the place (0 without one).
    func key(_ match: CandidateMatch, fit: KindFit, distance: Double, ref: OSMRef) -> RankKey {
        // Groups and tie-breaks pack their components into bits, the first compared highest.
        let fuzzy = match.level == .fuzzy ? 1 : 0
        let missed = fit.missed ? 1 : 0
        let edits = min(match.edits, 63)
        switch self {
        case .relevance(let namedKindsFirst):
            let unmet = match.level == .category ? Self.countedTargets - min(fit.targetsMet, Self.countedTargets) : 0
            let group =
                match.level.rawValue << 16 | (namedKindsFirst ? missed : 0) << 15 | edits << 8
                | match.field.rawValue << 4 | unmet
            return RankKey(
                group: group, score: Double(match.quality), tie: 0, match: match, distance: distance, ref: ref)
        case .near, .kindsNear:
            let score = logWeight(of: match) - cost(ofDistance: distance)
            return RankKey(
                group: fuzzy << 16 | edits << 8 | missed, score: score, tie: 0, match: match, distance: distance,
                ref: ref)
        case .distance:
            let tie = match.level.rawValue << 8 | edits
            return RankKey(group: fuzzy, score: -distance, tie: tie, match: match, distance: distance, ref: ref)
        }
    }

    /// The logarithm of what a match counts near a place before its distance: its weight and
    /// its quality's reach.
    private func logWeight(of match: CandidateMatch) -> Double {
        let quality = Double(match.quality) / Double(PlaceQuality.maximumScore)
        switch self {
        case .near(_, let qualityWeight):
            return log(Self.weight(level: match.level, field: match.field))
                + log(Self.nameQualityReach) * (qualityWeight * quality)
        case .kindsNear: return log(Self.kindQualityReach) * quality
        case .relevance, .distance: return 0
        }
    }

    /// What `distance` metres take from a score: near a place, the logarithm of 1 + d / scale
    /// (1 m for kinds); nearest first, the distance; nothing without a place.
    func cost(ofDistance distance: Double) -> Double {
        switch self {
        case .relevance: 0
        case .near(let scale, _): log1p(distance / scale)
        case .kindsNear: log1p(distance / Self.kindDistanceFloor)
        case .distance: distance
        }
    }

    /// Near a place, the distance beyond which no spot, with the best weight and quality score
    /// and a key of group `leastGroup` or later (`RankKey.group`: typos, kinds missed), ranks
    /// before `worst`; infinity without a place, nearest first, or when `worst` is of a later
    /// group (a spot of an earlier one may then beat it at any distance). A spot of a later group
    /// than `worst`'s never beats it; one of the same, as its score says.
    func farthestBeating(_ worst: RankKey, leastGroup: Int = 0) -> Double {
        let (best, reference): (Double, Double)
        switch self {
        case .near(let scale, let qualityWeight):
            (best, reference) = (log(Self.nameQualityReach) * qualityWeight, scale)
        case .kindsNear: (best, reference) = (log(Self.kindQualityReach), Self.kindDistanceFloor)
        case .relevance, .distance: return .infinity
        }
        guard worst.group <= leastGroup else { return .infinity }
        // The best log weight less log1p(d / reference) is worst.score there; a little beyond,
        // for rounding.
        return reference * expm1(best - worst.score) * (1 + 1e-9) + 1e-6
    }

    /// The best key a spot of a run bounded by `bound` can have (at no distance: farther,
    /// `RankKey.lowered(by: cost(ofDistance:))`).
    func bestKey(of bound: KeyBound) -> RankKey {
        let match = CandidateMatch(level: bound.level, edits: bound.edits, field: bound.field, quality: bound.score)
        return key(match, fit: KindFit(missed: false, targetsMet: bound.targets), distance: 0, ref: OSMRef(.node, .min))
    }

    /// The score `--explain` shows for `key`: without a place the quality score; with one the
    /// score that ranks (not its logarithm), and nearest first the score of `near`.
    func shownScore(of key: RankKey) -> Double {
        switch self {
        case .relevance, .distance(scale: nil, _): Double(key.match.quality)
        case .near, .kindsNear: exp(key.score)
        case .distance(let scale?, let qualityWeight):
            exp(
                Self.near(scale: scale, qualityWeight: qualityWeight).key(
                    key.match, fit: .best, distance: key.distance, ref: key.ref
                ).score)
        }
    }
}

/// Where a candidate stands among the results of a text query (`RankOrder.key`): its group
/// (the order's first components, packed, lower first), its score (higher first), a tie-break
/// (lower first), then OSM type and id.
struct RankKey: Comparable {
    let group: Int
    let score: Double
    let tie: Int
    /// How the candidate matched.
    let match: CandidateMatch
    /// Metres from the place, 0 without one.
    let distance: Double
    let ref: OSMRef

    /// This key with `cost` taken from its score.
    func lowered(by cost: Double) -> RankKey {
        RankKey(group: group, score: score - cost, tie: tie, match: match, distance: distance, ref: ref)
    }

    /// This key with reference `ref`: a spot's best key (`RankOrder.bestKey(of:)`) with its own
    /// reference is still no better than any key the spot can have, since the reference is the
    /// key's last component.
    func withReference(_ ref: OSMRef) -> RankKey {
        RankKey(group: group, score: score, tie: tie, match: match, distance: distance, ref: ref)
    }

    /// Whether this key and `other` differ in their reference alone.
    func tiesButForReference(_ other: RankKey) -> Bool {
        group == other.group && score == other.score && tie == other.tie
    }

    static func < (a: RankKey, b: RankKey) -> Bool {
        (a.group, -a.score, a.tie, a.ref.type, a.ref.id) < (b.group, -b.score, b.tie, b.ref.type, b.ref.id)
    }

    static func == (a: RankKey, b: RankKey) -> Bool { !(a < b) && !(b < a) }
}

/// The best key any spot of a run of candidates can have: its level, edits, field, the most
/// targets of the query's category phrases it meets (`KindFit.targetsMet`) and its quality
/// score. Sorted in the relevance order without a place.
struct KeyBound: Comparable, Hashable {
    let level: MatchLevel
    let edits: Int
    let field: NameField
    let score: Int
    let targets: Int

    /// A bound; `edits` is 0 but at the fuzzy level; `targets` as many as a key tells apart
    /// unless known.
    init(level: MatchLevel, edits: Int = 0, field: NameField, score: Int, targets: Int = RankOrder.countedTargets) {
        self.level = level
        self.edits = edits
        self.field = field
        self.score = score
        self.targets = targets
    }

    static func < (a: KeyBound, b: KeyBound) -> Bool {
        (a.level, a.edits, a.field, -a.targets, -a.score) < (b.level, b.edits, b.field, -b.targets, -b.score)
    }
}

extension Coordinate {
    /// The distance in metres between the latitudes of this point and `other`: never more than
    /// the great-circle distance between them (`DistanceFrom`), and cheap. Mathematically the
    /// two are equal along a meridian, but the haversine's rounding can come out a few units in
    /// the last place below it (at the poles, say), so the product is lowered by a billionth:
    /// a bound that turns candidates away must never exceed the distance they are ranked by.
    func metresAlongMeridian(to other: Coordinate) -> Double {
        Double(abs(Int64(latitudeE7) - Int64(other.latitudeE7))) * 1e-7 * .pi / 180 * Coordinate.earthRadius
            * (1 - 1e-9)
    }
}
