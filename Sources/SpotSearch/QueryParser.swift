import SpotIndex
import SpotText
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

    /// The lists of the spots of the kinds the targets name, one per kind.
    func kindLists(in index: SpotIndexReader) throws -> [RankList] {
        try index.kinds.indices.filter { names(index.kinds[$0]) }.map { try index.kindList(ofKind: $0) }
    }

    /// The spots that meet the targets otherwise than by their kind, one list per target.
    func wordLists(in index: SpotIndexReader) throws -> [RankList] {
        try names.compactMap { try index.wordList(of: $0) }
    }

    /// The spots of each of `wordLists`, as sets.
    func listedSpots(in index: SpotIndexReader) throws -> [SpotSet] {
        try wordLists(in: index).map { list in
            let spots = try index.spots(in: list)
            return SpotSet(spots, estimatedCount: spots.count, count: index.count)
        }
    }

    /// Whether a spot selected by `key`=`value`, of `category`, is of what the phrase names.
    func names(key: String, value: String, category: Category?) -> Bool {
        category.map(categories.contains) ?? false || values.contains(key + "=" + value)
    }

    /// Whether the spots of `kind` are of what the phrase names.
    func names(_ kind: SelectingTag) -> Bool { names(key: kind.key, value: kind.value, category: kind.category) }
}

/// A phrase of a query that names categories or values.
struct QueryPhrase {
    /// What the phrase names.
    let targets: PhraseTargets
    /// Its folded words.
    let words: [String]
    /// Where they stand in the query's words.
    let range: Range<Int>
}

/// A word of a query outside its phrases: a word of a name or an address, or a house number.
struct QueryTerm: Equatable {
    /// The folded word.
    let text: String
    /// Whether it may be a house number or part of one: it starts with a digit, is letters that
    /// may join one ("22 a", `SearchAddress`), or has one or two letters that some house number
    /// of the index is (the "s" and "n" of "S/N"; any such word in an index that does not list
    /// them). The text index does not list house numbers, so such a term gathers no candidates
    /// and turns none away before its text is read (`HouseNumberCheck`).
    let mayBeHouseNumber: Bool
}

/// A query as the parser cuts it: its words, the phrases among them that name categories or
/// values, and the other words, its terms.
struct ParsedQuery {
    /// Every folded word, in order: what a name that matches the whole query holds.
    var words: [String] = []
    /// The phrases, in order.
    var phrases: [QueryPhrase] = []
    /// The words outside the phrases, in order.
    var terms: [QueryTerm] = []
    /// Whether the first word belongs to a category phrase.
    var startsWithPhrase = false
    /// Whether the last word is a term: then it may be unfinished (`FuzzyWord.isPrefix`).
    var endsWithTerm = false

    /// The folded words of the terms.
    var termTexts: [String] { terms.map(\.text) }

    /// Where each term stands in `words`.
    var termPositions: [Int] {
        words.indices.filter { position in !phrases.contains { $0.range.contains(position) } }
    }

    /// The words but those of the phrases flagged in `leftOut` (one flag per phrase), in order.
    func words(leavingOut leftOut: [Bool]) -> [String] {
        let ranges = zip(phrases, leftOut).filter(\.1).map(\.0.range)
        return words.indices.filter { position in !ranges.contains { $0.contains(position) } }.map { words[$0] }
    }
}

/// The first stage of a search: folds the query's words (`SearchText`) and finds among them the
/// phrases that name categories or values (`SearchWords`), longest first.
struct QueryParser {
    /// The words whose phrases (one to three folded words) the parser finds.
    let words: SearchWords
    /// The most words a phrase has.
    let longestPhrase: Int
    /// The phrases of one word: what a misspelt term may mean (`TypoStage`).
    let oneWordPhrases: OneWordPhrases

    /// A parser of the phrases of `words`. Phrases are looked up in `words` itself: gathering
    /// them into a dictionary of their own cost more than a search, at every start.
    init(words: SearchWords) {
        self.words = words
        // Phrases are folded words joined by single spaces: counted on their bytes, since
        // splitting the characters of every phrase cost more than a search, at every start.
        var longest = 1
        var oneWord: [OneWordPhrases.Phrase] = []
        func add(_ phrase: String, _ targets: () -> PhraseTargets?) {
            let spaces = Self.spaces(in: phrase)
            longest = max(longest, spaces + 1)
            if spaces == 0, let targets = targets() {
                oneWord.append(OneWordPhrases.Phrase(scalars: phrase.unicodeScalars.map(\.value), targets: targets))
            }
        }
        for (phrase, values) in words.values { add(phrase) { PhraseTargets(values: Set(values)) } }
        for (phrase, categories) in words.categories {
            add(phrase) { words.values[phrase] == nil ? PhraseTargets(categories: Set(categories)) : nil }
        }
        longestPhrase = longest
        oneWordPhrases = OneWordPhrases(oneWord)
    }

    /// The spaces in `phrase`, counted on its bytes.
    private static func spaces(in phrase: String) -> Int {
        var phrase = phrase
        return phrase.withUTF8 { bytes in bytes.reduce(0) { $1 == 0x20 ? $0 + 1 : $0 } }
    }

    /// What `phrase` (folded words joined by spaces) names, or nil when it is no phrase.
    func targets(of phrase: String) -> PhraseTargets? { Self.targets(of: phrase, in: words) }

    /// What `phrase` names in `words`. A phrase that names values names them alone: "car wash"
    /// and "fast food" are words of their categories too, but a person typing them asks for
    /// that kind of place only.
    private static func targets(of phrase: String, in words: SearchWords) -> PhraseTargets? {
        if let values = words.values[phrase] { return PhraseTargets(values: Set(values)) }
        if let categories = words.categories[phrase] { return PhraseTargets(categories: Set(categories)) }
        return nil
    }

    /// Splits the folded words of `text` into category phrases (longest first) and terms. A term
    /// of one or two letters may be a house number when it is one of `letterHouseNumbers` (the
    /// index's, `SpotIndexReader.letterHouseNumbers`), or always when that is nil.
    func parse(_ text: String, letterHouseNumbers: Set<String>? = nil) -> ParsedQuery {
        let words = SearchText.words(text)
        var query = ParsedQuery(words: words)
        var terms: [String] = []
        var position = 0
        while position < words.count {
            let found = stride(from: min(longestPhrase, words.count - position), through: 1, by: -1).lazy
                .map { Array(words[position..<position + $0]) }
                .compactMap { phrase in targets(of: phrase.joined(separator: " ")).map { (phrase, $0) } }
                .first
            if let (phrase, targets) = found {
                query.phrases.append(
                    QueryPhrase(targets: targets, words: phrase, range: position..<position + phrase.count))
                if position == 0 { query.startsWithPhrase = true }
                position += phrase.count
            } else {
                terms.append(words[position])
                position += 1
                query.endsWithTerm = position == words.count
            }
        }
        query.terms = terms.indices.map { position in
            let term = terms[position]
            let isNumber =
                SearchAddress.startsWithDigit(term)
                || SearchAddress.isNumber(term) && letterHouseNumbers.map { $0.contains(term) } ?? true
            let mayBeHouseNumber =
                isNumber || position > 0 && SearchAddress.joinsNumber(terms[position - 1], term)
            return QueryTerm(text: term, mayBeHouseNumber: mayBeHouseNumber)
        }
        return query
    }
}
