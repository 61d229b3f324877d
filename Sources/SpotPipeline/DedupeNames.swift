import SpotWords
import Spots

/// What deduplication compares of a spot's names (README.md, "Deduplication"): the name as it
/// is written (`exactKey`) and each of its comparable names as a set of meaningful words
/// (`wordSets`).
///
/// A word set is the name's folded words (`SearchText`) with "&" and the word for "and" in the
/// search words' 20 languages as one word, and the generic words of the spot's own category
/// removed: the single-word phrases that name its category or its OSM value in any language
/// ("cafe", "kahvila", "kaffeehaus" for `amenity=cafe`), unless nothing else would be left.
/// Word order and repeats do not count, so "Blue Door Cafe", "blue door" and "Door Blue" are
/// one set, while "Cafe" and "Kahvila" stay two.
struct DedupeNames: Sendable {
    /// The word that "&" and every `andWords` entry become.
    static let and = "&"
    /// "and" in the languages of the search words (Pipelines/value-words.json), folded: en and,
    /// de und, fr et, es y/e, it e/ed, pt e, nl en, pl i/oraz, cs a/i, sv och, nb/da og, fi ja,
    /// ru и, uk і/й/та, tr ve, ar و, zh 和/与, ja と, ko 및/와/과.
    static let andWords: Set<String> = [
        "and", "und", "et", "y", "e", "ed", "en", "i", "oraz", "a", "och", "og", "ja", "и", "і", "й", "та", "ve",
        "و", "和", "与", "と", "및", "와", "과",
    ]
    /// The other tags a spot is compared by, kept by the reader as context: a brand is a name,
    /// and two different Wikidata items are two places.
    static let contextKeys: Set<String> = ["brand", "brand:wikidata"]
    /// The name keys besides `name` and `name:xx` whose values are compared.
    static let otherNameKeys = ["alt_name", "official_name", "short_name"]

    /// The folded single words that name each category (by its raw value) or OSM value
    /// (`amenity=cafe`).
    private let genericWords: [String: Set<String>]

    /// Generic words from `words`: its single-word phrases, by what they name.
    init(words: SearchWords) {
        var generic: [String: Set<String>] = [:]
        for (phrase, categories) in words.categories where !phrase.contains(" ") {
            for category in categories { generic[category.rawValue, default: []].insert(phrase) }
        }
        for (phrase, values) in words.values where !phrase.contains(" ") {
            for value in values { generic[value, default: []].insert(phrase) }
        }
        genericWords = generic
    }

    /// The generic words of spots with `category` and selecting tag `tag`.
    func genericWords(category: Category?, tag: String) -> Set<String> {
        (category.flatMap { genericWords[$0.rawValue] } ?? []).union(genericWords[tag] ?? [])
    }

    /// The names `candidate` is compared by: `name`, every `name:xx`, `otherNameKeys`, and the
    /// brand beside them, distinct. None for a spot without a name of its own: a brand alone
    /// names every branch, and two unnamed Shell stations across a road are two stations.
    static func comparableNames(of candidate: SpotCandidate) -> [String] {
        let spot = candidate.spot
        let own =
            [spot.name].compactMap { $0 } + spot.names.values.sorted()
            + otherNameKeys.compactMap { spot.otherNames[$0] }
        guard !own.isEmpty else { return [] }
        var seen = Set<String>()
        return (own + [candidate.context["brand"]].compactMap { $0 }).filter { seen.insert($0).inserted }
    }

    /// The words of `name` as a key (`NameKey`) and as a word set without the words of
    /// `generic` (all of them when only generic words and "and" would be left): the set's words
    /// sorted and joined by spaces. Nil for a name without words.
    static func keys(of name: String, removing generic: Set<String>) -> (exact: String, wordSet: String)? {
        let folded = SearchText.words(name)
        guard !folded.isEmpty else { return nil }
        // "&" splits words when folded, so it is looked for in the name as written.
        var words = Set(folded.map { andWords.contains($0) ? and : $0 })
        if name.unicodeScalars.contains(where: { ampersands.contains($0) }) { words.insert(and) }
        let meaningful = words.subtracting(generic)
        let kept = meaningful.subtracting([and]).isEmpty ? words : meaningful
        return (folded.joined(), kept.sorted().joined(separator: " "))
    }

    /// "&" and its full-width and small forms, which NFKC folds to it.
    private static let ampersands: Set<Unicode.Scalar> = ["&", "\u{FF06}", "\u{FE60}"]
}
