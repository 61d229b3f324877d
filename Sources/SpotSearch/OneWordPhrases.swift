import SpotIndex

/// The category phrases of one word (`QueryParser`), kept so that the phrases a misspelt term
/// may mean are found without working out the edits of each (which cost more than the rest of
/// a typo search): the phrases are kept as a trie (`ScalarTrie`), made once, that a word walks
/// as it walks the tokens (`FuzzyWord.matches(in:)`).
struct OneWordPhrases {
    /// A phrase of one word: its folded word's scalars and what it names.
    struct Phrase {
        let scalars: [UInt32]
        let targets: PhraseTargets
    }

    /// The phrases, sorted by their scalars.
    let sorted: [Phrase]
    /// The trie of `sorted`, item *n* phrase *n*.
    private let trie: ScalarTrie

    /// The phrases `phrases`, in any order.
    init(_ phrases: [Phrase]) {
        sorted = phrases.sorted { $0.scalars.lexicographicallyPrecedes($1.scalars) }
        var builder = ScalarTrie.Builder()
        for phrase in sorted {
            // Category phrases are far fewer than a trie's 2³² − 1 nodes.
            let added = builder.append(phrase.scalars)
            precondition(added, "too many category phrases")
        }
        trie = builder.build()
    }

    /// The phrases that `word` is within its edits of (`word.edits(toScalars:)` of each phrase,
    /// for the phrases where it is not nil), with the edits.
    func matches(of word: FuzzyWord) -> [(phrase: Phrase, edits: Int)] {
        word.matches(in: trie).flatMap { match in sorted[match.tokens].map { ($0, match.edits) } }
    }
}
