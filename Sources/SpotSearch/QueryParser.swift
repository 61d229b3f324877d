import SpotIndex
import SpotWords
import Spots

/// What a phrase of a query names: categories (every spot of each) and OSM values (the spots
/// of each, whatever their category). A spot is of them by its kind, or by the build's lists of
/// the spots that meet a category or value otherwise (an attribute holding the value, a
/// compound name word: `SpotIndexReader.wordList(of:)`).
struct PhraseTargets {
    /// The categories named.
    var categories: Set<Category> = []
    /// The values named, as `key=value`.
    var values: Set<String> = []
    /// The categories' names and the values, sorted: the targets of `SpotIndexReader.wordList(of:)`.
    var names: [String] { (categories.map(\.rawValue) + values).sorted() }

    /// The spots that meet the targets otherwise than by their kind, one list per target.
    func wordLists(in index: SpotIndexReader) throws -> [RankList] {
        try names.compactMap { try index.wordList(of: $0) }
    }

    /// The spots of `wordLists`, as a set.
    func listedSpots(in index: SpotIndexReader) throws -> SpotSet {
        let spots = try wordLists(in: index).flatMap { try index.spots(in: $0) }
        return SpotSet(spots, estimatedCount: spots.count, count: index.count)
    }

    /// Whether a spot selected by `key`=`value`, of `category`, is of what the phrase names.
    func names(key: String, value: String, category: Category?) -> Bool {
        category.map(categories.contains) ?? false || values.contains(key + "=" + value)
    }

    /// Whether the spots of `kind` are of what the phrase names.
    func names(_ kind: SelectingTag) -> Bool { names(key: kind.key, value: kind.value, category: kind.category) }
}

/// A query cut into category phrases and the words left to match names.
struct ParsedQuery {
    /// Every folded word, in order: what a name that matches the whole query holds.
    var words: [String] = []
    /// Phrases that name categories or values, with their folded words and where those stand
    /// in `words`.
    var phrases: [(targets: PhraseTargets, words: [String], range: Range<Int>)] = []
    /// The other words.
    var terms: [String] = []
    /// Whether the first word belongs to a category phrase.
    var startsWithPhrase = false
    /// Whether the last word is a term: then it may be unfinished (`FuzzyWord.isPrefix`).
    var endsWithTerm = false
    /// The terms (positions in `terms`) that may be house numbers or part of one: each that
    /// starts with a digit, the letters that may join one ("22 a", `SearchAddress`), and each
    /// of one or two letters ("S/N", "km 22"). A house number meets them, and the text index
    /// does not list house numbers, so they do not gather candidates nor turn one away before
    /// its text is read (`AddressMatch`).
    var numberTerms: Set<Int> = []

    /// The terms that gather and filter candidates: those not in `numberTerms`.
    var wordTerms: [Int] { terms.indices.filter { !numberTerms.contains($0) } }
    /// The words but those of the phrases flagged in `leftOut` (one flag per phrase), in order.
    func words(leavingOut leftOut: [Bool]) -> [String] {
        let ranges = zip(phrases, leftOut).filter(\.1).map(\.0.range)
        return words.indices.filter { position in !ranges.contains { $0.contains(position) } }.map { words[$0] }
    }

    /// The terms whose postings gather candidates when a category phrase starts the query: the
    /// first of `wordTerms`, else every term (an address match has a word met by the address,
    /// which its postings list, but which one is not known).
    var gatheringTerms: [String] { wordTerms.first.map { [terms[$0]] } ?? terms }
}

/// The first stage of a search: folds the query's words (`SearchText`) and finds among them the
/// phrases that name categories or values (`SearchWords`), longest first.
struct QueryParser {
    /// Folded query phrases (one to three words) and what they name.
    let phrases: [String: PhraseTargets]
    /// The most words a phrase has.
    let longestPhrase: Int
    /// The phrases of one word, with their UTF-8 bytes and Unicode scalars: what a misspelt
    /// term may mean (`TypoStage`).
    let oneWordPhrases: [(utf8: [UInt8], scalars: [UInt32], targets: PhraseTargets)]

    /// A parser of the phrases of `words`.
    init(words: SearchWords) {
        var phrases: [String: PhraseTargets] = [:]
        for (phrase, categories) in words.categories {
            phrases[phrase, default: .init()].categories.formUnion(categories)
        }
        // A phrase that names values names them alone: "car wash" and "fast food" are words of
        // their categories too, but a person typing them asks for that kind of place only.
        for (phrase, values) in words.values {
            phrases[phrase] = PhraseTargets(values: Set(values))
        }
        self.phrases = phrases
        // Phrases are folded words joined by single spaces: counted on their bytes, since
        // splitting the characters of every phrase cost more than a search, at every start.
        longestPhrase = phrases.keys.map { $0.utf8.reduce(1) { $1 == 0x20 ? $0 + 1 : $0 } }.max() ?? 1
        oneWordPhrases = phrases.compactMap { phrase, targets in
            phrase.utf8.contains(0x20) ? nil : (Array(phrase.utf8), phrase.unicodeScalars.map(\.value), targets)
        }
    }

    /// Splits the folded words of `text` into category phrases (longest first) and name terms.
    func parse(_ text: String) -> ParsedQuery {
        let words = SearchText.words(text)
        var query = ParsedQuery(words: words)
        var position = 0
        while position < words.count {
            let phrase = stride(from: min(longestPhrase, words.count - position), through: 1, by: -1).lazy
                .map { Array(words[position..<position + $0]) }
                .first { self.phrases[$0.joined(separator: " ")] != nil }
            if let phrase, let targets = phrases[phrase.joined(separator: " ")] {
                query.phrases.append((targets, phrase, position..<position + phrase.count))
                if position == 0 { query.startsWithPhrase = true }
                position += phrase.count
            } else {
                query.terms.append(words[position])
                position += 1
                query.endsWithTerm = position == words.count
            }
        }
        for (position, term) in query.terms.enumerated()
        where SearchAddress.isNumber(term) || position > 0 && SearchAddress.joinsNumber(query.terms[position - 1], term)
        {
            query.numberTerms.insert(position)
        }
        return query
    }
}
