import SpotIndex
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
    /// The runs for `query`. With a lead term (`leadTerm` > 0, `CandidateFilter.leadTerm`), the
    /// postings of the tokens it starts, grouped by name field and score and bounded as exact,
    /// the names deciding. Otherwise the postings of the tokens that the query's first word
    /// starts, grouped by the bound their place in the name gives; when that word names a
    /// category and terms follow, the postings of the first term too, bounded as category
    /// matches (a spot of the category whose names hold the terms but not the word); and for a
    /// query of category phrases alone, the lists of the first phrase's kinds and of its targets'
    /// other spots (`PhraseTargets.wordLists`), as category matches.
    static func gather(for query: ParsedQuery, leadTerm: Int, in index: SpotIndexReader) throws -> [CandidateRun] {
        guard let first = query.words.first else { return [] }
        if leadTerm > 0 {
            // A later term gathers: where its token stands says nothing of the level.
            var lists: [KeyBound: [RankList]] = [:]
            let term = query.terms[leadTerm]
            for group in try index.postingGroups(ofTokens: try index.tokens(withPrefix: Array(term.utf8))).joined() {
                lists[KeyBound(level: .exact, field: group.key.field, score: group.key.score), default: []]
                    .append(group.ranks)
            }
            return lists.map { CandidateRun(bound: $0.key, lists: $0.value, verification: .names) }
                .sorted { $0.bound < $1.bound }
        }
        let category = KeyBound(level: .category, field: .primary, score: PlaceQuality.maximumScore)
        var lists: [KeyBound: [RankList]] = [:]
        let tokens = try index.tokens(withPrefix: Array(first.utf8))
        for (token, groups) in zip(tokens, try index.postingGroups(ofTokens: tokens)) {
            let isWord = try token == tokens.lowerBound && index.token(token).elementsEqual(first.utf8)
            for group in groups {
                let level = bestLevel(place: group.key.place, tokenIsTerm: isWord, termCount: query.words.count)
                lists[KeyBound(level: level, field: group.key.field, score: group.key.score), default: []]
                    .append(group.ranks)
            }
        }
        // With one query word a run's bound is its spots' key: a spot is listed under every place
        // and field its names give that no other beats in both (FORMAT.md `POST`), so its first
        // run is its best. With more, the names decide, at the run's level or below.
        let verification: CandidateRun.Verification = query.words.count == 1 ? .bound : .names
        var runs = lists.map { CandidateRun(bound: $0.key, lists: $0.value, verification: verification) }
        if query.startsWithPhrase, let term = query.terms.first {
            let groups = try index.postingGroups(ofTokens: try index.tokens(withPrefix: Array(term.utf8))).joined()
            runs.append(CandidateRun(bound: category, lists: groups.map(\.ranks), verification: .names))
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

    /// Which of the query's terms gathers the candidates: the first, unless the query starts
    /// with it and another starts a quarter as many tokens or fewer ("la oagtal": "la" starts
    /// thousands of words), as a rule the rarer.
    /// `tokenCounts` holds how many tokens each term starts.
    static func leadTerm(of query: ParsedQuery, tokenCounts counts: [Int]) -> Int {
        guard !query.startsWithPhrase, query.terms.count > 1 else { return 0 }
        let fewest = counts.indices.min { counts[$0] < counts[$1] }!
        return counts[fewest] * 4 <= counts[0] ? fewest : 0
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
