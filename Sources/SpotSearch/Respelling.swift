import SpotIndex
import SpotText
import Spots

/// Another reading of a query in the typo stage, as names write words joined or apart: two
/// neighbouring terms read as one word ("Mac Donalds" as "macdonalds", within an edit of
/// "McDonald's"; "Star bucks" as "starbucks"), or one term as two ("Burgerking" as "burger
/// king"). The space added or taken away is one edit, so a joined word forgives one edit fewer
/// than its length would, and the halves of a split none.
struct Respelling {
    /// The terms it reads otherwise, as positions in the query's terms.
    let terms: Range<Int>
    /// What it reads them as: one joined word, or the two halves of one.
    let words: [FuzzyWord]

    /// The respellings of `query` over `index`: each two terms that stand side by side in the
    /// query (no category phrase between them), both of letters that forgive typos
    /// (`FuzzyWord.mayForgive`) and together 4 letters or more, joined; each such term split
    /// wherever both halves have 3 letters or more (fewer start too many names to mean one)
    /// and are whole tokens of the index
    /// (the second may be the start of one when the term ends the query), the half that starts
    /// fewer tokens first (it gathers).
    static func all(of query: ParsedQuery, in index: SpotIndexReader) throws(IndexError) -> [Respelling] {
        let terms = query.termTexts
        let positions = query.termPositions
        func isLast(_ term: Int) -> Bool { query.endsWithTerm && term == terms.count - 1 }
        var respellings: [Respelling] = []
        for term in terms.indices.dropLast()
        where positions[term + 1] == positions[term] + 1 && FuzzyWord.mayForgive(terms[term])
            && FuzzyWord.mayForgive(terms[term + 1])
        {
            let joined = terms[term] + terms[term + 1]
            guard FuzzyWord.maxEdits(forLength: joined.unicodeScalars.count) > 0 else { continue }
            respellings.append(
                Respelling(terms: term..<term + 2, words: [FuzzyWord(joined, isLast: isLast(term + 1), spent: 1)]))
        }
        for (term, text) in terms.enumerated()
        where FuzzyWord.mayForgive(text) {
            let scalars = Array(text.unicodeScalars)
            for cut in stride(from: 3, through: scalars.count - 3, by: 1) {
                let first = String(String.UnicodeScalarView(scalars[..<cut]))
                let second = String(String.UnicodeScalarView(scalars[cut...]))
                guard let firstTokens = try wholeTokens(first, in: index),
                    let secondTokens = isLast(term)
                        ? try index.tokens(withPrefix: Array(second.utf8)).nonEmpty : try wholeTokens(second, in: index)
                else { continue }
                let halves = [
                    FuzzyWord(first, isLast: false, forgiving: false),
                    FuzzyWord(second, isLast: isLast(term), forgiving: false),
                ]
                respellings.append(
                    Respelling(
                        terms: term..<term + 1,
                        words: firstTokens.count <= secondTokens.count ? halves : halves.reversed()))
            }
        }
        return respellings
    }

    /// The tokens that start with `word` when it is one of them, else nil.
    private static func wholeTokens(_ word: String, in index: SpotIndexReader) throws(IndexError) -> Range<Int>? {
        let bytes = Array(word.utf8)
        let tokens = try index.tokens(withPrefix: bytes)
        guard let first = tokens.first, try index.token(first) == bytes else { return nil }
        return tokens
    }
}

extension Range {
    /// The range, or nil when it is empty.
    fileprivate var nonEmpty: Range? { isEmpty ? nil : self }
}
