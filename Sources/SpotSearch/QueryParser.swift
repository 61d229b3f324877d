import Spots

/// A query cut into category phrases and the words left to match names.
struct ParsedQuery {
    /// Every folded word, in order: what a name that matches the whole query holds.
    var words: [String] = []
    /// Phrases that name categories, with their folded words.
    var phrases: [(categories: Set<Category>, words: [String])] = []
    /// The other words.
    var terms: [String] = []
    /// Whether the first word belongs to a category phrase.
    var startsWithPhrase = false
    /// Whether the last word is a term: then it may be unfinished (`FuzzyWord.isPrefix`).
    var endsWithTerm = false
}

/// The first stage of a search: folds the query's words (`SearchText`) and finds among them the
/// phrases that name categories, longest first.
struct QueryParser {
    /// Folded query phrases (one to three words) and the categories they name.
    let categoryWords: [String: [Category]]
    /// The most words a phrase has.
    let longestPhrase: Int
    /// The phrases of one word, with their length in Unicode scalars: what a misspelt term may
    /// mean (`TypoStage`).
    let oneWordPhrases: [(phrase: String, utf8: [UInt8], length: Int, categories: [Category])]

    /// A parser of the phrases in `categoryWords`.
    init(categoryWords: [String: [Category]]) {
        self.categoryWords = categoryWords
        longestPhrase = categoryWords.keys.map { $0.split(separator: " ").count }.max() ?? 1
        oneWordPhrases = categoryWords.filter { !$0.key.contains(" ") }.map {
            ($0.key, Array($0.key.utf8), $0.key.unicodeScalars.count, $0.value)
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
                .first { self.categoryWords[$0.joined(separator: " ")] != nil }
            if let phrase, let categories = categoryWords[phrase.joined(separator: " ")] {
                query.phrases.append((Set(categories), phrase))
                if position == 0 { query.startsWithPhrase = true }
                position += phrase.count
            } else {
                query.terms.append(words[position])
                position += 1
                query.endsWithTerm = position == words.count
            }
        }
        return query
    }
}
