import SpotIndex
import SpotText
import Spots

/// What every candidate of the exact levels must pass, whatever gathered it: the category
/// filter, the word terms but the one whose postings gathered the candidates (each must start a
/// token of the spot's names or address), the number terms (`HouseNumberCheck`), and each
/// category phrase (met by the spot's kind, by
/// the build's list of the phrase's targets, or by its names or address holding the phrase).
struct CandidateFilter {
    /// One flag per kind number: whether the request's category filter allows it.
    let allowedKinds: [Bool]
    /// The terms whose postings gather the candidates (`CandidateRuns.leadTerms`), none when the
    /// query's first word gathers them.
    let leadTerms: [Int]
    /// Whether some term starts no token: then no spot's names hold the query, and only typos
    /// forgiven can answer it.
    let someTermStartsNoToken: Bool
    private let laterTerms: [LazySpotSet]
    /// What the terms that may be house numbers ask of a spot.
    private let houseNumbers: HouseNumberCheck
    private let phrases: [(kinds: [Bool], listed: LazySpotSet, text: LazySpotSet)]

    /// The filter of `request`, parsed as `query`.
    init(query: ParsedQuery, request: SearchRequest, search: SpotSearch) throws {
        let index = search.index
        let termTokens = try query.terms.map { try index.tokens(withPrefix: Array($0.utf8)) }
        let leadTerms = CandidateRuns.leadTerms(of: query, tokenCounts: termTokens.map(\.count))
        self.leadTerms = leadTerms
        someTermStartsNoToken = query.wordTerms.contains { termTokens[$0].isEmpty }
        allowedKinds = index.kinds.map { request.pointOfInterestFilter?.allows($0.category) ?? true }
        // Candidates come from the postings of the query's first word, or of the lead term: the
        // word terms they are not, the rarest first, so that a spot is turned away by the
        // smallest set and larger sets are seldom made.
        let gathering = query.startsWithPhrase ? [] : leadTerms.isEmpty ? [0] : leadTerms
        let unchecked = query.wordTerms.filter { !gathering.contains($0) }
        laterTerms = unchecked.sorted { termTokens[$0].count < termTokens[$1].count }.map { term in
            LazySpotSet { try Self.spots(holdingTokens: [termTokens[term]], in: index, address: true) }
        }
        houseNumbers = HouseNumberCheck(query: query, termTokens: termTokens, index: index)
        phrases = query.phrases.map { phrase in
            (
                kinds: index.kinds.map(phrase.targets.names),
                listed: LazySpotSet { try phrase.targets.listedSpots(in: index) },
                text: LazySpotSet {
                    try Self.spots(
                        holdingTokens: phrase.words.map { try index.tokens(withPrefix: Array($0.utf8)) }, in: index,
                        address: true)
                }
            )
        }
    }

    /// Whether spot `spot` passes.
    func passes(_ spot: Int, kind: Int) throws -> Bool {
        guard allowedKinds[kind], try laterTerms.allSatisfy({ try $0.value().contains(spot) }),
            try houseNumbers.passes(spot)
        else { return false }
        for phrase in phrases where !phrase.kinds[kind] {
            guard try phrase.listed.value().contains(spot) || phrase.text.value().contains(spot) else { return false }
        }
        return true
    }

    /// Whether the query has category phrases.
    var hasPhrases: Bool { !phrases.isEmpty }

    /// For each category phrase, whether spot `spot` (of kind number `kind`) meets it by its kind
    /// or the build's list of the phrase's targets.
    func phrasesMetByKind(_ spot: Int, kind: Int) throws -> [Bool] {
        try phrases.map { try $0.kinds[kind] || $0.listed.value().contains(spot) }
    }

    /// Whether spot `spot` passes, its kind read from the index.
    func passes(_ spot: Int, in index: SpotIndexReader) throws -> Bool {
        try passes(spot, kind: try index.kindNumber(at: spot))
    }

    /// The spots whose names (with `address`, or address) have a token of every range (the
    /// tokens a word starts): a word may be in the names and another in the address.
    static func spots(holdingTokens ranges: [Range<Int>], in index: SpotIndexReader, address: Bool) throws -> SpotSet {
        var matched: SpotSet?
        for tokens in ranges {
            var hits: [Int] = []
            for groups in try index.postingGroups(ofTokens: tokens) {
                for var group in groups where address || group.key.field != .address {
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
    /// offered to the bounded list of the best; then, while the list is short, the runs of the
    /// typo stage (`TypoStage`). Without a place, sorted by relevance, the walk stops once the
    /// list is full and no spot left can beat its last, so that a search reads about as many
    /// postings as it returns.
    func rankedByText(
        _ query: ParsedQuery, request: SearchRequest, origin: Coordinate?, filter: CandidateFilter
    ) throws -> [RankedSpot] {
        var walk = TextWalk(index: index, request: request, origin: origin, filter: filter, query: query)
        if !filter.someTermStartsNoToken {
            try walk.read(try CandidateRuns.gather(for: query, leadTerms: filter.leadTerms, in: index))
        }
        let typos = walk.best.isFull ? nil : TypoStage(query: query, parser: parser, index: index)
        if let typos {
            try walk.read(try typos.candidates(in: index), of: typos)
        }
        return try walk.best.entries.map { entry in
            RankedSpot(
                spot: entry.spot, distance: origin == nil ? nil : entry.key.distance,
                match: request.explain
                    ? try explanation(of: entry.spot, key: entry.key, query: query, filter: filter, typos: typos) : nil)
        }
    }

    /// Why spot `spot`, ranked at `key`, came back: its level and score, and the name key, the
    /// address part, or for a category match the selecting tag, that matched `query`.
    private func explanation(
        of spot: Int, key: RankKey, query: ParsedQuery, filter: CandidateFilter, typos: TypoStage?
    ) throws -> SearchMatch {
        var field: String?
        let text = try CandidateText(spot: spot, in: index, words: AddressWords())
        switch key.level {
        case .category: break
        case .address:
            let words = query.words(leavingOut: try filter.phrasesMetByKind(spot, kind: index.kindNumber(at: spot)))
            field = AddressMatch.field(words: words, names: text.names, address: try text.address())
        case .fuzzy:
            field = try typos?.match(text, kind: index.kindNumber(at: spot), spot: spot)?.key
        default: field = NameMatch.best(in: text.names, terms: query.words)?.key ?? "name"
        }
        if field == nil {
            let kind = try index.kind(at: spot)
            field = kind.key + "=" + kind.value
        }
        return SearchMatch(level: key.level, field: field ?? "", score: key.score, edits: key.edits)
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

/// The walk of a text search through its runs of candidates: the spots seen and offered, and
/// the bounded list of the best.
struct TextWalk {
    let index: SpotIndexReader
    let request: SearchRequest
    let origin: Coordinate?
    let filter: CandidateFilter
    /// The query.
    let query: ParsedQuery
    /// The typo stage and its candidates, once its runs are read.
    private var typos: (stage: TypoStage, candidates: TypoCandidates)?
    private(set) var best: TopResults<RankKey>
    /// The spots offered to `best`: a later stage passes over them.
    private var offered: SpotBits
    /// The candidates' address parts, folded once.
    private let addressWords = AddressWords()
    private let scoring: Scoring
    /// Sorted by relevance, the walk stops at the first run whose best key ranks after the last
    /// kept; without a place, also within a run of keys that differ by reference only.
    private let stopsEarly: Bool

    init(
        index: SpotIndexReader, request: SearchRequest, origin: Coordinate?, filter: CandidateFilter, query: ParsedQuery
    ) {
        self.index = index
        self.request = request
        self.origin = origin
        self.filter = filter
        self.query = query
        best = TopResults(limit: request.limit)
        offered = SpotBits(count: index.count)
        scoring = Scoring(origin: origin, scale: request.distanceScale)
        stopsEarly = request.sort == .relevance
    }

    /// Reads the runs of the typo stage's `candidates` (`TypoStage.candidates`), which `stage`
    /// verifies.
    mutating func read(_ candidates: TypoCandidates, of stage: TypoStage) throws {
        typos = (stage, candidates)
        try read(candidates.runs)
    }

    /// Reads `runs` (sorted by bound), offering each spot not seen in them before to `best`.
    mutating func read(_ runs: [CandidateRun]) throws {
        var seen = offered
        for run in runs {
            if stopsEarly, let worst = best.worst, worst.precedes(run.bound, scoredBy: scoring) { break }
            var ranks = try RankMerge(run.lists)
            while let rank = try ranks.next() {
                let spot = try index.spot(atRank: rank)
                guard seen.insert(spot) else { continue }
                let kind = try index.kindNumber(at: spot)
                let passes =
                    try run.verification == .typos ? filter.allowedKinds[kind] : filter.passes(spot, kind: kind)
                guard passes else { continue }
                let coordinate = try index.coordinate(at: spot)
                if let region = request.region, !region.contains(coordinate) { continue }
                // A spot that even at the distance along the meridian alone (cheap, and no more
                // than the true one) cannot outscore the last kept at its level is passed over.
                if stopsEarly, let origin, let worst = best.worst, worst.level == run.bound.level,
                    worst.edits == run.bound.edits, worst.field == run.bound.field,
                    scoring.score(quality: run.bound.score, distance: coordinate.metresAlongMeridian(to: origin))
                        < worst.score
                {
                    continue
                }
                let distance = origin.map { coordinate.distance(to: $0) }
                if let distance, let radius = request.radius, distance > radius { continue }
                guard let match = try match(of: spot, kind: kind, in: run) else { continue }
                let key = RankKey(
                    sort: request.sort, level: match.level, edits: match.edits, field: match.field,
                    score: scoring.score(quality: match.quality, distance: distance ?? 0), distance: distance ?? 0,
                    ref: try index.ref(at: spot))
                if stopsEarly && origin == nil && run.verification == .bound, let worst = best.worst, !(key < worst) {
                    break
                }
                best.offer(key, spot: spot)
                _ = offered.insert(spot)
            }
        }
    }

    /// The key of spot `spot` (of kind number `kind`) of `run` but for its score's distance and
    /// its reference, or nil when it does not match.
    private func match(of spot: Int, kind: Int, in run: CandidateRun) throws -> (
        level: MatchLevel, edits: Int, field: NameField, quality: Int
    )? {
        switch run.verification {
        case .bound:
            return (run.bound.level, run.bound.edits, run.bound.field, run.bound.score)
        case .kind:
            return (run.bound.level, run.bound.edits, .primary, try index.quality(at: spot).score)
        case .names:
            let quality = try index.quality(at: spot).score
            let text = try CandidateText(spot: spot, in: index, words: addressWords)
            if let named = NameMatch.best(in: text.names, terms: query.words) {
                return (named.level, 0, NameField(ofKey: named.key), quality)
            }
            // The names hold the terms, the kind (or a list, or the names) meets each phrase.
            let words = query.words(leavingOut: try filter.phrasesMetByKind(spot, kind: kind))
            if filter.hasPhrases, NameMatch.namesHold(words, in: text.names) {
                return (.category, 0, .primary, quality)
            }
            guard !query.terms.isEmpty,
                AddressMatch.field(words: words, names: text.names, address: try text.address()) != nil
            else { return nil }
            return (.address, 0, .address, quality)
        case .typos:
            guard let typos, try typos.candidates.mayMatch(spot, kind: kind),
                let match = try typos.stage.match(
                    try CandidateText(spot: spot, in: index, words: addressWords), kind: kind, spot: spot)
            else { return nil }
            return (.fuzzy, match.edits, match.field, try index.quality(at: spot).score)
        }
    }
}
