import SpotIndex
import SpotText
import Spots

/// Rank lists whose spots share the best key they can have (`KeyBound`), read merged in
/// reference order, and the check that finds each spot's key (`CandidateCheck`): one step of
/// the candidates a text query gathers.
struct CandidateRun {
    /// The best key of any spot in the run.
    let bound: KeyBound
    /// The lists, each in reference order.
    var lists: [RankList]
    /// The ranks of the lists held in memory, kept while the run lives: its lists point into
    /// them (`HeldRanks`).
    private(set) var held: [HeldRanks] = []
    /// How each spot's key is found.
    let check: any CandidateCheck
    /// Whether the walk splits the run by its spots' quality score when it reaches it
    /// (`splitByQuality`): a run of kinds' spots, whose bound has the best score there is.
    var splitsByQuality = false
    /// For a run of category spots (`KindLists`), what their kinds meet of the query's
    /// targets: the split by quality splits them by the targets they meet too.
    var targetsOfKinds: TargetsOfKinds?
    /// The ranks outside which no spot of the run meets the query (a typo stage's run, whose
    /// spots its readings' other parts must list, `TypoNarrowings`): the walk keeps the run's
    /// lists to them (`narrowed`) before it reads a spot, where that pays.
    var narrowing: RunNarrowing?

    /// What the kinds of a run of category spots meet of the query's targets.
    enum TargetsOfKinds {
        /// The spots are of kind `kind`, by number.
        case ofKind(Int)
        /// The spots may be of any kind.
        case ofAnyKind
    }

    /// The run with only the ranks `ranks` holds in its lists (in memory), its bound and check
    /// the same.
    func keeping(_ ranks: SpotSet) throws -> CandidateRun {
        var kept = self
        kept.hold(try lists.map { HeldRanks(try $0.remainingRanks().filter(ranks.contains)) })
        return kept
    }

    /// The run kept to its `narrowing`, or itself without one or where it does not pay.
    func narrowed() throws -> CandidateRun {
        guard let narrowing, narrowing.pays(forPostings: QueryPlan.postings(in: [self])) else { return self }
        var kept = try keeping(narrowing.value())
        kept.narrowing = nil
        return kept
    }

    /// Makes `held`'s lists the run's, kept with them.
    private mutating func hold(_ held: [HeldRanks]) {
        self.held = held
        lists = held.map(\.list)
    }

    /// The run split by its spots' quality score (`PlaceQuality.score`), a run for each score
    /// bounded by it: every key a check finds has the spot's own score, so the walk stops at
    /// the first score whose spots cannot enter the results, not after reading every spot of
    /// the kinds ("hotel" without a place reads the best-known hotels). A run of category spots
    /// is split by the most of `filter`'s phrases' targets they meet as well (`targetsOfKinds`),
    /// which rank before the score: spots on no target's list come after those on some.
    func splitByQuality(in index: SpotIndexReader, filter: CandidateFilter) throws -> [CandidateRun] {
        let byKinds = targetsOfKinds.map { targets in
            switch targets {
            case .ofKind(let kind): filter.targetsMet(byKind: kind)
            case .ofAnyKind: filter.mostTargetsMetByKind
            }
        }
        let targetLists = byKinds == nil ? [] : try filter.targetLists()
        // One bucket a score and count of targets met, best first.
        let targetCounts = RankOrder.countedTargets + 1
        let bucketCount = (PlaceQuality.maximumScore + 1) * targetCounts
        var byBucket = [[HeldRanks]](repeating: [], count: bucketCount)
        for var list in lists {
            var ranks = [[Int]](repeating: [], count: bucketCount)
            while let rank = try list.next() {
                let spot = try index.spot(atRank: rank)
                var targets = bound.targets
                if let byKinds {
                    targets = byKinds
                    for list in targetLists where list.contains(spot) { targets += 1 }
                    targets = min(targets, RankOrder.countedTargets)
                }
                ranks[try index.quality(at: spot).score * targetCounts + targets].append(rank)
            }
            for bucket in ranks.indices where !ranks[bucket].isEmpty {
                byBucket[bucket].append(HeldRanks(ranks[bucket]))
            }
        }
        return byBucket.indices.filter { !byBucket[$0].isEmpty }.map { bucket in
            var run = CandidateRun(
                bound: KeyBound(
                    level: bound.level, edits: bound.edits, field: bound.field, score: bucket / targetCounts,
                    targets: bucket % targetCounts),
                lists: [], check: check)
            run.hold(byBucket[bucket])
            return run
        }
    }
}

/// Where the candidates of a text query come from (the gather stage): the postings of the
/// tokens a word starts, in names or in addresses (`WordPostings`), the lists of the kinds a
/// phrase names with its targets' word lists (`KindLists`), or the typo stage's expansions
/// (`TypoStage`). Each gives runs, bounded by the best key their spots can have; the walk reads
/// the runs of all a plan's sources best bound first (`TextWalk`).
protocol CandidateSource {
    /// The source's runs, in any order.
    func runs(in index: SpotIndexReader) throws -> [CandidateRun]
}

/// The postings of the tokens that words start, grouped by the bound their group key gives: in
/// the address field the address level, else a name level.
struct WordPostings: CandidateSource {
    /// How a group's name level is found.
    enum Levels {
        /// Each at this level (`.category`: a spot of a phrase's category whose names hold the
        /// word), the names deciding.
        case fixed(MatchLevel)
        /// By the place of the token in the name (`bestLevel`), for the first of `wordCount`
        /// query words: with one word the bound is the key, with more the names decide. With
        /// `namesOnly`, groups of the address field are left out (an address holding a
        /// category word does not make a spot of the category).
        case byPlace(wordCount: Int, namesOnly: Bool)
    }

    /// The words whose tokens' postings are read.
    let words: [String]
    let levels: Levels

    func runs(in index: SpotIndexReader) throws -> [CandidateRun] {
        // The lists by bound: a slot for each level, field and score (a word's prefix may start
        // thousands of tokens, each with a few groups).
        let fields = NameField.allCases.count
        let scores = PlaceQuality.maximumScore + 1
        var slots = [[RankList]](repeating: [], count: MatchLevel.allCases.count * fields * scores)
        for word in words {
            let tokens = try index.tokens(withPrefix: Array(word.utf8))
            try index.forEachPostingGroup(ofTokens: tokens) { (token, group) throws(IndexError) in
                guard let level = try level(of: group.key, token: token, in: tokens, word: word, index: index)
                else { return }
                let bound = Self.bound(of: group.key, nameLevel: level)
                slots[(bound.level.rawValue * fields + bound.field.rawValue) * scores + bound.score].append(group.ranks)
            }
        }
        // With one query word a run's bound is its spots' key: a spot is listed under every place
        // and field its names and address give that no other beats in both (FORMAT.md `POST`),
        // so its first run is its best. With more, the text decides, at the run's level or below.
        let check: any CandidateCheck
        switch levels {
        case .byPlace(wordCount: 1, _): check = BoundCheck()
        case .byPlace: check = NameCheck(held: words)
        case .fixed(let level): check = NameCheck(held: words, boundsByNameStart: level < .words)
        }
        return slots.indices.filter { !slots[$0].isEmpty }.map { slot in
            let bound = KeyBound(
                level: MatchLevel(rawValue: slot / scores / fields)!,
                field: NameField(rawValue: slot / scores % fields)!, score: slot % scores)
            return CandidateRun(bound: bound, lists: slots[slot], check: check)
        }
    }

    /// The name level of the group keyed `key` of token `token` (of the `tokens` that `word`
    /// starts), or nil for a group left out.
    private func level(
        of key: PostingGroup.Key, token: Int, in tokens: Range<Int>, word: String, index: SpotIndexReader
    ) throws(IndexError) -> MatchLevel? {
        switch levels {
        case .fixed(let level): return level
        case .byPlace(let wordCount, let namesOnly):
            if namesOnly && key.field == .address { return nil }
            let isWord = token == tokens.lowerBound ? try index.token(token).elementsEqual(word.utf8) : false
            return Self.bestLevel(place: key.place, tokenIsTerm: isWord, termCount: wordCount)
        }
    }

    /// The bound of the spots of a posting group with key `key`: the address level for the
    /// address field, else `nameLevel` (for a category match, the primary field).
    static func bound(of key: PostingGroup.Key, nameLevel: MatchLevel) -> KeyBound {
        if key.field == .address { return KeyBound(level: .address, field: .address, score: key.score) }
        return KeyBound(level: nameLevel, field: nameLevel == .category ? .primary : key.field, score: key.score)
    }

    /// The best level a spot can reach whose name has a token, standing at `place`, that the
    /// first of `termCount` query words starts (`tokenIsTerm` when it equals it). With one word
    /// it is the level itself (`NameMatch` agrees); with more, the names decide, at this level or
    /// below.
    static func bestLevel(place: TokenPlace, tokenIsTerm: Bool, termCount: Int) -> MatchLevel {
        switch place {
        case .inName: .words
        case .wholeName where termCount == 1: tokenIsTerm ? .exact : .prefix
        case .wholeName, .nameStart: termCount == 1 ? .prefix : .exact
        }
    }
}

/// The spots of the kinds a phrase names and of its targets' word lists, as category matches,
/// each scored by its own quality: what a query of category phrases alone gathers, a run a
/// kind and one for the lists (split by score and by the targets met when the walk reaches
/// them, `CandidateRun.splitByQuality`).
struct KindLists: CandidateSource {
    let targets: PhraseTargets

    func runs(in index: SpotIndexReader) throws -> [CandidateRun] {
        let bound = KeyBound(level: .category, field: .primary, score: PlaceQuality.maximumScore)
        var runs = try index.kinds.indices.filter { targets.names(index.kinds[$0]) }.map { kind in
            CandidateRun(
                bound: bound, lists: [try index.kindList(ofKind: kind)], check: KindCheck(), splitsByQuality: true,
                targetsOfKinds: .ofKind(kind))
        }
        let wordLists = try targets.wordLists(in: index)
        if !wordLists.isEmpty {
            runs.append(
                CandidateRun(
                    bound: bound, lists: wordLists, check: KindCheck(), splitsByQuality: true,
                    targetsOfKinds: .ofAnyKind))
        }
        return runs
    }
}

/// Every spot that may meet a category phrase: of a kind it names, on a list of one of its
/// targets, or holding its rarest word in its names or address. Any exact-level match of a
/// query with the phrase is among them, whatever its other words, so they gather alone when the
/// phrase admits far fewer spots than the words that would ("a ski": the ski rentals, not every
/// name with a word starting with "a"); the text decides each spot's level (`NameCheck`).
struct PhraseSpots: CandidateSource {
    let phrase: QueryPhrase

    func runs(in index: SpotIndexReader) throws -> [CandidateRun] {
        var lists = try phrase.targets.kindLists(in: index) + phrase.targets.wordLists(in: index)
        let tokens = try phrase.words.map { try index.tokens(withPrefix: Array($0.utf8)) }
        if let rarest = tokens.min(by: { $0.count < $1.count }) {
            lists += try index.postingGroups(ofTokens: rarest).joined().map(\.ranks)
        }
        let bound = KeyBound(level: .exact, field: .primary, score: PlaceQuality.maximumScore)
        return [CandidateRun(bound: bound, lists: lists, check: NameCheck())]
    }
}

/// Rank lists merged into one walk in reference order (each list's ranks ascend; a rank in
/// several lists comes once per list).
struct RankMerge {
    private var lists: [RankList]
    private var heads = Heap<ListHead>()

    /// A merge of `lists`.
    init(_ lists: [RankList]) throws(IndexError) {
        self.lists = lists
        for list in lists.indices { try pushHead(of: list) }
    }

    /// The next rank, or nil after the last.
    mutating func next() throws(IndexError) -> Int? {
        guard let head = heads.pop() else { return nil }
        try pushHead(of: head.list)
        return head.rank
    }

    private mutating func pushHead(of list: Int) throws(IndexError) {
        if let rank = try lists[list].next() { heads.push(ListHead(rank: rank, list: list)) }
    }
}

/// The head of one rank list while lists are merged in reference order.
struct ListHead: Comparable {
    /// The reference rank of the list's next spot.
    let rank: Int
    /// Which list.
    let list: Int

    static func < (a: ListHead, b: ListHead) -> Bool { a.rank < b.rank }
}
