import SpotIndex
import SpotText
import Spots

/// The last stage of a text search (docs/search.md, "Typos"): when the exact levels leave the list of
/// results short, the query again with its typos forgiven, at the fuzzy level. Each term may
/// be within its edits (`FuzzyWord`) of a word of a name, or start or be within its edits of a
/// whole one-word category phrase of the spot's kind ("muse", "resturant", "muzeum"); category
/// phrases the parser found count as in the exact levels. A spot matches when one of its names
/// (or its kind) meets every part, and ranks by the edits it took, fewest first.
///
/// The part whose tokens within reach and kinds list the fewest spots gathers the candidates;
/// each other part gives the set of spots it lists, which a candidate must be in before its
/// names are read (`TypoCandidates`).
struct TypoStage: CandidateSource {
    /// The parts of the query: its category phrases, then its terms.
    let parts: [FuzzyPart]
    /// The query's terms, the last parts.
    let terms: [String]

    /// The stage for `query`, parsed by `parser`, over `index`; nil when no term forgives a typo.
    init?(query: ParsedQuery, parser: QueryParser, index: SpotIndexReader) {
        let kinds = index.kinds
        var parts = query.phrases.map { phrase in
            FuzzyPart(
                words: phrase.words.map { FuzzyWord($0, isLast: false, forgiving: false) },
                kinds: Dictionary(
                    uniqueKeysWithValues: kinds.indices.filter { phrase.targets.names(kinds[$0]) }.map { ($0, 0) }),
                targets: Dictionary(uniqueKeysWithValues: phrase.targets.names.map { ($0, 0) }), index: index)
        }
        for (position, term) in query.termTexts.enumerated() {
            let word = FuzzyWord(term, isLast: query.endsWithTerm && position == query.terms.count - 1)
            var kindEdits: [Int: Int] = [:]
            var targetEdits: [String: Int] = [:]
            if word.maxEdits > 0 {
                // A category word is met whole: a typo in its first letters with the rest unsaid
                // ("poste" for "hoste…") names too many kinds to be meant. One whose length
                // differs from the term's by more than its edits is out of reach unless the term
                // starts it.
                let whole = FuzzyWord(term, isLast: false)
                let bytes = Array(term.utf8)
                for phrase in parser.oneWordPhrases
                where abs(phrase.scalars.count - word.scalars.count) <= word.maxEdits
                    || phrase.utf8.starts(with: bytes)
                {
                    guard let edits = whole.edits(toScalars: phrase.scalars) else { continue }
                    for kind in kinds.indices where phrase.targets.names(kinds[kind]) {
                        kindEdits[kind] = min(kindEdits[kind] ?? edits, edits)
                    }
                    for name in phrase.targets.names { targetEdits[name] = min(targetEdits[name] ?? edits, edits) }
                }
            }
            parts.append(
                FuzzyPart(
                    words: [word], kinds: kindEdits, targets: targetEdits,
                    mayBeHouseNumber: query.terms[position].mayBeHouseNumber, index: index))
        }
        guard parts.contains(where: \.forgives) else { return nil }
        self.parts = parts
        terms = query.termTexts
    }

    /// The candidates: the runs of the part that lists the fewest spots, grouped by the best key
    /// each gives (with one part, the key itself), checked against the sets of spots some other
    /// parts list (`TypoCheck`).
    ///
    /// Reading a spot's names costs about as much as reading ten postings, so a part that lists
    /// more than ten times as many spots as the one that gathers is checked on the names alone,
    /// its postings unread. Each token has a posting, so parts are read in the order of the
    /// tokens they reach, and those that reach too many are not read.
    func runs(in index: SpotIndexReader) throws -> [CandidateRun] {
        let tokens = try parts.map { try $0.tokenMatches(in: index, alone: parts.count == 1) }
        let tokenCounts = tokens.map { $0.reduce(0) { $0 + $1.tokens.count } }
        var sources: [Int: FuzzySources] = [:]
        var fewest = Int.max
        for part in parts.indices.sorted(by: { tokenCounts[$0] < tokenCounts[$1] }) {
            guard fewest == .max || tokenCounts[part] <= 10 * fewest else { break }
            sources[part] = try parts[part].sources(of: tokens[part], in: index)
            if !parts[part].mayBeHouseNumber { fewest = min(fewest, sources[part]!.count) }
        }
        // A house number meets a number part unlisted, so such a part never gathers, unless every
        // part is one (then the typo is in none: the stage forgives nothing there).
        let gathering = parts.indices.filter { !parts[$0].mayBeHouseNumber }
        if let first = gathering.min(by: { tokenCounts[$0] < tokenCounts[$1] }), fewest == .max {
            sources[first] = try parts[first].sources(of: tokens[first], in: index)
        }
        let driver = sources.filter { gathering.isEmpty || !parts[$0.key].mayBeHouseNumber }
            .min { ($0.value.count, $0.key) < ($1.value.count, $1.key) }!
        var lists: [FuzzySources.Origin: [RankList]] = [:]
        for source in driver.value.lists { lists[source.origin, default: []].append(source.list) }
        // Another part lists a spot by its kind (a flag per kind) or by its names' postings, a
        // number part also by the spot's house number.
        let firstTerm = parts.count - terms.count
        let others = sources.filter { $0.key != driver.key && $0.value.nameCount <= 10 * driver.value.count }.map {
            other in
            TypoCandidates.Part(
                kinds: index.kinds.indices.map { parts[other.key].kinds[$0] != nil }, listed: parts[other.key].listed,
                names: Lazy { try other.value.nameSpots(in: index) },
                houseNumberTerm: parts[other.key].mayBeHouseNumber ? other.key - firstTerm : nil)
        }
        let candidates = TypoCandidates(otherParts: others, terms: terms, index: index)
        // With one part, a run's bound is its spots' key but for their quality when they come
        // from a kind's list: their names were read first where they do better (a name's run
        // whose bound is below), and no better where they do as well.
        let runs = lists.map { origin, lists in
            let check: any CandidateCheck
            if parts.count > 1 {
                check = TypoCheck(stage: self, candidates: candidates)
            } else if origin.isKind {
                check = KindCheck()
            } else {
                check = BoundCheck()
            }
            return CandidateRun(bound: origin.bound, lists: lists, check: check)
        }
        return runs.sorted { $0.bound < $1.bound }
    }

    /// How spot `spot`, with `text` and of kind number `kind`, meets the query with typos
    /// forgiven: the fewest edits, then the best field, and the name key or address part that
    /// gives them (nil when its kind or lists meet every part); nil when it does not. One name
    /// (or the kind) meets every part, or, at the address field, the names and the address
    /// together as at the address level (`AddressMatch`), read only when that can take fewer
    /// edits.
    func match(_ text: CandidateText, kind: Int, spot: Int) throws -> (edits: Int, field: NameField, key: String?)? {
        let byKind = try parts.map { part in
            [part.kinds[kind], try part.listed.value()[spot]].compactMap { $0 }.min()
        }
        var best: (edits: Int, field: NameField, key: String?)?
        if byKind.allSatisfy({ $0 != nil }) { best = (byKind.reduce(0) { $0 + $1! }, .primary, nil) }
        let nameTokens = text.names.map { SearchText.tokens(ofName: $0.name).map(\.token) }
        // The edits with which each name meets each part, worked out once, when first needed (a
        // name stops being read at the first part it misses): -1 for none, -2 not yet known.
        var known = [Int](repeating: -2, count: nameTokens.count * parts.count)
        func edits(ofName name: Int, part: Int) -> Int? {
            let slot = name * parts.count + part
            if known[slot] == -2 { known[slot] = parts[part].edits(ofNameTokens: nameTokens[name]) ?? -1 }
            return known[slot] >= 0 ? known[slot] : nil
        }
        for (name, (key, _)) in text.names.enumerated() {
            var total = 0
            for part in parts.indices {
                guard let partEdits = [edits(ofName: name, part: part), byKind[part]].compactMap({ $0 }).min() else {
                    total = -1
                    break
                }
                total += partEdits
            }
            guard total >= 0 else { continue }
            let field = NameField(ofKey: key)
            if best.map({ (total, field) < ($0.edits, $0.field) }) ?? true { best = (total, field, key) }
        }
        // The address field ranks last: it takes fewer edits or nothing.
        if best.map({ $0.edits > 0 }) ?? true,
            let address = addressMatch(
                address: try text.address(), byKind: byKind,
                byNames: { part in nameTokens.indices.compactMap { edits(ofName: $0, part: part) }.min() }),
            best.map({ address.edits < $0.edits }) ?? true
        {
            best = (address.edits, .address, address.key)
        }
        return best
    }
}

extension TypoStage {
    /// How the names and `address` together meet the parts with typos forgiven, at least one by
    /// a word of the address, as at the address level (a phrase met by the kind, or by the words
    /// of the names or address; a term also by a house number): the fewest edits and the address
    /// part that met a part, or nil. `byKind` holds the edits with which the spot's kind or
    /// lists meet each part, `byNames` gives the fewest with which some name meets a part (asked
    /// only once the address meets some part).
    private func addressMatch(address: SearchAddress, byKind: [Int?], byNames: (Int) -> Int?) -> (
        edits: Int, key: String
    )? {
        let byAddress = parts.map { part -> (edits: Int, key: String)? in
            var best: (edits: Int, key: String)?
            for (key, words) in address.parts {
                guard let edits = part.edits(ofNameTokens: words) else { continue }
                if best.map({ edits < $0.edits }) ?? true { best = (edits, key) }
            }
            return best
        }
        guard byAddress.contains(where: { $0 != nil }) else { return nil }
        let numbers = AddressMatch.houseNumberWords(terms, among: address.houseNumbers)
        let firstTerm = parts.count - terms.count
        var total = 0
        // The fewest edits more than its best with which an address word meets a part, and where.
        var cheapest: (extra: Int, key: String)?
        for (part, address) in byAddress.enumerated() {
            let byNumber: Int? = numbers.contains(part - firstTerm) ? 0 : nil
            let otherwise = [byNames(part), byKind[part], byNumber].compactMap { $0 }.min()
            guard let partEdits = [otherwise, address?.edits].compactMap({ $0 }).min() else { return nil }
            total += partEdits
            if let address, cheapest.map({ address.edits - partEdits < $0.extra }) ?? true {
                cheapest = (address.edits - partEdits, address.key)
            }
        }
        return cheapest.map { (total + $0.extra, $0.key) }
    }
}

/// One part of a query in the typo stage: a term, or a category phrase; met by a name that
/// holds its words (each within its edits of a word of the name), by a kind it names, or by the
/// list of other spots of a category or value it names (`PhraseTargets.wordLists`).
struct FuzzyPart {
    /// The words a name must hold.
    let words: [FuzzyWord]
    /// The kind numbers whose spots meet the part by their kind, with the edits that takes.
    let kinds: [Int: Int]
    /// The categories and values (`PhraseTargets.names`) whose other spots (their word lists)
    /// meet the part, with the edits that takes.
    let targets: [String: Int]
    /// The spots of those lists, with the fewest edits that meet the part, read on first use.
    let listed: Lazy<[Int: Int]>
    /// Whether the part is a term that may be a house number (`QueryTerm.mayBeHouseNumber`), which
    /// no postings list.
    let mayBeHouseNumber: Bool

    /// The part of `words`, met by `kinds` and by the word lists of `targets` in `index`.
    init(
        words: [FuzzyWord], kinds: [Int: Int], targets: [String: Int], mayBeHouseNumber: Bool = false,
        index: SpotIndexReader
    ) {
        self.words = words
        self.kinds = kinds
        self.targets = targets
        self.mayBeHouseNumber = mayBeHouseNumber
        listed = Lazy {
            var edits: [Int: Int] = [:]
            for (target, targetEdits) in targets {
                guard let list = try index.wordList(of: target) else { continue }
                for spot in try index.spots(in: list) { edits[spot] = min(edits[spot] ?? targetEdits, targetEdits) }
            }
            return edits
        }
    }

    /// Whether the part forgives any typo.
    var forgives: Bool {
        words.contains { $0.maxEdits > 0 } || kinds.values.contains { $0 > 0 } || targets.values.contains { $0 > 0 }
    }

    /// The edits with which the tokens of one name meet the part's words, or nil.
    func edits(ofNameTokens tokens: [String]) -> Int? {
        var total = 0
        for word in words {
            guard let edits = tokens.lazy.compactMap({ word.edits(to: $0) }).min() else { return nil }
            total += edits
        }
        return total
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
            for group in try index.postingGroups(ofTokens: match.tokens).joined() {
                sources.add(group.ranks, edits: match.edits, key: group.key)
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

    /// Adds the postings of a token reached with `edits` whose group key is `key`.
    mutating func add(_ list: RankList, edits: Int, key: PostingGroup.Key) {
        add(
            list,
            Origin(bound: KeyBound(level: .fuzzy, edits: edits, field: key.field, score: key.score), isKind: false))
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
        if !origin.isKind { nameCount += list.remaining }
    }

    /// The spots the names' postings hold, as a set.
    func nameSpots(in index: SpotIndexReader) throws -> SpotSet {
        let spots = try lists.filter { !$0.origin.isKind }.flatMap { try index.spots(in: $0.list) }
        return SpotSet(spots, estimatedCount: nameCount, count: index.count)
    }
}

/// What some parts of a query in the typo stage list, but the one that gave the runs: a
/// candidate must be listed by all of them to be checked.
struct TypoCandidates {
    /// What a part lists: the spots of some kinds, those of its targets' word lists, and the
    /// spots its names' postings hold; for a number part, also those whose house number meets it.
    struct Part {
        /// One flag per kind number.
        let kinds: [Bool]
        let listed: Lazy<[Int: Int]>
        let names: Lazy<SpotSet>
        /// The term's position in the query's terms, for a part that may be a house number.
        let houseNumberTerm: Int?
    }

    let otherParts: [Part]
    /// The query's terms.
    let terms: [String]
    let index: SpotIndexReader

    /// Whether `spot`, of kind number `kind`, is listed by every other part.
    func mayMatch(_ spot: Int, kind: Int) throws -> Bool {
        try otherParts.allSatisfy { part in
            if try part.kinds[kind] || part.listed.value()[spot] != nil || part.names.value().contains(spot) {
                return true
            }
            guard let term = part.houseNumberTerm else { return false }
            return try AddressMatch.houseNumberTerms(terms, ofSpot: spot, in: index).contains(term)
        }
    }
}
