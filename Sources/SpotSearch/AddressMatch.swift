import SpotIndex
import SpotText
import Spots

/// How a spot's names and address meet the words of a query at the address level (docs/search.md,
/// "Addresses"): its terms, and the words of its category phrases that the spot's kind (or the
/// build's lists) does not meet ("Parc de la Mola 6": a street, not a park). Every such word
/// starts a word of one of the spot's names or of its searched address (`SearchAddress`), or
/// equals one of its house numbers, a number and the letters after it joined ("22 a" as
/// "22a"); and at least one starts a word of the address: a house number alone is no match. So
/// "Mannerheimintie 22", "22 Mannerheimintie", "Starbucks Mannerheimintie" and "cafe Helsinki"
/// (the phrase met by the kind) all match there, "Mannerheimintie 2" does not match number 22,
/// and neither "22" nor "Starbucks 22" is an address match. A query of category phrases alone
/// has none.
enum AddressMatch {
    /// The address key that names the match of `words`, or nil when there is none: the first of
    /// `SearchAddress.wordKeys` (then `addr:housenumber`) with a word that a query word starts.
    static func field(words: [String], names: [SearchName], address: SearchAddress) -> String? {
        guard !address.parts.isEmpty, !words.isEmpty else { return nil }
        let numbers = houseNumberWords(words, among: address.houseNumbers)
        var keys: Set<String> = []
        for (position, word) in words.enumerated() {
            if let key = address.key(ofPartStartingWith: word) {
                keys.insert(key)
            } else if !numbers.contains(position) && !names.contains(where: { $0.holds(word) }) {
                return nil
            }
        }
        return (SearchAddress.wordKeys + [SearchAddress.houseNumberKey]).first(where: keys.contains)
    }

    /// The positions of the words that one of `houseNumbers` (`SearchAddress.houseNumbers`)
    /// meets: each equal to one, and each number with the letters after it ("22", "a") when
    /// joined they equal one.
    static func houseNumberWords(_ words: [String], among houseNumbers: [String]) -> Set<Int> {
        var met: Set<Int> = []
        for (position, word) in words.enumerated() {
            if houseNumbers.contains(word) { met.insert(position) }
            if position + 1 < words.count, SearchAddress.joinsNumber(word, words[position + 1]),
                houseNumbers.contains(word + words[position + 1])
            {
                met.formUnion([position, position + 1])
            }
        }
        return met
    }
}

/// What the terms that may be house numbers (`QueryTerm.mayBeHouseNumber`) ask of a candidate of
/// the exact levels before its text is read: each is met by one of the spot's house numbers
/// (alone, or joined to the letters after it) or starts a token of its names or address, which
/// the postings list. It reads the spot's `addr:housenumber` alone, so that "Mannerheimintie
/// 22" turns away the other spots of the street without folding their names; the spots that
/// hold a term's tokens are listed only for a spot its house number does not meet.
struct HouseNumberCheck {
    private let terms: [String]
    /// Each number term with the spots whose names or address hold a token it starts; the
    /// terms that start the fewest tokens first.
    private let holders: [(term: Int, spots: TermHolders)]
    private let index: SpotIndexReader
    /// The terms each house number met meets, by its string number: candidates share numbers.
    private let metByNumber = HouseNumberTerms()

    /// The check of `query`'s number terms, which start the tokens `termTokens` of `index`;
    /// `candidateWords` caches the candidates' names and addresses.
    init(query: ParsedQuery, termTokens: [Range<Int>], index: SpotIndexReader, candidateWords: CandidateWords) {
        terms = query.termTexts
        let numberTerms = query.terms.indices.filter { query.terms[$0].mayBeHouseNumber }
        holders = numberTerms.sorted { (termTokens[$0].count, $0) < (termTokens[$1].count, $1) }.map { term in
            (
                term,
                TermHolders(
                    term: query.terms[term].text, tokens: termTokens[term], index: index, candidateWords: candidateWords
                )
            )
        }
        self.index = index
    }

    /// Whether every spot passes: the query has no term that may be a house number.
    var passesAll: Bool { holders.isEmpty }

    /// Whether spot `spot`, whose names or address hold a token each of `held` starts (the words
    /// whose postings gave it), passes.
    func passes(_ spot: Int, holding held: [String] = []) throws -> Bool {
        for (term, spots) in holders where !held.contains(terms[term]) {
            if try metByNumber.terms(met: terms, at: spot, in: index).contains(term) { continue }
            guard try spots.contains(spot) else { return false }
        }
        return true
    }
}

/// The query terms each `addr:housenumber` met meets (`AddressMatch.houseNumberWords`), by the
/// string number of the value, each decoded and cut into numbers once; and those of the last
/// spot asked about, whose house number is read once however many checks ask (the readings of
/// the typo stage ask in turn about one candidate).
final class HouseNumberTerms {
    private var known: [Int: Set<Int>] = [:]
    private var lastSpot = -1
    private var lastMet: Set<Int> = []

    /// The positions of `terms` that the house number of spot `spot` of `index` meets: none when
    /// it has no house number. `terms` are the same at every ask.
    func terms(met terms: [String], at spot: Int, in index: SpotIndexReader) throws -> Set<Int> {
        if spot == lastSpot { return lastMet }
        let met = try index.houseNumberNumber(at: spot).map { try self.terms(met: terms, byNumber: $0, in: index) }
        (lastSpot, lastMet) = (spot, met ?? [])
        return lastMet
    }

    /// The positions of `terms` that the house number with string number `number` meets.
    private func terms(met terms: [String], byNumber number: Int, in index: SpotIndexReader) throws -> Set<Int> {
        if let met = known[number] { return met }
        let met = AddressMatch.houseNumberWords(
            terms, among: SearchAddress.houseNumbers(of: try index.string(numbered: number)))
        known[number] = met
        return met
    }
}
