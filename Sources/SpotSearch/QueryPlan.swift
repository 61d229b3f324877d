import SpotIndex

/// The plan stage of a text search: which sources gather the candidates of the exact levels
/// (`CandidateSource`) and which terms every candidate is checked against (`CandidateFilter`),
/// decided on how many tokens each term starts.
///
/// - Candidates come from the postings of the query's first word, grouped by the level the
///   token's place in a name gives; when that word begins a category phrase and terms follow,
///   also from the postings of the first term that may not be a house number (else of every
///   term), as category or address matches; and for a query of phrases alone, from the lists
///   of the first phrase's kinds and targets.
/// - Unless a term is much rarer than the first word (`leadTerms`): then its postings alone
///   gather, the text deciding each spot's level; so do every term's when each may be a house
///   number.
/// - Or, in a query of terms and phrases, a phrase whose spots (its kinds,
///   its targets' lists, the postings of its rarest word: `PhraseSpots`) number a quarter of
///   the postings those sources hold or fewer: its spots alone gather, the text deciding.
/// - Every other term that may not be a house number is checked on each candidate, the rarest
///   first (`checkedTerms`); house numbers are checked apart (`HouseNumberCheck`).
/// - In a query of phrases alone, every candidate meets each phrase (by kind, list or text), so
///   when a later phrase's spots number a quarter of the runs' postings or fewer, the runs keep
///   only those ("hotel kämp", a name of two category words: the spots of "kämp", not every
///   hotel). The runs, their bounds and checks are the same; the spots they drop would fail the
///   filter.
struct QueryPlan {
    /// The tokens each term starts, by the term's position in the query's terms.
    let termTokens: [Range<Int>]
    /// The terms whose postings alone gather the candidates, if any do.
    let leadTerms: [Int]
    /// The terms, not house numbers, that did not gather: a candidate must hold a token of each.
    /// The rarest first, so that a spot is turned away by the smallest set.
    let checkedTerms: [Int]
    /// Where the exact levels' candidates come from.
    let sources: [any CandidateSource]
    /// Whether some term that is not a house number starts no token: then no spot's names hold
    /// the query, and only typos forgiven can answer it.
    let someTermStartsNoToken: Bool
    /// The phrases that may gather instead of `sources` (`PhraseSpots`): those of a query with
    /// terms.
    let phrases: [PhraseSpots]
    /// The phrases after the first of a query of phrases alone, whose spots (`PhraseSpots`)
    /// every candidate is among.
    let laterPhrases: [PhraseSpots]

    /// The plan of `query` over `index`.
    init(_ query: ParsedQuery, in index: SpotIndexReader) throws {
        let termTokens = try query.terms.map { try index.tokens(withPrefix: Array($0.text.utf8)) }
        self.termTokens = termTokens
        let wordTerms = query.terms.indices.filter { !query.terms[$0].mayBeHouseNumber }
        someTermStartsNoToken = wordTerms.contains { termTokens[$0].isEmpty }
        let firstWordTokens = try query.words.first.map { try index.tokens(withPrefix: Array($0.utf8)).count } ?? 0
        let leadTerms = Self.leadTerms(
            of: query, among: wordTerms, tokenCounts: termTokens.map(\.count), firstWordTokens: firstWordTokens)
        self.leadTerms = leadTerms
        // The first word gathers unless a term leads or a phrase starts the query (then it is no
        // term).
        let gathering = !leadTerms.isEmpty ? leadTerms : query.startsWithPhrase ? [] : [0]
        checkedTerms = wordTerms.filter { !gathering.contains($0) }.sorted {
            termTokens[$0].count < termTokens[$1].count
        }
        sources = Self.sources(of: query, wordTerms: wordTerms, leadTerms: leadTerms)
        phrases = query.terms.isEmpty ? [] : query.phrases.map(PhraseSpots.init)
        laterPhrases = query.terms.isEmpty ? query.phrases.dropFirst().map(PhraseSpots.init) : []
    }

    /// The sources of `query`'s candidates, `leadTerms` gathering if any.
    private static func sources(of query: ParsedQuery, wordTerms: [Int], leadTerms: [Int]) -> [any CandidateSource] {
        guard let first = query.words.first else { return [] }
        if !leadTerms.isEmpty {
            // Where other terms' tokens stand says nothing of the level: the text decides.
            return [WordPostings(words: leadTerms.map { query.terms[$0].text }, levels: .fixed(.exact))]
        }
        var sources: [any CandidateSource] = [
            WordPostings(
                words: [first], levels: .byPlace(wordCount: query.words.count, namesOnly: query.startsWithPhrase))
        ]
        if query.startsWithPhrase {
            // An address match has a word its address holds, but which one is not known: with
            // house numbers alone, every term gathers.
            let terms = wordTerms.first.map { [query.terms[$0].text] } ?? query.termTexts
            sources.append(WordPostings(words: terms, levels: .fixed(.category)))
        }
        if query.terms.isEmpty, let phrase = query.phrases.first { sources.append(KindLists(targets: phrase.targets)) }
        return sources
    }

    /// The terms whose postings alone gather the candidates: of the `wordTerms`, a later one
    /// that starts a quarter as many tokens as the first or fewer ("la oagtal": "la" starts
    /// thousands of words), as a rule the rarer, and none when that is the first word; when
    /// every term may be a house number, all of them (an address match has a word its address
    /// holds, which one not known). In a query that starts with a category phrase, the term that
    /// starts the fewest tokens when that is a quarter as many as the phrase's first word starts
    /// or fewer ("bar metgen": "bar" starts hundreds), else none. None for a query of one word.
    /// `tokenCounts` holds how many tokens each term starts, `firstWordTokens` how many the
    /// query's first word starts.
    static func leadTerms(
        of query: ParsedQuery, among wordTerms: [Int], tokenCounts counts: [Int], firstWordTokens: Int
    ) -> [Int] {
        guard query.words.count > 1 else { return [] }
        guard let first = wordTerms.first else { return query.startsWithPhrase ? [] : Array(query.terms.indices) }
        let fewest = wordTerms.min { counts[$0] < counts[$1] }!
        if query.startsWithPhrase { return counts[fewest] * 4 <= firstWordTokens ? [fewest] : [] }
        let lead = counts[fewest] * 4 <= counts[first] ? fewest : first
        return lead == 0 ? [] : [lead]
    }

    /// The candidates' runs, best bound first.
    func runs(in index: SpotIndexReader) throws -> [CandidateRun] {
        let runs = try sources.flatMap { try $0.runs(in: index) }
        let postings = Self.postings(in: runs)
        let rarest = try phrases.map { try $0.runs(in: index) }.min { Self.postings(in: $0) < Self.postings(in: $1) }
        if let rarest, Self.postings(in: rarest) * 4 <= postings { return rarest }
        let narrowest = try laterPhrases.map { try $0.runs(in: index) }.min {
            Self.postings(in: $0) < Self.postings(in: $1)
        }
        if let narrowest, Self.postings(in: narrowest) * 4 <= postings {
            // Ranks, like spot numbers, are numbers below the index's count.
            let ranks = try narrowest.flatMap { try $0.lists.flatMap { try $0.remainingRanks() } }
            let listed = SpotSet(ranks, estimatedCount: ranks.count, count: index.count)
            return try runs.map { try $0.keeping(listed) }.sorted { $0.bound < $1.bound }
        }
        return runs.sorted { $0.bound < $1.bound }
    }

    /// How many postings (spots, repeats counted) `runs` hold.
    static func postings(in runs: [CandidateRun]) -> Int {
        runs.reduce(0) { $0 + $1.lists.reduce(0) { $0 + $1.remaining } }
    }
}
