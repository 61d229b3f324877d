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
            sources.add(try index.kindList(ofKind: kind), ofKind: kind, edits: edits)
        }
        for (target, edits) in targets.sorted(by: { $0.key < $1.key }) {
            if let list = try index.wordList(of: target) { sources.add(list, ofKind: nil, edits: edits) }
        }
        return sources
    }
}

/// The rank lists where one part of a query finds its spots, grouped by where they come from
/// and the best key their spots can have (`Origin`): the postings of its tokens, a slot a bound
/// filled as they are read (a common word's tokens give thousands of posting groups, and a list
/// is copied once, into its slot), and its kinds' lists and targets' word lists by their edits.
struct FuzzySources {
    /// Where a list comes from: the postings of a name token, a kind's spots or a target's word
    /// list, and the best key its spots can have.
    struct Origin: Hashable {
        let bound: KeyBound
        let lists: Lists
        /// Whether the list holds the spots of a kind or a target's word list: what the part
        /// names rather than its names' tokens.
        var isKind: Bool { lists != .postings }
    }

    /// What an origin's lists are.
    enum Lists: Hashable {
        case postings, kinds, wordLists
    }

    /// The lists of one origin.
    struct Group {
        let origin: Origin
        let lists: [RankList]
        /// The kinds whose spots the lists hold; nil for postings or targets' word lists, whose
        /// spots may be of any kind.
        let kinds: Set<Int>?
    }

    /// The postings' lists by bound: slot `(edits × fields + field) × scores + score`.
    private var postings: [[RankList]] = []
    /// The kinds' lists (with their kind) and the targets' word lists (kind nil), with their edits.
    private var named: [(list: RankList, kind: Int?, edits: Int)] = []
    /// How many spots the lists hold, repeats counted.
    private(set) var count = 0
    /// How many of them the names' postings hold.
    private(set) var nameCount = 0
    /// How many of those are of the address field.
    private(set) var addressCount = 0
    /// How many spots the postings and the targets' word lists hold, repeats counted: those
    /// that meet the part whatever their kind.
    private var listedCount = 0

    private static let fields = NameField.allCases.count
    private static let scores = PlaceQuality.maximumScore + 1

    /// Adds the postings of a token reached with `edits` whose group key is `key`.
    mutating func add(_ list: RankList, edits: Int, key: PostingGroup.Key) {
        let slot = (edits * Self.fields + key.field.rawValue) * Self.scores + key.score
        if slot >= postings.count { postings += [[RankList]](repeating: [], count: slot + 1 - postings.count) }
        postings[slot].append(list)
        count += list.remaining
        nameCount += list.remaining
        listedCount += list.remaining
        if key.field == .address { addressCount += list.remaining }
    }

    /// Adds the spots of the kind `kind` (nil: of a target's word list) the part names with
    /// `edits`.
    mutating func add(_ list: RankList, ofKind kind: Int?, edits: Int) {
        named.append((list, kind, edits))
        count += list.remaining
        if kind == nil { listedCount += list.remaining }
    }

    /// The postings' lists of each bound, with the origin they share.
    var postingGroups: some Sequence<(origin: Origin, lists: [RankList])> {
        postings.indices.lazy.filter { !postings[$0].isEmpty }.map { slot in
            let bound = KeyBound(
                level: .fuzzy, edits: slot / Self.scores / Self.fields,
                field: NameField(rawValue: slot / Self.scores % Self.fields)!, score: slot % Self.scores)
            return (Origin(bound: bound, lists: .postings), postings[slot])
        }
    }

    /// Every group: the postings' of each bound, the kinds' lists of each edit count, and the
    /// targets' word lists of each. A kind names the spots of a kind or list, and a name may do
    /// better, so the bound of those lists has the best field and score there are (the walk
    /// splits them by score, `CandidateRun`).
    var groups: [Group] {
        var groups = postingGroups.map { Group(origin: $0.origin, lists: $0.lists, kinds: nil) }
        for lists in [Lists.kinds, .wordLists] {
            let ofLists = named.filter { ($0.kind != nil) == (lists == .kinds) }
            for edits in Set(ofLists.map(\.edits)).sorted() {
                let withEdits = ofLists.filter { $0.edits == edits }
                let bound = KeyBound(level: .fuzzy, edits: edits, field: .primary, score: PlaceQuality.maximumScore)
                groups.append(
                    Group(
                        origin: Origin(bound: bound, lists: lists), lists: withEdits.map(\.list),
                        kinds: lists == .kinds ? Set(withEdits.compactMap(\.kind)) : nil))
            }
        }
        return groups
    }

    /// How many spots, repeats counted, the lists that hold every spot of `kinds` (nil: of any
    /// kind) the part meets hold (`ranks(ofKinds:)`).
    func count(ofKinds kinds: Set<Int>?) -> Int {
        listedCount + named.reduce(0) { $0 + (Self.isKind($1.kind, of: kinds) ? $1.list.remaining : 0) }
    }

    /// Whether `kind` (nil: a target's word list) is one of `kinds` (nil: every kind).
    private static func isKind(_ kind: Int?, of kinds: Set<Int>?) -> Bool {
        kind.map { kinds?.contains($0) ?? true } == true
    }

    /// The ranks, in no order and repeats kept, of the lists that hold every spot of `kinds`
    /// (nil: of any kind) that the part meets: its postings, its targets' word lists, and the
    /// lists of those of its kinds.
    func ranks(ofKinds kinds: Set<Int>?) throws -> [Int] {
        let lists = named.filter { $0.kind == nil || Self.isKind($0.kind, of: kinds) }.map(\.list)
        return try (postings.joined() + lists).flatMap { try $0.remainingRanks() }
    }
}
