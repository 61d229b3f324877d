import Foundation
import SpotIndex
import Spots

/// Answers the questions MKLocalSearch answers, over a loaded index: the nearest spots, those
/// within a radius or a region, by text and by category, and a spot by its OSM reference.
///
/// Results are sorted by distance (from `near`, else the region's centre), ties by OSM type then
/// id; a text search without a place is sorted by how well the names match. Filters apply before
/// the limit. Nearest-first search walks the packed R-tree best first, with a lower bound of the
/// great-circle distance to each box (as geokdbush does), so it reads a few nodes, not the index.
public final class SpotSearch: @unchecked Sendable {
    /// The index searched.
    public let index: SpotIndexReader
    /// Folded query phrases (one to three words) and the categories they name.
    private let categoryWords: [String: [Category]]
    private let longestPhrase: Int

    /// A search over `index`.
    public init(index: SpotIndexReader) throws(IndexError) {
        self.index = index
        categoryWords = try index.categoryWords()
        longestPhrase = categoryWords.keys.map { $0.split(separator: " ").count }.max() ?? 1
    }

    /// The spots that answer `request`, at most `request.limit`.
    public func search(_ request: SearchRequest) throws -> [SearchResult] {
        try rankedSpots(request).map { SearchResult(spot: try index.spot(at: $0.spot), distance: $0.distance) }
    }

    /// The spot numbers (in `index`) that answer `request` with their distances, in result
    /// order: what `search` returns, before the spots are decoded.
    public func rankedSpots(_ request: SearchRequest) throws -> [(spot: Int, distance: Double?)] {
        guard request.limit >= 0 else { throw SearchError(description: "limit must not be negative") }
        if let radius = request.radius {
            guard request.near != nil else {
                throw SearchError(description: "a radius needs near (a point to measure from)")
            }
            guard radius >= 0, radius.isFinite else {
                throw SearchError(description: "radius must be a distance in metres")
            }
        }
        guard request.limit > 0, index.count > 0 else { return [] }
        let query = parse(request.naturalLanguageQuery ?? "")
        let allowedKinds = index.kinds.map { request.pointOfInterestFilter?.allows($0.category) ?? true }
        // A category phrase is met by a spot of one of its categories, or whose names hold the
        // phrase; the names are looked up only when a spot's kind does not settle it.
        let phrases = query.phrases.map { phrase in
            (
                kinds: index.kinds.map { $0.category.map(phrase.categories.contains) ?? false },
                names: LazySpotSet { try self.nameMatches(phrase.words).matched }
            )
        }
        let laterTerms = try query.terms.dropFirst().map { try nameMatches([$0]).matched }
        func passes(_ spot: Int, firstPhraseMet: Bool = false) throws -> Bool {
            let kind = try index.kindNumber(at: spot)
            guard allowedKinds[kind], laterTerms.allSatisfy({ $0.contains(spot) }) else { return false }
            for (position, phrase) in phrases.enumerated()
            where !(position == 0 && firstPhraseMet) && !phrase.kinds[kind] {
                guard try phrase.names.value().contains(spot) else { return false }
            }
            return try query.terms.count < 2 || oneNameHolds(query.terms, spot: spot)
        }
        let origin = request.near ?? request.region?.center
        if query.terms.isEmpty, let origin {
            return try nearest(
                to: origin, within: request.radius ?? .infinity, region: request.region, limit: request.limit,
                passes: { try passes($0) }
            )
            .map { ($0.spot, $0.distance) }
        }
        if origin == nil, let groups = try referenceOrderedCandidates(query, allowedKinds: allowedKinds) {
            return try firstInReferenceOrder(groups, limit: request.limit) {
                try passes($0, firstPhraseMet: query.terms.isEmpty)
            }
        }
        // Text, or no place at all: every candidate is checked, and the best kept in a bounded list.
        var best = TopResults(limit: request.limit)
        func offer(_ spot: Int, rank: Int) throws {
            guard try passes(spot) else { return }
            let coordinate = try index.coordinate(at: spot)
            if let region = request.region, !region.contains(coordinate) { return }
            let distance = origin.map { coordinate.distance(to: $0) }
            if let distance, let radius = request.radius, distance > radius { return }
            best.offer(
                ResultKey(distance: distance ?? 0, rank: rank, ref: try index.ref(at: spot)), spot: spot,
                distance: distance)
        }
        if let first = query.terms.first {
            let matches = try nameMatches([first])
            for spot in matches.matched.members { try offer(spot, rank: matches.startsName.contains(spot) ? 0 : 1) }
        } else if origin == nil {
            // Category phrases that runs do not serve: spots in reference order until enough pass.
            var found: [(spot: Int, distance: Double?)] = []
            try index.forEachSpotInReferenceOrder { spot in
                if try passes(spot) { found.append((spot, nil)) }
                return found.count < request.limit
            }
            return found
        } else {
            for spot in 0..<index.count { try offer(spot, rank: 0) }
        }
        return best.results
    }

    /// The spot that holds `ref`: its own, or the one it was merged into by deduplication.
    public func spot(for ref: OSMRef) throws(IndexError) -> Spot? {
        try index.spotNumber(for: ref).map { (spot) throws(IndexError) in try index.spot(at: spot) }
    }

    // MARK: Text

    /// A query cut into category phrases and the words left to match names.
    struct ParsedQuery {
        /// Phrases that name categories, with their folded words.
        var phrases: [(categories: Set<Category>, words: [String])] = []
        /// The other words.
        var terms: [String] = []

        /// The categories the phrases name.
        var categories: Set<Category> { phrases.reduce(into: []) { $0.formUnion($1.categories) } }
    }

    /// Splits folded query words into category phrases (longest first) and name terms.
    func parse(_ text: String) -> ParsedQuery {
        let words = SearchText.words(text)
        var query = ParsedQuery()
        var position = 0
        while position < words.count {
            var matched = false
            for length in stride(from: min(longestPhrase, words.count - position), through: 1, by: -1) {
                let phrase = Array(words[position..<position + length])
                if let categories = categoryWords[phrase.joined(separator: " ")] {
                    query.phrases.append((Set(categories), phrase))
                    position += length
                    matched = true
                    break
                }
            }
            if !matched {
                query.terms.append(words[position])
                position += 1
            }
        }
        return query
    }

    /// Runs of spot numbers, each in OSM reference order, that hold every candidate of a search
    /// without a place, in groups of rank: for a name word, the lists of the tokens it starts
    /// (name-starting spots, then the rest); for a query of one one-word category phrase, the
    /// spots of its categories' kinds and those whose names hold the word (which meet the
    /// phrase either way); for no text at all, the spots of the kinds the filter allows. Nil for
    /// other queries.
    private func referenceOrderedCandidates(_ query: ParsedQuery, allowedKinds: [Bool]) throws -> [[RankList]]? {
        if let term = query.terms.first {
            let runs = try postingRuns(startingWith: term)
            return [runs.starting, runs.others]
        }
        if query.phrases.isEmpty {
            return [try allowedKinds.indices.filter { allowedKinds[$0] }.map { try index.kindList(ofKind: $0) }]
        }
        guard query.phrases.count == 1, query.phrases[0].words.count == 1 else { return nil }
        let phrase = query.phrases[0]
        let names = try postingRuns(startingWith: phrase.words[0])
        let kinds = try index.kinds.indices.filter { index.kinds[$0].category.map(phrase.categories.contains) ?? false }
            .map { try index.kindList(ofKind: $0) }
        return [kinds + names.starting + names.others]
    }

    /// The posting lists of the tokens that start with `word`, each in reference order: the
    /// lists of spots whose name a token starts, and the others.
    private func postingRuns(startingWith word: String) throws -> (starting: [RankList], others: [RankList]) {
        let lists = try index.tokens(withPrefix: Array(word.utf8)).map { try index.postingLists(ofToken: $0) }
        return (lists.map(\.startingName), lists.map(\.others))
    }

    /// The first `limit` spots that pass, merging each group's lists by reference rank, group
    /// after group; a spot is taken once. Only about `limit` entries of each list are read.
    private func firstInReferenceOrder(_ groups: [[RankList]], limit: Int, passes: (Int) throws -> Bool) throws -> [(
        spot: Int, distance: Double?
    )] {
        var found: [(spot: Int, distance: Double?)] = []
        var seen = Set<Int>()
        for var lists in groups {
            var heads = Heap<ListHead>()
            func pushHead(_ list: Int) throws {
                if let rank = try lists[list].next() { heads.push(ListHead(rank: rank, list: list)) }
            }
            for list in lists.indices { try pushHead(list) }
            while found.count < limit, let head = heads.pop() {
                let spot = try index.spot(atRank: head.rank)
                if !seen.contains(spot), try passes(spot) {
                    seen.insert(spot)
                    found.append((spot, nil))
                }
                try pushHead(head.list)
            }
            if found.count == limit { break }
        }
        return found
    }

    /// Whether a single name of the spot (its `name`, one `name:xx`, one other name) has, for
    /// every term, a token that starts with it: words of a query belong to the same name.
    private func oneNameHolds(_ terms: [String], spot: Int) throws -> Bool {
        try index.spot(at: spot).allNames.contains { name in
            let tokens = SearchText.tokens(ofName: name).map(\.token)
            return terms.allSatisfy { term in tokens.contains { $0.hasPrefix(term) } }
        }
    }

    /// The spots whose names have, for every word, a token that starts with it; and those where
    /// the first word's token starts a name.
    private func nameMatches(_ words: [String]) throws -> (matched: SpotSet, startsName: SpotSet) {
        var matched: SpotSet?
        var startsName = SpotSet([], estimatedCount: 0, count: index.count)
        for (position, word) in words.enumerated() {
            var hits: [Int] = []
            var starts: [Int] = []
            try index.forEachPosting(ofTokens: try index.tokens(withPrefix: Array(word.utf8))) { spot, startsName in
                if let matched, !matched.contains(spot) { return }
                hits.append(spot)
                if position == 0 && startsName { starts.append(spot) }
            }
            matched = SpotSet(hits, estimatedCount: hits.count, count: index.count)
            if position == 0 { startsName = SpotSet(starts, estimatedCount: starts.count, count: index.count) }
        }
        return (matched ?? SpotSet([], estimatedCount: 0, count: index.count), startsName)
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
        var best = TopResults(limit: limit)
        let keeping = { (box: GeoBox) in region?.intersects(box) ?? true }
        try index.tree.nearest(to: origin, keeping: keeping, within: { best.distanceBound(within: maximum) }) {
            spots, bound in
            var farthest = best.distanceBound(within: maximum)
            for spot in spots {
                let coordinate = try index.coordinate(at: spot)
                if let region, !region.contains(coordinate) { continue }
                guard bound.alongMeridian(coordinate.latitudeE7, coordinate.latitudeE7) <= farthest, try passes(spot)
                else {
                    continue
                }
                let distance = coordinate.distance(to: origin)
                guard distance <= farthest else { continue }
                let key = ResultKey(distance: distance, rank: 0, ref: try index.ref(at: spot))
                best.offer(key, spot: spot, distance: distance)
                farthest = best.distanceBound(within: maximum)
            }
        }
        return best.results.map { ($0.spot, $0.distance ?? 0) }
    }
}

/// The head of one posting list while lists are merged in reference order.
struct ListHead: Comparable {
    /// The reference rank of the list's next spot.
    let rank: Int
    /// Which list.
    let list: Int

    static func < (a: ListHead, b: ListHead) -> Bool { a.rank < b.rank }
}
