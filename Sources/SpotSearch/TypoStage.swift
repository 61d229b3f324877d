import SpotIndex
import Spots

/// The last stage of a text search (README, "Typos"): when the exact levels leave the list of
/// results short, the query again with its typos forgiven, at the fuzzy level. Each term may
/// be within its edits (`FuzzyWord`) of a word of a name, or start or be within its edits of a
/// whole one-word category phrase of the spot's kind ("muse", "resturant", "muzeum"); category
/// phrases the parser found count as in the exact levels. A spot matches when one of its names (or its kind) meets every part, and
/// ranks by the edits it took, fewest first.
struct TypoStage {
    /// The parts of the query, in order.
    let parts: [FuzzyPart]

    /// The stage for `query`, whose phrases come from `categoryWords`; nil when no term forgives
    /// a typo or names a category once one is forgiven (the exact levels said all there is).
    init?(query: ParsedQuery, categoryWords: [String: [Category]]) {
        let oneWordPhrases = categoryWords.filter { !$0.key.contains(" ") }
        var parts = query.phrases.map {
            FuzzyPart(
                words: $0.words.map { FuzzyWord($0, isLast: false, forgiving: false) },
                categories: Dictionary(uniqueKeysWithValues: $0.categories.map { ($0, 0) }))
        }
        for (position, term) in query.terms.enumerated() {
            let word = FuzzyWord(term, isLast: query.endsWithTerm && position == query.terms.count - 1)
            var categories: [Category: Int] = [:]
            if word.maxEdits > 0 {
                // A category word is met whole: a typo in its first letters with the rest unsaid
                // ("poste" for "hoste…") names too many kinds to be meant.
                let whole = FuzzyWord(term, isLast: false)
                for (phrase, named) in oneWordPhrases {
                    guard let edits = whole.edits(to: phrase) else { continue }
                    for category in named { categories[category] = min(categories[category] ?? edits, edits) }
                }
            }
            parts.append(FuzzyPart(words: [word], categories: categories))
        }
        guard parts.contains(where: { $0.forgives }) else { return nil }
        self.parts = parts
    }

    /// The runs of candidates: the postings of the tokens one part's words reach and the spots of
    /// the kinds it names, of the part that gathers the fewest, grouped by the best key each
    /// gives (with one part, the key itself).
    func runs(in index: SpotIndexReader) throws -> [CandidateRun] {
        let sources = try parts.map { try $0.sources(in: index, alone: parts.count == 1) }
        guard let driver = sources.min(by: { $0.count < $1.count }) else { return [] }
        var lists: [FuzzySources.Origin: [RankList]] = [:]
        for source in driver.lists { lists[source.origin, default: []].append(source.list) }
        // With one part, a name's run bounds its spots' keys: they are the best their postings
        // give, and a kind's run that does better comes first.
        return lists.map { origin, lists in
            let keyIsBound = parts.count == 1 && !origin.isKind
            return CandidateRun(bound: origin.bound, lists: lists, verification: keyIsBound ? .bound : .typos)
        }
        .sorted { $0.bound < $1.bound }
    }

    /// How `spot` (its kind in `category`) meets the query with typos forgiven: the fewest edits,
    /// then the best field, and the name key that gives them (nil when its kind meets every
    /// part); nil when it does not.
    func match(_ spot: Spot) -> (edits: Int, field: NameField, key: String?)? {
        let byKind = parts.map { part in spot.category.flatMap { part.categories[$0] } }
        var best: (edits: Int, field: NameField, key: String?)?
        if byKind.allSatisfy({ $0 != nil }) { best = (byKind.reduce(0) { $0 + $1! }, .primary, nil) }
        for (key, name) in spot.namesByKey {
            let tokens = SearchText.tokens(ofName: name).map(\.token)
            var edits = 0
            for (part, kindEdits) in zip(parts, byKind) {
                guard let partEdits = [part.edits(ofNameTokens: tokens), kindEdits].compactMap({ $0 }).min() else {
                    edits = -1
                    break
                }
                edits += partEdits
            }
            guard edits >= 0 else { continue }
            let field = NameField(ofKey: key)
            if best.map({ (edits, field) < ($0.edits, $0.field) }) ?? true { best = (edits, field, key) }
        }
        return best
    }
}

/// One part of a query in the typo stage: a term, or a category phrase; met by a name that
/// holds its words (each within its edits of a word of the name) or by a kind of its categories.
struct FuzzyPart {
    /// The words a name must hold.
    let words: [FuzzyWord]
    /// The categories whose spots meet the part by their kind, with the edits that takes.
    let categories: [Category: Int]

    /// Whether the part forgives any typo.
    var forgives: Bool { words.contains { $0.maxEdits > 0 } || categories.values.contains { $0 > 0 } }

    /// The edits with which the tokens of one name meet the part's words, or nil.
    func edits(ofNameTokens tokens: [String]) -> Int? {
        var total = 0
        for word in words {
            guard let edits = tokens.lazy.compactMap({ word.edits(to: $0) }).min() else { return nil }
            total += edits
        }
        return total
    }

    /// Where the part's spots are listed: the postings of the tokens its first word reaches and
    /// the lists of its kinds, each with the best key it can give. With the part `alone` in its
    /// query, tokens it reaches with no edit are left out: the exact levels have read them.
    func sources(in index: SpotIndexReader, alone: Bool) throws -> FuzzySources {
        var sources = FuzzySources()
        if let first = words.first {
            for match in try first.tokenMatches(in: index) where !(alone && match.edits == 0) {
                for token in match.tokens {
                    for group in try index.postingGroups(ofToken: token) {
                        sources.add(group.ranks, edits: match.edits, key: group.key)
                    }
                }
            }
        }
        for kind in index.kinds.indices {
            guard let edits = index.kinds[kind].category.flatMap({ categories[$0] }) else { continue }
            sources.add(kindList: try index.kindList(ofKind: kind), edits: edits)
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

    /// Adds the postings of a token reached with `edits` whose group key is `key`.
    mutating func add(_ list: RankList, edits: Int, key: PostingGroup.Key) {
        add(list, Origin(bound: KeyBound(level: .fuzzy, edits: edits, field: key.field, score: key.score), isKind: false))
    }

    /// Adds the spots of a kind the part names with `edits`: a name may do better, so the bound's
    /// field and score are the best there are.
    mutating func add(kindList list: RankList, edits: Int) {
        let bound = KeyBound(level: .fuzzy, edits: edits, field: .primary, score: PlaceQuality.maximumScore)
        add(list, Origin(bound: bound, isKind: true))
    }

    private mutating func add(_ list: RankList, _ origin: Origin) {
        lists.append((origin, list))
        count += list.remaining
    }
}
