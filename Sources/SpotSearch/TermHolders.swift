import SpotIndex
import SpotText

/// Which spots hold a token that one query term starts, in their names or address: the spots
/// of the postings of the term's tokens.
///
/// Two ways give the same answer: read the spot's own text (its names' tokens and its address
/// words, as the build listed them), or read every posting of the term's tokens once into a set.
/// A term that starts many tokens ("la", "s", "hotel") has far more postings than a search has
/// candidates to ask about, so a spot is answered from its text while the spots asked about cost
/// less than the postings would (`postingsPerText`), and from the set once they would not.
final class TermHolders {
    /// A spot's text (its names decoded and cut into tokens, its address looked up) costs
    /// about as much as reading this many postings into a set.
    static let postingsPerText = 64
    /// The spots asked about before the postings are counted.
    private static let askedBeforeCounting = 16

    private let term: [UInt8]
    private let tokens: Range<Int>
    private let index: SpotIndexReader
    private let candidateWords: CandidateWords
    private var asked = 0
    /// How many postings the term's tokens hold, once counted.
    private var postingCount: Int?
    private var holders: SpotSet?

    /// The holders of the tokens `tokens` of `index`, those that folded term `term` starts;
    /// `candidateWords` caches the candidates' names and addresses.
    init(term: String, tokens: Range<Int>, index: SpotIndexReader, candidateWords: CandidateWords) {
        self.term = Array(term.utf8)
        self.tokens = tokens
        self.index = index
        self.candidateWords = candidateWords
    }

    /// Whether spot `spot` holds one of the tokens.
    func contains(_ spot: Int) throws -> Bool {
        if let holders { return holders.contains(spot) }
        if tokens.isEmpty { return false }
        asked += 1
        if asked >= Self.askedBeforeCounting {
            let postings = try postingCount ?? index.postingCount(ofTokens: tokens)
            postingCount = postings
            if asked * Self.postingsPerText >= postings {
                let spots = try index.spots(ofTokens: tokens) { _ in true }
                let set = SpotSet(spots, estimatedCount: spots.count, count: index.count)
                holders = set
                return set.contains(spot)
            }
        }
        return try textHolds(spot)
    }

    /// Whether a token of the spot's names, or a word of its address, starts with the term.
    private func textHolds(_ spot: Int) throws -> Bool {
        try candidateWords.textHolds(spot, in: index) { $0.utf8.starts(with: term) }
    }
}
