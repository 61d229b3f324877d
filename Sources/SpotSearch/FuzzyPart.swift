import SpotIndex
import SpotText
import Spots

/// One part of a query in the typo stage: a term, a category phrase or what a respelling puts
/// in; met by a name that holds its words (each within its edits of a word of the name), by a
/// kind it names, or by the list of other spots of a category or value it names
/// (`PhraseTargets.wordLists`).
struct FuzzyPart {
    /// The words a name must hold.
    let words: [FuzzyWord]
    /// The kind numbers whose spots meet the part by their kind, with the edits that takes.
    let kinds: [Int: Int]
    /// The categories and values (`PhraseTargets.names`) whose other spots (their word lists)
    /// meet the part, with the edits that takes.
    let targets: [String: Int]
    /// The spots of those lists, with the fewest edits that meet the part, read on first use.
    let listed: Lazy<PartListing>
    /// The edits of a respelling (`Respelling`) that every match of the words adds.
    let spaceEdits: Int
    /// The term's position in the query's terms, for the part of one term.
    let term: Int?
    /// Whether the part is a term that may be a house number (`QueryTerm.mayBeHouseNumber`), which
    /// no postings list.
    let mayBeHouseNumber: Bool

    /// The part of `words`, met by `kinds` and by the word lists of `targets` in `index`.
    init(
        words: [FuzzyWord], kinds: [Int: Int], targets: [String: Int], spaceEdits: Int = 0, term: Int? = nil,
        mayBeHouseNumber: Bool = false, index: SpotIndexReader
    ) {
        self.words = words
        self.kinds = kinds
        self.targets = targets
        self.spaceEdits = spaceEdits
        self.term = term
        self.mayBeHouseNumber = mayBeHouseNumber
        listed = Lazy { try PartListing(targets: targets, in: index) }
    }

    /// Whether the part forgives any typo.
    var forgives: Bool {
        words.contains { $0.maxEdits > 0 } || kinds.values.contains { $0 > 0 } || targets.values.contains { $0 > 0 }
    }

    /// The edits with which the tokens of one name (their Unicode scalar values) meet the
    /// part's words, or nil.
    func edits(ofNameTokens tokens: [[UInt32]]) -> Int? {
        var total = spaceEdits
        for word in words {
            guard let edits = tokens.lazy.compactMap({ word.edits(toScalars: $0) }).min() else { return nil }
            total += edits
        }
        return total
    }

    /// The fewest edits with which any spot can meet the part, given the `tokens` its first word
    /// reaches (`tokenMatches`, not alone): a name or address meets the word no better than its
    /// nearest token, a kind or list with its edits, a house number a number part with none;
    /// 2^16 (more than any query's edits, and summed without overflow) when nothing meets it.
    func leastEdits(tokens: [TokenMatch]) -> Int {
        if mayBeHouseNumber { return 0 }
        let byTokens = tokens.map(\.edits).min().map { $0 + spaceEdits }
        return [byTokens, kinds.values.min(), targets.values.min()].compactMap { $0 }.min() ?? 1 << 16
    }

    /// The tokens the part's first word reaches. With the part `alone` in its query, those it
    /// reaches with no edit are left out: the exact levels have read them.
    func tokenMatches(in index: SpotIndexReader, alone: Bool) throws -> [TokenMatch] {
        try words.first.map { try $0.tokenMatches(in: index).filter { !(alone && $0.edits == 0) } } ?? []
    }

    /// Where the part's spots are listed: the postings of `tokens` (its `tokenMatches`), the
    /// lists of its kinds and its targets' word lists, each with the best key it can give.
    func sources(of tokens: [TokenMatch], in index: SpotIndexReader) throws -> FuzzySources {
        var sources = FuzzySources()
        for match in tokens {
            try index.forEachPostingGroup(ofTokens: match.tokens) { (_, group) throws(IndexError) in
                sources.add(group.ranks, edits: match.edits + spaceEdits, key: group.key)
            }
        }
        for (kind, edits) in kinds.sorted(by: { $0.key < $1.key }) {
            sources.add(kindList: try index.kindList(ofKind: kind), edits: edits)
        }
        for (target, edits) in targets.sorted(by: { $0.key < $1.key }) {
            if let list = try index.wordList(of: target) { sources.add(kindList: list, edits: edits) }
        }
        return sources
    }
}

/// The rank lists where one part of a query finds its spots, with the best key each gives.
struct FuzzySources {
    /// Where a list comes from: the postings of a name token or a kind's spots, and the best key
    /// its spots can have.
    struct Origin: Hashable {
        let bound: KeyBound
        let isKind: Bool
    }

    private(set) var lists: [(origin: Origin, list: RankList)] = []
    /// How many spots the lists hold, repeats counted.
    private(set) var count = 0
    /// How many of them the names' postings hold.
    private(set) var nameCount = 0
    /// How many of those are of the address field.
    private(set) var addressCount = 0

    /// Adds the postings of a token reached with `edits` whose group key is `key`.
    mutating func add(_ list: RankList, edits: Int, key: PostingGroup.Key) {
        add(
            list,
            Origin(bound: KeyBound(level: .fuzzy, edits: edits, field: key.field, score: key.score), isKind: false))
    }

    /// Adds the spots of a kind the part names with `edits`: a name may do better, so the bound's
    /// field and score are the best there are (the walk splits them by score, `CandidateRun`).
    mutating func add(kindList list: RankList, edits: Int) {
        let bound = KeyBound(level: .fuzzy, edits: edits, field: .primary, score: PlaceQuality.maximumScore)
        add(list, Origin(bound: bound, isKind: true))
    }

    private mutating func add(_ list: RankList, _ origin: Origin) {
        lists.append((origin, list))
        count += list.remaining
        if !origin.isKind { nameCount += list.remaining }
        if !origin.isKind && origin.bound.field == .address { addressCount += list.remaining }
    }
}
