import SpotIndex
import Spots

/// Rank lists whose spots share the best key they can have (`KeyBound`), read merged in
/// reference order: one step of the candidates a text query gathers.
struct CandidateRun {
    /// The best key of any spot in the run.
    let bound: KeyBound
    /// The lists, each in reference order.
    var lists: [RankList]
    /// Whether the spots come from kind lists (a category match) rather than name postings.
    let isCategory: Bool
}

/// The second stage of a text search: the runs of candidates for a query, best bound first. A
/// spot may come in several runs; its first is its best.
enum CandidateRuns {
    /// The runs for `query`: the postings of the tokens that the first name term starts, grouped
    /// by bound; and for a query of category phrases alone, the lists of the first phrase's
    /// kinds, as category matches.
    static func gather(for query: ParsedQuery, in index: SpotIndexReader) throws -> [CandidateRun] {
        let terms = query.nameTerms
        guard let first = terms.first else { return [] }
        // With category phrases beside the terms, a name may hold the whole query, phrases too:
        // the first term's place in it bounds nothing, so every run may hold an exact match.
        let wholeQueryCounts = !query.phrases.isEmpty && !query.terms.isEmpty
        var lists: [KeyBound: [RankList]] = [:]
        let tokens = try index.tokens(withPrefix: Array(first.utf8))
        for token in tokens {
            let isTerm = try token == tokens.lowerBound && index.token(token).elementsEqual(first.utf8)
            for group in try index.postingGroups(ofToken: token) {
                let level =
                    wholeQueryCounts
                    ? .exact : bestLevel(place: group.key.place, tokenIsTerm: isTerm, termCount: query.words.count)
                lists[KeyBound(level: level, field: group.key.field, score: group.key.score), default: []]
                    .append(group.ranks)
            }
        }
        var runs = lists.map { CandidateRun(bound: $0.key, lists: $0.value, isCategory: false) }
        if query.terms.isEmpty, let phrase = query.phrases.first {
            let kinds = try index.kinds.indices.filter {
                index.kinds[$0].category.map(phrase.categories.contains) ?? false
            }
            .map { try index.kindList(ofKind: $0) }
            let bound = KeyBound(level: .category, field: .primary, score: PlaceQuality.maximumScore)
            runs.append(CandidateRun(bound: bound, lists: kinds, isCategory: true))
        }
        return runs.sorted { $0.bound < $1.bound }
    }

    /// The best level a spot can reach whose name has a token, standing at `place`, that the
    /// first of `termCount` terms starts (`tokenIsTerm` when it equals it). With one term it is
    /// the level itself (`NameMatch` agrees); with more, the names decide, at this level or below.
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
