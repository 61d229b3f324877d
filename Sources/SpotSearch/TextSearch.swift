import SpotIndex
import SpotText
import Spots

/// What every candidate of the exact levels must pass, whatever gathered it: the result types,
/// the category and tag filters, the plan's checked terms (each must start a token of the spot's names or address),
/// the terms that may be house numbers (`HouseNumberCheck`), and each category phrase (met by
/// the spot's kind, by the build's list of the phrase's targets, or by its names or address
/// holding the phrase).
struct CandidateFilter {
    /// One flag per kind number: whether the request's category filter allows it.
    let allowedKinds: [Bool]
    /// The candidates' names and addresses, read and cut into words once for the whole search.
    let words: CandidateWords
    /// The spots that hold each checked term (`QueryPlan.checkedTerms`), in its order.
    private let checkedTerms: [TermHolders]
    /// What the terms that may be house numbers ask of a spot.
    private let houseNumbers: HouseNumberCheck
    private let phrases: [PhraseCheck]
    /// Whether every spot passes: no category filter, no checked term, house number or phrase.
    private let passesAll: Bool

    /// The filter of `request`, parsed as `query` and planned as `plan`.
    init(query: ParsedQuery, plan: QueryPlan, request: SearchRequest, index: SpotIndexReader) throws {
        allowedKinds = index.kinds.map { kind in
            request.resultTypes.contains(kind.resultType)
                && (request.pointOfInterestFilter?.allows(kind.category) ?? true)
                && (request.tagFilter?.allows(key: kind.key, value: kind.value) ?? true)
        }
        let words = CandidateWords()
        self.words = words
        checkedTerms = plan.checkedTerms.map { term in
            TermHolders(
                term: query.terms[term].text, tokens: plan.termTokens[term], index: index, candidateWords: words)
        }
        houseNumbers = HouseNumberCheck(
            query: query, termTokens: plan.termTokens, index: index, candidateWords: words)
        passesAll =
            !allowedKinds.contains(false) && checkedTerms.isEmpty && houseNumbers.passesAll && query.phrases.isEmpty
        phrases = try query.phrases.map { phrase in
            PhraseCheck(
                kinds: index.kinds.map(phrase.targets.names),
                targetLists: Lazy { try phrase.targets.listedSpots(in: index) },
                words: try phrase.words.map { word in
                    TermHolders(
                        term: word, tokens: try index.tokens(withPrefix: Array(word.utf8)), index: index,
                        candidateWords: words)
                }
            )
        }
    }

    /// Whether spot `spot` passes, its names or address holding a token each of `held` starts.
    func passes(_ spot: Int, kind: Int, holding held: [String] = []) throws -> Bool {
        guard allowedKinds[kind], try checkedTerms.allSatisfy({ try $0.contains(spot) }),
            try houseNumbers.passes(spot, holding: held)
        else { return false }
        for phrase in phrases where !phrase.kinds[kind] {
            guard try phrase.listsHold(spot) || phrase.textHolds(spot) else { return false }
        }
        return true
    }

    /// Whether the query has category phrases.
    var hasPhrases: Bool { !phrases.isEmpty }

    /// Whether the names or address of spot `spot` hold the words of every phrase.
    func textHoldsPhrases(_ spot: Int) throws -> Bool {
        try phrases.allSatisfy { try $0.textHolds(spot) }
    }

    /// How many of the phrases name kind number `kind` (`KindFit.targetsMet` counts each).
    func targetsMet(byKind kind: Int) -> Int {
        phrases.reduce(0) { $0 + ($1.kinds[kind] ? 1 : 0) }
    }

    /// The most phrases that name one kind.
    var mostTargetsMetByKind: Int {
        phrases.first.map { $0.kinds.indices.map(targetsMet(byKind:)).max() ?? 0 } ?? 0
    }

    /// The lists of every phrase's targets (`PhraseTargets.wordLists`): a spot meets a target
    /// for each that holds it.
    func targetLists() throws -> [SpotSet] {
        try phrases.flatMap { try $0.targetLists.value() }
    }

    /// How spot `spot`, of kind number `kind`, fits the kinds the phrases name.
    func kindFit(_ spot: Int, kind: Int) throws -> KindFit {
        guard hasPhrases else { return .best }
        var missed = false
        var met = 0
        for phrase in phrases {
            let byKind = phrase.kinds[kind]
            let byLists = try phrase.targetLists.value().reduce(0) { $0 + ($1.contains(spot) ? 1 : 0) }
            missed = missed || !byKind && byLists == 0
            met += (byKind ? 1 : 0) + byLists
        }
        return KindFit(missed: missed, targetsMet: met)
    }

    /// For each category phrase, whether spot `spot` (of kind number `kind`) meets it by its kind
    /// or the build's list of the phrase's targets.
    func phrasesMetByKind(_ spot: Int, kind: Int) throws -> [Bool] {
        try phrases.map { try $0.kinds[kind] || $0.listsHold(spot) }
    }

    /// Whether spot `spot` passes, its kind read from the index unless every spot passes.
    func passes(_ spot: Int, in index: SpotIndexReader) throws -> Bool {
        try passesAll || passes(spot, kind: try index.kindNumber(at: spot))
    }
}

/// What a category phrase asks of a spot: to be of a kind it names, on a list of one of its
/// targets (`PhraseTargets.wordLists`), or to hold its words in its names or address.
struct PhraseCheck {
    /// One flag per kind number: whether the phrase names the kind.
    let kinds: [Bool]
    /// The spots of each target's word list.
    let targetLists: Lazy<[SpotSet]>
    /// The spots whose names or address hold each of the phrase's words: read from a
    /// candidate's text or from the word's postings, whichever costs less (`TermHolders`).
    let words: [TermHolders]

    /// Whether some target's list holds `spot`.
    func listsHold(_ spot: Int) throws -> Bool { try targetLists.value().contains { $0.contains(spot) } }

    /// Whether the names or address of `spot` hold every word of the phrase.
    func textHolds(_ spot: Int) throws -> Bool { try words.allSatisfy { try $0.contains(spot) } }
}

extension SpotSearch {
    /// The results of a query with name terms (or category phrases alone): the runs of the
    /// plan's sources (`QueryPlan`) read best bound first, each new spot that its run's check
    /// admits and matches scored and offered to the bounded list of the best; then, while the
    /// list is short, the runs of the typo stage (`TypoStage`). Without a place, sorted by
    /// relevance, the walk stops once the list is full and no spot left can beat its last, so
    /// that a search reads about as many postings as it returns.
    func rankedByText(
        _ query: ParsedQuery, plan: QueryPlan, request: SearchRequest, origin: Coordinate?, filter: CandidateFilter
    ) throws -> [RankedSpot] {
        var walk = TextWalk(index: index, request: request, origin: origin, filter: filter, query: query)
        // Near a place, candidates from the neighbourhood first (`Neighbourhood`): a kind's
        // spots when that reads fewer than their lists; name matches within a budget of twice
        // the postings their runs hold (a spot the runs or the checked terms do not list costs
        // about a posting once their sets are made).
        let neighbourhood = origin.map { Neighbourhood(index: index, request: request, origin: $0, order: walk.order) }
        var found: Neighbourhood.Found?
        if case .kindsNear = walk.order { found = try neighbourhood?.kinds(of: query, filter: filter) }
        let runs = plan.someTermStartsNoToken ? [] : try plan.runs(in: index)
        if case .near = walk.order, !runs.isEmpty {
            let postings = QueryPlan.postings(in: runs)
            found = try neighbourhood?.names(budget: postings * 2, runs: runs, context: walk.context)
        }
        for entry in found?.best.entries ?? [] { walk.offer(entry.key, spot: entry.spot) }
        // A walk that finished with the list full leaves the runs nothing to add.
        if !(found.map { $0.finished && $0.best.isFull } ?? false) { try walk.read(runs) }
        let typos = walk.best.isFull ? nil : try TypoStage(query: query, parser: parser, index: index)
        if let typos {
            try walk.read(try typos.runs(in: index))
        }
        return try walk.best.entries.map { entry in
            RankedSpot(
                spot: entry.spot, distance: origin == nil ? nil : entry.key.distance,
                match: request.explain
                    ? try explanation(
                        of: entry.spot, key: entry.key, order: walk.order, query: query, filter: filter, typos: typos)
                    : nil)
        }
    }

    /// Why spot `spot`, ranked at `key`, came back: its level and score, and the name key, the
    /// address part, or for a category match the selecting tag, that matched `query`.
    private func explanation(
        of spot: Int, key: RankKey, order: RankOrder, query: ParsedQuery, filter: CandidateFilter, typos: TypoStage?
    ) throws -> SearchMatch {
        var field: String?
        let text = try CandidateText(spot: spot, in: index, words: filter.words)
        switch key.match.level {
        case .category: break
        case .address:
            let words = query.words(leavingOut: try filter.phrasesMetByKind(spot, kind: index.kindNumber(at: spot)))
            field = AddressMatch.field(words: words, names: text.names, address: try text.address())
        case .fuzzy:
            field = try typos?.match(text, kind: index.kindNumber(at: spot), rank: index.referenceRank(of: spot))?.key
        default: field = NameMatch.best(in: text.names, terms: query.words)?.key ?? "name"
        }
        if field == nil {
            let kind = try index.kind(at: spot)
            field = kind.key + "=" + kind.value
        }
        return SearchMatch(
            level: key.match.level, field: field ?? "", score: order.shownScore(of: key), edits: key.match.edits)
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

/// The walk of a text search through its runs of candidates (the rank stage): the spots seen
/// and offered, and the bounded list of the best (the top results).
struct TextWalk {
    let index: SpotIndexReader
    let request: SearchRequest
    let origin: Coordinate?
    /// How the results are ordered.
    let order: RankOrder
    /// Distances to `origin`.
    private let distances: DistanceFrom?
    /// What the runs' checks are given.
    let context: CheckContext
    private(set) var best: TopResults<RankKey>
    /// The spots offered to `best`: a later stage passes over them.
    private var offered: SpotSet
    /// Sorted by relevance, the walk stops at the first run whose best key ranks after the last
    /// kept; without a place, also within a run of keys that differ by reference only.
    private let stopsEarly: Bool
    /// Near a place, once the list is full: the leaves of the spatial tree within the distance
    /// beyond which no spot beats the last kept (`RankOrder.farthestBeating`), and that distance.
    /// A candidate of another leaf is passed over by its number alone (spots are numbered in the
    /// tree's order), before its point is read. Made again when the distance halves; no flags
    /// when more than an eighth of the leaves lie within it.
    private var nearLeaves: (flags: [Bool]?, distance: Double)?
    /// Whether the runs read are long enough to pay for `nearLeaves` (a walk of the tree).
    private var leavesPay = false
    /// The least group (`RankKey.group`) the key of a spot still to be read can have: the best
    /// key's of the run being read (they are read in order); 0 before the runs.
    private var leastGroupLeft = 0

    init(
        index: SpotIndexReader, request: SearchRequest, origin: Coordinate?, filter: CandidateFilter, query: ParsedQuery
    ) {
        self.index = index
        self.request = request
        self.origin = origin
        order = RankOrder(request: request, origin: origin, query: query)
        distances = origin.map { DistanceFrom($0) }
        context = CheckContext(index: index, query: query, filter: filter)
        best = TopResults(limit: request.limit)
        offered = SpotSet(outOf: index.count)
        stopsEarly = request.sort == .relevance
    }

    /// Offers spot `spot`, keyed `key` by another source, to `best`; later runs pass over it.
    mutating func offer(_ key: RankKey, spot: Int) {
        best.offer(key, spot: spot)
        _ = offered.insert(spot)
        narrowNearLeaves()
    }

    /// Makes `nearLeaves` again when the distance within which a spot left can beat the last
    /// kept has halved.
    private mutating func narrowNearLeaves() {
        guard leavesPay, stopsEarly, let origin, let worst = best.worst else { return }
        let farthest = order.farthestBeating(worst, leastGroup: leastGroupLeft)
        guard farthest.isFinite, farthest <= (nearLeaves?.distance ?? .infinity) / 2 else { return }
        let limit = (index.tree.levelCounts.first ?? 0) / 8
        nearLeaves = (index.tree.leafFlags(within: farthest, of: origin, in: request.region, limit: limit), farthest)
    }

    /// Reads `runs`, best key first, offering each spot not seen in them before to `best`.
    mutating func read(_ runs: [CandidateRun]) throws {
        var seen = offered
        leavesPay = origin != nil && QueryPlan.postings(in: runs) > index.tree.levelCounts.first ?? 0
        let nodeSize = index.tree.nodeSize
        func readFirst(_ a: (run: CandidateRun, best: RankKey), _ b: (run: CandidateRun, best: RankKey)) -> Bool {
            a.best < b.best || !(b.best < a.best) && a.run.bound < b.run.bound
        }
        var pending = runs.map { (run: $0, best: order.bestKey(of: $0.bound)) }.sorted(by: readFirst)
        var next = 0
        while next < pending.count {
            let bestOfRun = pending[next].best
            if stopsEarly, let worst = best.worst, !(bestOfRun < worst) { break }
            let run = try pending[next].run.narrowed()
            // Its lists held in memory point into it (`CandidateRun.held`): kept while they are read.
            defer { withExtendedLifetime(run) {} }
            next += 1
            if bestOfRun.group > leastGroupLeft {
                leastGroupLeft = bestOfRun.group
                narrowNearLeaves()
            }
            if run.splitsByQuality {
                let parts = try run.splitByQuality(in: index, filter: context.filter).map {
                    (run: $0, best: order.bestKey(of: $0.bound))
                }
                pending = (pending[next...] + parts).sorted(by: readFirst)
                next = 0
                continue
            }
            var ranks = try RankMerge(run.lists)
            while let rank = try ranks.next() {
                let spot = try index.spot(atRank: rank)
                guard seen.insert(spot) else { continue }
                // Without a place a key depends on the spot only through its reference, and a
                // run is read in reference order: once the run's best key ties the last kept but
                // for the reference, the run ends at the first spot whose reference is not below.
                if stopsEarly, origin == nil, let worst = best.worst, bestOfRun.tiesButForReference(worst),
                    try index.ref(at: spot) >= worst.ref
                {
                    break
                }
                if let flags = nearLeaves?.flags, !flags[spot / nodeSize] { continue }
                // Where the spot is (read for a place or a region) turns it away before its kind
                // and text are read.
                let coordinate = origin == nil && request.region == nil ? nil : try index.coordinate(at: spot)
                if let region = request.region, let coordinate, !region.contains(coordinate) { continue }
                // Once the list is full, a spot that even at the distance along the meridian
                // alone (cheap, and no more than the true one) cannot rank before the last kept
                // is passed over.
                let worst = stopsEarly ? best.worst : nil
                var alongCost = 0.0
                if worst != nil, let origin, let coordinate {
                    alongCost = order.cost(ofDistance: coordinate.metresAlongMeridian(to: origin))
                }
                if let worst, !(bestOfRun.lowered(by: alongCost) < worst) { continue }
                let candidate = Candidate(spot: spot, rank: rank)
                guard try run.check.mayAdmit(candidate, in: context) else { continue }
                let kind = try index.kindNumber(at: spot)
                guard try run.check.admits(candidate, kind: kind, in: context) else { continue }
                // So is one whose own best key, where its check knows one, cannot: with its own
                // reference, which breaks a tie with the last kept.
                if let worst, run.check.boundsEachSpot {
                    guard
                        let spotBest = try run.check.bestKey(
                            of: candidate, kind: kind, bound: run.bound, order: order, in: context),
                        spotBest.lowered(by: alongCost).withReference(try index.ref(at: spot)) < worst
                    else { continue }
                }
                let distance = coordinate.flatMap { distances?.distance(to: $0) }
                if let distance, let radius = request.radius, distance > radius { continue }
                guard let match = try run.check.match(candidate, kind: kind, bound: run.bound, in: context) else {
                    continue
                }
                let fit = try context.filter.kindFit(spot, kind: kind)
                let key = order.key(match, fit: fit, distance: distance ?? 0, ref: try index.ref(at: spot))
                offer(key, spot: spot)
            }
        }
    }
}
