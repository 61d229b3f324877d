import SpotIndex
import SpotText
import Spots

/// Rank lists whose spots share the best key they can have (`KeyBound`), read merged in
/// reference order: one step of the candidates a text query gathers.
struct CandidateRun {
    /// The best key of any spot in the run.
    let bound: KeyBound
    /// The lists, each in reference order.
    var lists: [RankList]
    /// How each spot's key is found.
    let verification: Verification

    /// How the key of a run's spot is found.
    enum Verification {
        /// It is the bound, but for the reference.
        case bound
        /// A spot of the run's lists matches at the run's bound by its kind (a category match,
        /// or a misspelt category word's kind in the typo stage), its score its own.
        case kind
        /// Its names decide (`NameMatch`), or its kind where they do not hold the phrases.
        case names
        /// Its names and kind decide, typos forgiven (`TypoStage`).
        case typos
    }
}

/// The second stage of a text search: the runs of candidates for a query, best bound first. A
/// spot may come in several runs; its first is its best.
enum CandidateRuns {
    /// The runs for `query`. With lead terms (`leadTerms`, `CandidateFilter.leadTerms`), the
    /// postings of the tokens they start, grouped by name field and score and bounded as exact
    /// (in the address field as address matches), the text deciding. Otherwise the postings of
    /// the tokens that the query's first word starts, grouped by the bound their place in the
    /// name gives (names alone when the word names a category); when that word names a category
    /// and terms follow, the postings of the gathering terms (`ParsedQuery.gatheringTerms`) too,
    /// bounded as category matches (a spot of the category whose names hold the terms but not
    /// the word) or address matches; and for a query of category phrases alone, the lists of the
    /// first phrase's kinds and of its targets' other spots (`PhraseTargets.wordLists`), as
    /// category matches.
    static func gather(for query: ParsedQuery, leadTerms: [Int], in index: SpotIndexReader) throws -> [CandidateRun] {
        guard let first = query.words.first else { return [] }
        if !leadTerms.isEmpty {
            // Other terms gather: where their tokens stand says nothing of the level.
            return try runs(ofTerms: leadTerms.map { query.terms[$0] }, nameLevel: .exact, in: index)
                .sorted { $0.bound < $1.bound }
        }
        let category = KeyBound(level: .category, field: .primary, score: PlaceQuality.maximumScore)
        var lists: [KeyBound: [RankList]] = [:]
        let tokens = try index.tokens(withPrefix: Array(first.utf8))
        for (token, groups) in zip(tokens, try index.postingGroups(ofTokens: tokens)) {
            let isWord = try token == tokens.lowerBound && index.token(token).elementsEqual(first.utf8)
            // An address holding a category word does not make a spot of the category.
            for group in groups where !(query.startsWithPhrase && group.key.field == .address) {
                let level = bestLevel(place: group.key.place, tokenIsTerm: isWord, termCount: query.words.count)
                lists[bound(of: group.key, nameLevel: level), default: []].append(group.ranks)
            }
        }
        // With one query word a run's bound is its spots' key: a spot is listed under every place
        // and field its names and address give that no other beats in both (FORMAT.md `POST`),
        // so its first run is its best. With more, the text decides, at the run's level or below.
        let verification: CandidateRun.Verification = query.words.count == 1 ? .bound : .names
        var runs = lists.map { CandidateRun(bound: $0.key, lists: $0.value, verification: verification) }
        if query.startsWithPhrase {
            runs += try Self.runs(ofTerms: query.gatheringTerms, nameLevel: .category, in: index)
        }
        if query.terms.isEmpty, let phrase = query.phrases.first {
            let kinds =
                try index.kinds.indices.filter { phrase.targets.names(index.kinds[$0]) }
                .map { try index.kindList(ofKind: $0) }
            runs.append(
                CandidateRun(
                    bound: category, lists: kinds + (try phrase.targets.wordLists(in: index)), verification: .kind))
        }
        return runs.sorted { $0.bound < $1.bound }
    }

    /// The runs of the postings of the tokens that `terms` start, grouped by bound (`bound(of:nameLevel:)`),
    /// the text deciding each spot's key.
    private static func runs(ofTerms terms: [String], nameLevel: MatchLevel, in index: SpotIndexReader) throws
        -> [CandidateRun]
    {
        var lists: [KeyBound: [RankList]] = [:]
        for term in terms {
            for group in try index.postingGroups(ofTokens: try index.tokens(withPrefix: Array(term.utf8))).joined() {
                lists[bound(of: group.key, nameLevel: nameLevel), default: []].append(group.ranks)
            }
        }
        return lists.map { CandidateRun(bound: $0.key, lists: $0.value, verification: .names) }
    }

    /// Which of the query's terms gather the candidates, when not its first word: of the word
    /// terms (`ParsedQuery.wordTerms`), the first, unless another starts a quarter as many tokens
    /// or fewer ("la oagtal": "la" starts thousands of words), as a rule the rarer; none when
    /// that is the first word. When every term may be a house number, all of them: an address
    /// match has a word its address holds, which one not known. None for a query of one word or
    /// that starts with a category phrase. `tokenCounts` holds how many tokens each term starts.
    static func leadTerms(of query: ParsedQuery, tokenCounts counts: [Int]) -> [Int] {
        guard !query.startsWithPhrase, query.words.count > 1 else { return [] }
        let terms = query.wordTerms
        guard let first = terms.first else { return Array(query.terms.indices) }
        let fewest = terms.min { counts[$0] < counts[$1] }!
        let lead = counts[fewest] * 4 <= counts[first] ? fewest : first
        return lead == 0 ? [] : [lead]
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
