import SpotIndex
import Spots

/// What every candidate of a request must pass, whatever gathered it: the category filter, the
/// name terms but one that the query starts with (each must start a token of the spot's names),
/// and each category phrase (met by the spot's kind or by its names holding the phrase).
struct CandidateFilter {
    /// One flag per kind number: whether the request's category filter allows it.
    let allowedKinds: [Bool]
    private let laterTerms: [SpotSet]
    private let phrases: [(kinds: [Bool], names: LazySpotSet)]

    /// The filter of `request`, parsed as `query`.
    init(query: ParsedQuery, request: SearchRequest, search: SpotSearch) throws {
        let index = search.index
        allowedKinds = index.kinds.map { request.pointOfInterestFilter?.allows($0.category) ?? true }
        // Candidates come from the postings of the query's first word: the terms it is not.
        let unchecked = query.startsWithPhrase ? query.terms[...] : query.terms.dropFirst()
        laterTerms = try unchecked.map { try Self.spots(holding: [$0], in: index) }
        phrases = query.phrases.map { phrase in
            (
                kinds: index.kinds.map { $0.category.map(phrase.categories.contains) ?? false },
                names: LazySpotSet { try Self.spots(holding: phrase.words, in: index) }
            )
        }
    }

    /// Whether spot `spot` passes.
    func passes(_ spot: Int, kind: Int) throws -> Bool {
        guard allowedKinds[kind], laterTerms.allSatisfy({ $0.contains(spot) }) else { return false }
        for phrase in phrases where !phrase.kinds[kind] {
            guard try phrase.names.value().contains(spot) else { return false }
        }
        return true
    }

    /// Whether the names of spot `spot` hold every category phrase's words (so that they may hold
    /// the whole query); false means the spot meets some phrase by its kind alone.
    func namesHoldEveryPhrase(_ spot: Int) throws -> Bool {
        try phrases.allSatisfy { try $0.names.value().contains(spot) }
    }

    /// Whether spot `spot` passes, its kind read from the index.
    func passes(_ spot: Int, in index: SpotIndexReader) throws -> Bool {
        try passes(spot, kind: try index.kindNumber(at: spot))
    }

    /// The spots whose names have, for every word, a token that starts with it.
    static func spots(holding words: [String], in index: SpotIndexReader) throws -> SpotSet {
        var matched: SpotSet?
        for word in words {
            var hits: [Int] = []
            for token in try index.tokens(withPrefix: Array(word.utf8)) {
                for var group in try index.postingGroups(ofToken: token) {
                    while let rank = try group.ranks.next() {
                        let spot = try index.spot(atRank: rank)
                        if matched?.contains(spot) ?? true { hits.append(spot) }
                    }
                }
            }
            matched = SpotSet(hits, estimatedCount: hits.count, count: index.count)
        }
        return matched ?? SpotSet([], estimatedCount: 0, count: index.count)
    }
}

extension SpotSearch {
    /// The results of a query with name terms (or category phrases alone): the runs of
    /// candidates (`CandidateRuns`) read best bound first, each new spot that passes scored and
    /// offered to the bounded list of the best. Without a place, sorted by relevance, the walk
    /// stops once the list is full and no spot left can beat its last, so that a search reads
    /// about as many postings as it returns.
    func rankedByText(
        _ query: ParsedQuery, request: SearchRequest, origin: Coordinate?, filter: CandidateFilter
    ) throws -> [RankedSpot] {
        let words = query.words
        let scoring = Scoring(origin: origin, scale: request.distanceScale)
        // Sorted by relevance, the walk stops at the first run whose best key ranks after the
        // last kept; without a place, also within a run of keys that differ by reference only.
        let stopsEarly = request.sort == .relevance
        var best = TopResults<RankKey>(limit: request.limit)
        var seen = SpotBits(count: index.count)
        for run in try CandidateRuns.gather(for: query, in: index) {
            if stopsEarly, let worst = best.worst, worst.precedes(run.bound, scoredBy: scoring) { break }
            var ranks = try RankMerge(run.lists)
            while let rank = try ranks.next() {
                let spot = try index.spot(atRank: rank)
                guard seen.insert(spot) else { continue }
                let kind = try index.kindNumber(at: spot)
                guard try filter.passes(spot, kind: kind) else { continue }
                let coordinate = try index.coordinate(at: spot)
                if let region = request.region, !region.contains(coordinate) { continue }
                // A spot that even at the distance along the meridian alone (cheap, and no more
                // than the true one) cannot outscore the last kept at its level is passed over.
                if stopsEarly, let origin, let worst = best.worst, worst.level == run.bound.level,
                    worst.field == run.bound.field,
                    scoring.score(quality: run.bound.score, distance: coordinate.metresAlongMeridian(to: origin))
                        < worst.score
                {
                    continue
                }
                let distance = origin.map { coordinate.distance(to: $0) }
                if let distance, let radius = request.radius, distance > radius { continue }
                let match: (level: MatchLevel, field: NameField, quality: Int)
                if run.keyIsBound {
                    // The run's key but for the reference.
                    match = (run.bound.level, run.bound.field, run.bound.score)
                } else {
                    let quality = try index.quality(at: spot).score
                    if run.isCategory {
                        match = (.category, .primary, quality)
                    } else if try filter.namesHoldEveryPhrase(spot),
                        let named = NameMatch.best(in: try index.spot(at: spot), terms: words)
                    {
                        match = (named.level, NameField(ofKey: named.key), quality)
                    } else if !query.phrases.isEmpty {
                        // The names hold the terms, the kind meets the phrases.
                        match = (.category, .primary, quality)
                    } else {
                        continue
                    }
                }
                let key = RankKey(
                    sort: request.sort, level: match.level, field: match.field,
                    score: scoring.score(quality: match.quality, distance: distance ?? 0), distance: distance ?? 0,
                    ref: try index.ref(at: spot))
                if stopsEarly && origin == nil && run.keyIsBound, let worst = best.worst, !(key < worst) { break }
                best.offer(key, spot: spot)
            }
        }
        return try best.entries.map { entry in
            RankedSpot(
                spot: entry.spot, distance: origin == nil ? nil : entry.key.distance,
                match: request.explain ? try explanation(of: entry.spot, key: entry.key, words: words) : nil)
        }
    }

    /// Why spot `spot`, ranked at `key`, came back: its level and score, and the name key (or
    /// for a category match the selecting tag) that matched the query's `words`.
    private func explanation(of spot: Int, key: RankKey, words: [String]) throws -> SearchMatch {
        let field: String
        if key.level == .category {
            let kind = try index.kind(at: spot)
            field = kind.key + "=" + kind.value
        } else {
            field = NameMatch.best(in: try index.spot(at: spot), terms: words)?.key ?? "name"
        }
        return SearchMatch(level: key.level, field: field, score: key.score)
    }

    /// The first `limit` spots of `lists` that pass, in reference order; a spot is taken once.
    /// Only about `limit` entries of each list are read.
    func firstInReferenceOrder(_ lists: [RankList], limit: Int, passes: (Int) throws -> Bool) throws -> [Int] {
        var found: [Int] = []
        var ranks = try RankMerge(lists)
        var previous = -1
        while found.count < limit, let rank = try ranks.next() {
            defer { previous = rank }
            guard rank != previous else { continue }
            let spot = try index.spot(atRank: rank)
            if try passes(spot) { found.append(spot) }
        }
        return found
    }
}

/// A set of spot numbers as bits: one allocation of `count` bits, for the spots a search has
/// seen.
struct SpotBits {
    private var words: [UInt64]

    /// An empty set of spots below `count`.
    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    /// Adds `spot`; returns whether it was new.
    mutating func insert(_ spot: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(spot & 63)
        guard words[spot >> 6] & bit == 0 else { return false }
        words[spot >> 6] |= bit
        return true
    }
}
