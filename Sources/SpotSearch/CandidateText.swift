import SpotIndex
import SpotText
import Spots

/// One name of a candidate as search reads it: its OSM key, the name, and its words and tokens
/// (`SearchText.words`, `SearchText.tokens(ofName:)`), each cut once; the tokens' scalars only
/// when the typo stage first asks for them.
final class SearchName {
    let key: String
    let name: String
    /// Where its key stands among a spot's names (`Spot.nameRank`; past every rank for a key
    /// that holds none).
    let rank: Int
    /// The folded words, in order.
    let words: [String]
    /// The tokens the index lists for the name: its words, and the suffixes of unspaced ones.
    let tokens: [String]
    /// The tokens' Unicode scalar values, as edit distances read them (`FuzzyWord`).
    private(set) lazy var tokenScalars: [[UInt32]] = tokens.map { $0.unicodeScalars.map(\.value) }

    /// `name`, with OSM key `key` of rank `rank`, cut into words and tokens.
    init(key: String, name: String, rank: Int) {
        self.key = key
        self.name = name
        self.rank = rank
        words = SearchText.words(name)
        tokens = SearchText.tokenTexts(ofName: name, words: words)
    }

    /// `name`, with OSM key `key`, cut into words and tokens.
    convenience init(key: String, name: String) {
        self.init(key: key, name: name, rank: Spot.nameRank(ofKey: key) ?? .max)
    }

    /// Whether the name stands before `other` among a spot's names (`Spot.nameOrder`).
    func precedes(_ other: SearchName) -> Bool {
        rank != other.rank ? rank < other.rank : (name, key) < (other.name, other.key)
    }

    /// Whether a token of the name starts with `term`.
    func holds(_ term: String) -> Bool { tokens.contains { $0.hasPrefix(term) } }
}

/// A candidate's text as a search checks it: its names, read first, and its searched address
/// (`SearchAddress`), read only when the names do not decide, both through `words`.
struct CandidateText {
    /// The names, in `Spot.namesByKey` order.
    let names: [SearchName]
    private let spot: Int
    private let index: SpotIndexReader
    private let words: CandidateWords

    /// The text of spot `spot` of `index`.
    init(spot: Int, in index: SpotIndexReader, words: CandidateWords) throws {
        names = try words.names(of: spot, in: index)
        self.spot = spot
        self.index = index
        self.words = words
    }

    /// The searched address, read now.
    func address() throws -> SearchAddress { try words.address(of: spot, in: index) }
}

/// The names and searched addresses of one search's candidates, kept by string number: the
/// candidates share names (a chain's), streets, postcodes and cities, so each name is decoded
/// and cut into words once (`SearchName`), and each address part folded once
/// (`SearchAddress.words(ofPart:value:)`).
final class CandidateWords {
    /// Each name met, cut into words, by the string numbers of its key and value; nil for a key
    /// search does not read (`Spot.nameRank`).
    private var names: [Int: SearchName?] = [:]
    /// Each name key met and its rank (`Spot.nameRank`), by string number; nil for a key search
    /// does not read. A few keys serve every name.
    private var nameKeys: [Int: (text: String, rank: Int)?] = [:]
    /// The part of each address key and value met, nil for a part not searched.
    private var addressParts: [Int: AddressPart?] = [:]

    /// An address part folded into words (`SearchAddress.words(ofPart:value:)`), and those of
    /// its words that `SearchAddress.words` lists (`SearchAddress.listedWords`).
    private struct AddressPart {
        let key: String
        let words: [String]
        let listedWords: [String]
    }

    /// The names of spot `spot` of `index`, in `Spot.namesByKey` order.
    func names(of spot: Int, in index: SpotIndexReader) throws -> [SearchName] {
        var found: [SearchName] = []
        for (key, value) in try index.nameNumbers(at: spot) {
            if let name = try name(key: key, value: value, in: index) { found.append(name) }
        }
        if found.count > 1 { found.sort { $0.precedes($1) } }
        return found
    }

    /// The searched address of spot `spot` of `index`.
    func address(of spot: Int, in index: SpotIndexReader) throws -> SearchAddress {
        var parts: [(key: String, words: [String])] = []
        for (key, value) in try index.addressNumbers(at: spot) {
            if let part = try addressPart(key: key, value: value, in: index) { parts.append((part.key, part.words)) }
        }
        return SearchAddress(partWords: parts)
    }

    /// Whether a token of a name of spot `spot` of `index`, or a word of its searched address
    /// (`SearchAddress.words`), meets `holds`: what `names(of:in:)` and `address(of:in:)` tell,
    /// with neither the names sorted nor the address put together, and no more read once one
    /// meets it. Asked of thousands of candidates a search (`TermHolders`).
    func textHolds(_ spot: Int, in index: SpotIndexReader, _ holds: (String) -> Bool) throws -> Bool {
        for (key, value) in try index.nameNumbers(at: spot) {
            if try name(key: key, value: value, in: index)?.tokens.contains(where: holds) == true { return true }
        }
        for (key, value) in try index.addressNumbers(at: spot) {
            if try addressPart(key: key, value: value, in: index)?.listedWords.contains(where: holds) == true {
                return true
            }
        }
        return false
    }

    /// The name with key and value of string numbers `key` and `value`, cut once; nil for a key
    /// search does not read.
    private func name(key: Int, value: Int, in index: SpotIndexReader) throws -> SearchName? {
        let id = key << 32 | value
        if let known = names[id] { return known }
        if nameKeys[key] == nil {
            let text = try index.string(numbered: key)
            nameKeys[key] = .some(Spot.nameRank(ofKey: text).map { (text, $0) })
        }
        let name = try nameKeys[key]!.map { key, rank in
            SearchName(key: key, name: try index.string(numbered: value), rank: rank)
        }
        names[id] = .some(name)
        return name
    }

    /// The address part with key and value of string numbers `key` and `value`, folded once; nil
    /// for a part not searched.
    private func addressPart(key: Int, value: Int, in index: SpotIndexReader) throws -> AddressPart? {
        let id = key << 32 | value
        if let known = addressParts[id] { return known }
        let keyText = try index.string(numbered: key)
        var part: AddressPart?
        if SearchAddress.isSearched(keyText) {
            let words = SearchAddress.words(ofPart: keyText, value: try index.string(numbered: value))
            part = AddressPart(
                key: keyText, words: words, listedWords: SearchAddress.listedWords(ofPart: keyText, words: words))
        }
        addressParts[id] = .some(part)
        return part
    }
}
