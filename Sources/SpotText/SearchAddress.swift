/// A spot's address as search meets it (docs/search.md, "Addresses"), the same when the index is
/// written and when a candidate is checked: the words of `addr:street`, `addr:place`,
/// `addr:postcode` and `addr:city` (folded, each street and place word with its equals,
/// `StreetWords`), which a query word meets by prefix as it meets a name's; and the house
/// numbers of `addr:housenumber`, which only a query word equal to one meets.
///
/// House numbers are folded and cut into words as names are; a word of up to three letters
/// after a number joins it ("22 A" is "22a", "5 bis" "5bis"), and several numbers ("22-24",
/// "3;5") give one each. The longer words some house numbers hold ("7 B, sisäpiha", "8, 2nd
/// floor") are searched as the other parts' words are, under `addr:housenumber`.
public struct SearchAddress: Sendable {
    /// The address parts whose words are searched, by OSM key, in the order a match names its
    /// field by.
    public static let wordKeys = ["addr:street", "addr:place", "addr:postcode", "addr:city"]
    /// Where the house number is.
    public static let houseNumberKey = "addr:housenumber"

    /// The searched parts present, with their words (`wordKeys` order, then the words of the
    /// house number that are not numbers).
    public let parts: [(key: String, words: [String])]
    /// The house numbers, folded and joined.
    public let houseNumbers: [String]

    /// The searched address of a spot's `address` (keyed by what follows `addr:`).
    public init(_ address: [String: String]) {
        self.init(
            partWords: address.compactMap { part, value in
                let key = "addr:" + part
                return Self.isSearched(key) ? (key, Self.words(ofPart: key, value: value)) : nil
            })
    }

    /// The searched address made of the words of its parts (`words(ofPart:value:)`, each key
    /// `isSearched`), in any order.
    public init(partWords: [(key: String, words: [String])]) {
        var parts = Self.wordKeys.compactMap { key in partWords.first { $0.key == key } }
        let numberWords = partWords.first { $0.key == Self.houseNumberKey }?.words ?? []
        houseNumbers = numberWords.filter(Self.isNumber)
        let described = Self.listedWords(ofPart: Self.houseNumberKey, words: numberWords)
        if !described.isEmpty { parts.append((Self.houseNumberKey, described)) }
        self.parts = parts
    }

    /// The words of part `key` (`words(ofPart:value:)`) that `words` lists: all of them but a
    /// house number's numbers, which `houseNumbers` holds.
    public static func listedWords(ofPart key: String, words: [String]) -> [String] {
        key == houseNumberKey ? words.filter { !isNumber($0) } : words
    }

    /// Whether the address part `key` (`addr:street`) is searched: one of `wordKeys` or the
    /// house number.
    public static func isSearched(_ key: String) -> Bool { key == houseNumberKey || wordKeys.contains(key) }

    /// The folded words of an address part, `key` (`wordKeys`, `houseNumberKey`) with `value`:
    /// a street's or place's each with its equals (`StreetWords`), a house number's joined.
    public static func words(ofPart key: String, value: String) -> [String] {
        let words = SearchText.words(value)
        switch key {
        case "addr:street", "addr:place": return words.flatMap { [$0] + StreetWords.equals(of: $0) }
        case houseNumberKey: return joinedNumbers(words)
        default: return words
        }
    }

    /// Every word of the parts: the tokens under which the index lists the spot's address.
    public var words: [String] { parts.flatMap(\.words) }

    /// The key of the first part with a word that `term` (folded) starts, or nil.
    public func key(ofPartStartingWith term: String) -> String? {
        parts.first { $0.words.contains { $0.hasPrefix(term) } }?.key
    }

    /// Whether a word of a house number is a number, met only by a word equal to it: one that
    /// starts with a digit ("22", "5bis"), or of one or two letters ("A", "S/N").
    public static func isNumber(_ word: String) -> Bool { startsWithDigit(word) || word.count <= 2 }

    /// The house numbers of an `addr:housenumber` value: its words, folded and joined, that
    /// are numbers (`isNumber`).
    public static func houseNumbers(of value: String) -> [String] {
        joinedNumbers(SearchText.words(value)).filter(isNumber)
    }

    /// `words` with each word of up to three letters that follows a number joined to it.
    static func joinedNumbers(_ words: [String]) -> [String] {
        var joined: [String] = []
        for word in words {
            if let last = joined.last, joinsNumber(last, word) {
                joined[joined.count - 1] = last + word
            } else {
                joined.append(word)
            }
        }
        return joined
    }

    /// Whether `letters` joins `number` as one house number: `number` starts with a digit and
    /// ends with one, and `letters` is up to three letters.
    public static func joinsNumber(_ number: String, _ letters: String) -> Bool {
        startsWithDigit(number) && number.unicodeScalars.last.map(isDigit) == true && (1...3).contains(letters.count)
            && letters.unicodeScalars.allSatisfy { $0.properties.isAlphabetic }
    }

    /// Whether a folded word starts with a decimal digit: a word that may be a house number.
    public static func startsWithDigit(_ word: String) -> Bool {
        word.unicodeScalars.first.map(isDigit) ?? false
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.numericType == .decimal
    }

}
