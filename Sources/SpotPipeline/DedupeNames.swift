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

    /// What `candidate` is compared by: its `name` as a key (`NameKey`; nil when it has none),
    /// and the word sets of its names: its own (`name`, every `name:xx`), and every comparable
    /// one, which adds `otherNameKeys` and the brand. No sets for a spot without a name or
    /// `name:xx`: a brand alone names every branch, and two unnamed Shell stations across a
    /// road are two stations.
    func compared(_ candidate: SpotCandidate) -> (exactKey: String?, wordSets: WordSets) {
        let spot = candidate.spot
        let generic = genericWords(category: spot.category, tag: spot.tag)
        let name = spot.name.flatMap { Self.keys(of: $0, removing: generic) }
        var own = Set(spot.names.values.compactMap { Self.keys(of: $0, removing: generic)?.wordSet })
        if let name { own.insert(name.wordSet) }
        guard !own.isEmpty else { return (name?.exact, WordSets()) }
        let others =
            (Self.otherNameKeys.compactMap { spot.otherNames[$0] } + [candidate.context["brand"]].compactMap { $0 })
            .compactMap { Self.keys(of: $0, removing: generic)?.wordSet }
        return (name?.exact, WordSets(own: own, all: own.union(others)))
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

/// The word sets of a spot's names (`DedupeNames.wordSets(of:)`), or of a place's spots.
struct WordSets: Sendable {
    /// The sets of its own names, `name` and `name:xx`.
    private(set) var own: Set<String> = []
    /// The sets of all its comparable names, own ones included.
    private(set) var all: Set<String> = []

    /// Whether no name gives a set.
    var isEmpty: Bool { all.isEmpty }

    /// Whether the two name one place: an own name of either gives a set that some name of the
    /// other gives. Other names meet only own names, never each other, since they are often
    /// labels that every branch carries: the brand, or an `alt_name` such as "kaupunkipyörä"
    /// (city bike) on each of a city's bike stations.
    func meet(_ other: WordSets) -> Bool { !own.isDisjoint(with: other.all) || !other.own.isDisjoint(with: all) }

    /// Adds `other`'s sets, as a place takes its members'.
    mutating func formUnion(_ other: WordSets) {
        own.formUnion(other.own)
        all.formUnion(other.all)
    }
}
