import SpotText
import Spots

/// What deduplication compares of a spot's names (docs/build.md, "Deduplication"): its `name` as a
/// key, and each of its comparable names as a set of meaningful words (`compared`).
///
/// A word set is the name's folded words (`SearchText`) with "&" and the word for "and" in the
/// search words' languages as one word, and the generic words of the spot's category and
/// selecting tag removed: the single-word phrases that name them in any language ("cafe",
/// "kahvila", "kaffeehaus" for `amenity=cafe`), unless nothing else would be left. Word order
/// and repeats do not count, so "Blue Door Cafe", "blue door" and "Door Blue" are one set,
/// while "Cafe" and "Kahvila" stay two.
struct DedupeNames: Sendable {
    /// The word that "&" and every `AndWords.words` entry become.
    static let and = "&"
    /// The other tags a spot is compared by, kept by the reader as context: a brand is a name,
    /// and two different Wikidata items are two places.
    static let contextKeys: Set<String> = ["brand", "brand:wikidata"]
    /// The name keys besides `name` and `name:xx` whose values are compared.
    static let otherNameKeys = ["alt_name", "official_name", "short_name"]

    /// The search words, whose single-word phrases are the generic words.
    private let words: SearchWords

    /// Generic words from `words`: its single-word phrases, by what they name.
    init(words: SearchWords) {
        self.words = words
    }

    /// The generic words of spots with `category` and selecting tag `tag`.
    func genericWords(category: Category?, tag: String) -> GenericWords {
        GenericWords(words: words, category: category, tag: tag)
    }

    /// What `candidate` is compared by: its `name` as a key (`NameKey`; nil when it has none),
    /// and the word sets of its names: its own (`name`, every `name:xx`), and every comparable
    /// one, which adds `otherNameKeys` and the brand. No sets for a spot without a name or
    /// `name:xx`: a brand alone names every branch, and two unnamed Shell stations across a
    /// road are two stations. `fold` folds a name (a build folds each distinct name once).
    func compared(_ candidate: SpotCandidate, folding fold: (String) -> FoldedName? = FoldedName.init)
        -> (exactKey: String?, wordSets: WordSets)
    {
        let spot = candidate.spot
        let generic = genericWords(category: spot.category, tag: spot.tag)
        let name = spot.name.flatMap(fold)
        let own = ([name] + spot.names.values.map(fold)).compactMap { $0?.wordSet(removing: generic) }
        guard !own.isEmpty else { return (name?.key, WordSets()) }
        let others =
            (Self.otherNameKeys.compactMap { spot.otherNames[$0] } + [candidate.context["brand"]].compactMap { $0 })
            .compactMap { fold($0)?.wordSet(removing: generic) }
        return (name?.key, WordSets(own: own, others: others))
    }
}

/// A name folded for comparing (`SearchText`), once for all the spots that carry it.
struct FoldedName {
    /// The name as a key (`NameKey`): its folded words run together.
    let key: String
    /// Its folded words, "&" for each word of `AndWords.words`, and "&" once more if the
    /// name as written has one.
    let words: [String]

    /// `name` folded; nil for a name without words.
    init?(_ name: String) {
        let folded = SearchText.words(name)
        guard !folded.isEmpty else { return nil }
        key = folded.joined()
        var words = folded.map { AndWords.words.contains($0) ? DedupeNames.and : $0 }
        // "&" splits words when folded, so it is looked for in the name as written.
        if name.unicodeScalars.contains(where: AndWords.ampersands.contains) { words.append(DedupeNames.and) }
        self.words = words
    }

    /// The name's word set without the words of `generic` (with all when only generic words and
    /// "and" would be left): its words sorted, each once, joined by spaces.
    func wordSet(removing generic: GenericWords) -> String {
        let meaningful = words.filter { !generic.contains($0) }
        let kept = meaningful.contains { $0 != DedupeNames.and } ? meaningful : words
        return sortedDistinct(kept).joined(separator: " ")
    }
}

/// `words` sorted, each once.
private func sortedDistinct(_ words: [String]) -> [String] {
    var distinct: [String] = []
    for word in words.sorted() where word != distinct.last { distinct.append(word) }
    return distinct
}

/// The generic words of one kind of spot: the single-word phrases of the search words that name
/// its category or its selecting tag. Looked up in the phrases' dictionaries, which a word (it
/// holds no space) finds only among single-word phrases, so nothing is gathered per build.
struct GenericWords: Sendable {
    fileprivate let words: SearchWords
    fileprivate let category: Category?
    fileprivate let tag: String

    /// Whether `word` (folded) is generic.
    func contains(_ word: String) -> Bool {
        if let category, words.categories[word]?.contains(category) == true { return true }
        return words.values[word]?.contains(tag) == true
    }
}

/// The word sets of a spot's names (`DedupeNames.compared`), or of a place's spots: each set a
/// string (`DedupeNames.keys`), kept sorted and distinct. A spot has few.
struct WordSets: Sendable {
    /// The sets of its own names, `name` and `name:xx`.
    private(set) var own: [String] = []
    /// The sets of all its comparable names, own ones included.
    private(set) var all: [String] = []

    /// No sets.
    init() {}

    /// The sets of own names `own` and of other names `others`.
    init(own: [String], others: [String]) {
        self.own = sortedDistinct(own)
        all = sortedDistinct(own + others)
    }

    /// Whether no name gives a set.
    var isEmpty: Bool { all.isEmpty }

    /// Whether the two name one place: an own name of either gives a set that some name of the
    /// other gives. Other names meet only own names, never each other, since they are often
    /// labels that every branch carries: the brand, or an `alt_name` such as "kaupunkipyörä"
    /// (city bike) on each of a city's bike stations.
    func meet(_ other: WordSets) -> Bool {
        own.contains(where: other.all.contains) || other.own.contains(where: all.contains)
    }

    /// Adds `other`'s sets, as a place takes its members'.
    mutating func formUnion(_ other: WordSets) {
        own = sortedDistinct(own + other.own)
        all = sortedDistinct(all + other.all)
    }
}
