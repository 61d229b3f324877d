import Foundation
import SpotBuiltInWords
import SpotIndex
import Spots

/// Answers the questions MKLocalSearch answers, over a loaded index: the nearest spots, those
/// within a radius or a region, by text and by category, and a spot by its OSM reference.
///
/// A text search runs in stages, each a small type (docs/search.md, "How the search runs"):
/// parse (`QueryParser`: phrases and terms), plan (`QueryPlan`: which sources gather, which
/// terms are checked), gather (`CandidateSource`s give runs of candidates, best possible key
/// first), verify (each run's `CandidateCheck` finds a candidate's key), rank (`RankOrder`,
/// `RankKey`) and keep the top results (`TopResults`); a search without text walks the
/// spatial tree or the kinds' lists instead.
/// Text results are ordered by what the query meant (docs/search.md, "How results are ranked"):
/// without a place match level first; with one, the kinds a query of category words names
/// nearest first, or name matches by one score of level and distance. Without text, by
/// distance from `near` (else the region's centre), ties by OSM type then id.
/// Filters apply before the limit. Nearest-first search walks the packed R-tree best first,
/// with a lower bound of the great-circle distance to each box (as geokdbush does), so it
/// reads a few nodes, not the index.
public final class SpotSearch: @unchecked Sendable {
    /// The index searched.
    public let index: SpotIndexReader
    /// The first stage, made for the first request with text: a search without text (nearby, a
    /// region, categories) reads no search words, and the built-in ones cost more to read than
    /// many nearby searches.
    private let parserOnce: OnceValue<QueryParser>
    /// The first stage: the query's words and category phrases.
    var parser: QueryParser { parserOnce.value }
    /// The parser of the built-in words, made once for the process: every index without words
    /// of its own shares it, so a server opening a newly published index beside the served one
    /// makes no second copy.
    private static let builtInParser = OnceValue { QueryParser(words: .builtIn) }

    /// The index's house numbers that do not start with a digit (nil: any word of one or two
    /// letters may be one), which tell the parser which short query words may be house numbers.
    private let letterHouseNumbers: Set<String>?

    /// A search over `index`. The words and letter house numbers the index stores are read and
    /// checked now.
    public init(index: SpotIndexReader) throws(IndexError) {
        self.index = index
        letterHouseNumbers = try index.letterHouseNumbers()
        let stored = try index.storedSearchWords()
        parserOnce = stored.map { words in OnceValue { QueryParser(words: words) } } ?? Self.builtInParser
    }

    /// Makes the query parser now rather than at the first text search: reading the built-in
    /// words of every language takes tens of milliseconds, which a server pays at start, not in
    /// a request.
    public func prepare() {
        _ = parser
    }

    /// The spots that answer `request`, at most `request.limit`, each with why it matched when
    /// the request asks (`SearchRequest.explain`).
    public func search(_ request: SearchRequest) throws -> [SearchResult] {
        try rankedSpots(request).map {
            SearchResult(
                spot: try index.spot(at: $0.spot), distance: $0.distance, match: $0.match, language: request.language)
        }
    }

    /// The spot numbers (in `index`) that answer `request` with their distances, in result
    /// order: what `search` returns, before the spots are decoded.
    public func rankedSpots(_ request: SearchRequest) throws -> [RankedSpot] {
        try check(request)
        guard request.limit > 0, index.count > 0 else { return [] }
        let text = request.naturalLanguageQuery ?? ""
        let query = text.isEmpty ? ParsedQuery() : parser.parse(text, letterHouseNumbers: letterHouseNumbers)
        let plan = try QueryPlan(query, in: index)
        let filter = try CandidateFilter(query: query, plan: plan, request: request, index: index)
        let origin = request.near ?? request.region?.center
        if query.words.isEmpty {
            if let origin {
                return try nearest(
                    to: origin, within: request.radius ?? .infinity, region: request.region, limit: request.limit,
                    passes: { try filter.passes($0, in: self.index) }
                )
                .map { RankedSpot(spot: $0.spot, distance: $0.distance, match: nil) }
            }
            // No text and no place: the allowed kinds' spots in reference order.
            let lists = try index.kinds.indices.filter { filter.allowedKinds[$0] }.map {
                try index.kindList(ofKind: $0)
            }
            return try firstInReferenceOrder(lists, limit: request.limit) { try filter.passes($0, in: self.index) }
                .map { RankedSpot(spot: $0, distance: nil, match: nil) }
        }
        return try rankedByText(query, plan: plan, request: request, origin: origin, filter: filter)
    }

    /// Throws for a request that cannot be answered as asked.
    private func check(_ request: SearchRequest) throws {
        guard request.limit >= 0 else { throw SearchError(description: "limit must not be negative") }
        guard request.distanceScale > 0, request.distanceScale.isFinite else {
            throw SearchError(description: "the distance scale must be a positive number of metres")
        }
        if let radius = request.radius {
            guard request.near != nil else {
                throw SearchError(description: "a radius needs near (a point to measure from)")
            }
            guard radius >= 0, radius.isFinite else {
                throw SearchError(description: "radius must be a distance in metres")
            }
        }
    }

    /// The spot that holds `ref`: its own, or the one it was merged into by deduplication.
    public func spot(for ref: OSMRef) throws(IndexError) -> Spot? {
        try index.spotNumber(for: ref).map { (spot) throws(IndexError) in try index.spot(at: spot) }
    }

    // MARK: Space

    /// The `limit` spots nearest to `origin` that pass, nearest first (ties by OSM type and id),
    /// within `maximum` metres and `region`: a best-first walk of the spatial tree
    /// (`PackedTreeView.nearest`). Spots go straight to the bounded list of the best results,
    /// whose last distance, once the list is full, prunes every box and spot farther away.
    private func nearest(
        to origin: Coordinate, within maximum: Double, region: GeoBox?, limit: Int, passes: (Int) throws -> Bool
    ) throws -> [(spot: Int, distance: Double)] {
        guard limit > 0 else { return [] }
        var best = TopResults<NearbyKey>(limit: limit)
        let distances = DistanceFrom(origin)
        try index.tree.nearest(to: origin, in: region, within: maximum) { spots, bound in
            var farthest = min(maximum, best.worst?.distance ?? maximum)
            for spot in spots {
                let coordinate = try index.coordinate(at: spot)
                if let region, !region.contains(coordinate) { continue }
                guard bound.alongMeridian(coordinate.latitudeE7, coordinate.latitudeE7) <= farthest, try passes(spot)
                else {
                    continue
                }
                let distance = distances.distance(to: coordinate)
                guard distance <= farthest else { continue }
                best.offer(NearbyKey(distance: distance, ref: try index.ref(at: spot)), spot: spot)
                farthest = min(maximum, best.worst?.distance ?? maximum)
            }
            return farthest
        }
        return best.entries.map { ($0.spot, $0.key.distance) }
    }
}
