import Foundation

/// How names and queries are folded and cut into words, the same way when the index is
/// written and when it is searched: Unicode NFKC (full- and half-width forms folded),
/// lowercase, diacritics removed from Latin and Greek letters, words split at white space and
/// punctuation. Marks on most other scripts are kept, because there they make different letters
/// (Japanese ハ, バ, パ; Cyrillic й and и); Hebrew points and the vowel signs and tone marks of
/// Devanagari and Thai are dropped, as typists leave them out. And for the spellings people
/// write either way:
/// ß as ss, Cyrillic ё as е, Greek final ς as σ, Arabic alef with hamza or madda (أ إ آ) and
/// alef wasla (ٱ) as alef (ا), alef maksura (ى) and Farsi yeh (ی) as yeh (ي), and no tatweel
/// (ـ).
///
/// This module is the one home of language, as Tantivy keeps one analyzer for indexing and
/// querying: the index writer cuts names into `tokens(ofName:)` and addresses into
/// `SearchAddress` words, the query parser folds a query with `words(_:)` and finds the phrases
/// of `SearchWords` among them, and deduplication compares names by the same words (`NameKey`).
/// A language is added here (and in Pipelines/'s word files), nowhere else.
public enum SearchText {
    /// The words of `text`, folded.
    public static func words(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        return asciiWords(text) ?? latinWords(text) ?? unicodeWords(text)
    }

    /// The words of ASCII text, nil for any other: ASCII is its own normal form, with no marks,
    /// so only its case needs folding, and the splitting characters are looked up in
    /// `asciiSplits`. Read from the string's own bytes, each word made straight from them: most
    /// names are ASCII, and a search cuts thousands.
    static func asciiWords(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            let splits = asciiSplits
            var words: [String] = []
            var start = 0
            for position in 0...bytes.count {
                let byte = position < bytes.count ? bytes[position] : 0x20
                guard byte < 0x80 else { return nil }
                guard splits[Int(byte)] else { continue }
                if position > start { words.append(lowercased(UnsafeBufferPointer(rebasing: bytes[start..<position]))) }
                start = position + 1
            }
            return words
        }
    }

    /// ASCII `bytes` as a string, A to Z lowercased.
    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { word in
            for (position, byte) in bytes.enumerated() {
                word[position] = byte &+ (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)
            }
            return bytes.count
        }
    }

    /// Whether each ASCII character ends a word, by its general category as `unicodeWords` reads it.
    private static let asciiSplits: [Bool] = (0..<128).map {
        splits(Unicode.Scalar(UInt8($0)).properties.generalCategory)
    }

    /// Whether a character of `category` ends a word: white space, controls and punctuation.
    private static func splits(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .connectorPunctuation,
            .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
            .otherPunctuation:
            true
        default: false
        }
    }

    /// The words of text in the Latin blocks (below U+0250: "Café", "Töölö", "Łódź"), each
    /// character folded by `latinFolds`; nil when a character is not there or folds in a way
    /// that depends on its neighbours, for `unicodeWords` to fold.
    static func latinWords(_ text: String) -> [String]? {
        var words: [String] = []
        var word: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value < UInt32(latinFolds.count) else { return nil }
            switch latinFolds[Int(scalar.value)] {
            case .split:
                if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            case .word(let folded): word.append(contentsOf: folded)
            case .neighbourly: return nil
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// How a character of the Latin blocks folds on its own.
    enum LatinFold {
        /// It ends a word.
        case split
        /// It becomes these bytes of a word.
        case word([UInt8])
        /// It folds into more than a word, or into one that starts with a mark, which may join
        /// the character before it: only `unicodeWords` folds it right.
        case neighbourly
    }

    /// Each character below U+0250 folded by `unicodeWords` between two letters, "a" and "a",
    /// so that a split at either end shows ("ŀ" is "l" and a middle dot, which splits). Its
    /// folds never reach across characters here: no such character decomposes into a leading
    /// mark (one that does, U+00A8 ¨ into a space and U+0308, is `neighbourly`), lowercasing has
    /// no context outside Greek, and a folded word is composed (NFC) already, so folding a text
    /// character by character gives what folding it whole gives. A test checks it for every
    /// character.
    static let latinFolds: [LatinFold] = (0..<0x250).map { value in
        let words = unicodeWords("a" + String(Unicode.Scalar(UInt32(value))!) + "a")
        if words == ["a", "a"] { return .split }
        guard words.count == 1, let word = words.first, word.hasPrefix("a"), word.hasSuffix("a"), word.count > 2 else {
            return .neighbourly
        }
        let folded = word.dropFirst().dropLast()
        switch folded.unicodeScalars.first!.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return .neighbourly
        default: return .word(Array(folded.utf8))
        }
    }

    /// The words of any text: NFKC, lowercase, then its canonical decomposition read scalar by
    /// scalar, marks folded away where `dropsMark` says, each word composed again.
    static func unicodeWords(_ text: String) -> [String] {
        let decomposed = text.precomposedStringWithCompatibilityMapping.lowercased()
            .decomposedStringWithCanonicalMapping
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var previous: Unicode.Scalar = " "
        func finishWord() {
            if !word.isEmpty { words.append(String(word).precomposedStringWithCanonicalMapping) }
            word = String.UnicodeScalarView()
        }
        for scalar in decomposed.unicodeScalars {
            let category = scalar.properties.generalCategory
            switch category {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                if !dropsMark(scalar, after: previous) { word.append(scalar) }
                continue
            default:
                if splits(category) { finishWord() } else { appendFolded(scalar, to: &word) }
            }
            previous = scalar
        }
        finishWord()
        return words
    }

    /// The tokens under which a name is found: each word, and for a word with Chinese, Japanese,
    /// Korean or Thai characters (written without spaces, `isUnspaced`) every suffix of it as
    /// well, so that a query word that is a prefix of a token is a word prefix in spaced
    /// scripts and a substring in those. A word that an apostrophe splits is also found whole,
    /// as people type it without one: "McDonald's" under "mcdonald", "s" and "mcdonalds",
    /// "L'Escale" under "l", "escale" and "lescale". Each token says where in the name it stands.
    public static func tokens(ofName name: String) -> [(token: String, place: TokenPlace)] {
        tokens(ofName: name, words: words(name))
    }

    /// `tokens(ofName:)` of `name` whose words (`words(_:)`) are `words`.
    public static func tokens(ofName name: String, words: [String]) -> [(token: String, place: TokenPlace)] {
        var tokens: [(String, TokenPlace)] = []
        for (position, word) in words.enumerated() {
            tokens.append((word, position > 0 ? .inName : words.count == 1 ? .wholeName : .nameStart))
            guard word.unicodeScalars.contains(where: isUnspaced) else { continue }
            var suffix = Substring(word).dropFirst()
            while !suffix.isEmpty {
                tokens.append((String(suffix), .inName))
                suffix = suffix.dropFirst()
            }
        }
        if name.unicodeScalars.contains(where: isApostrophe) {
            let joined = Self.words(String(String.UnicodeScalarView(name.unicodeScalars.filter { !isApostrophe($0) })))
            for word in joined where !words.contains(word) { tokens.append((word, .inName)) }
        }
        return tokens
    }

    /// The tokens of `tokens(ofName:words:)` without their places: `words` itself for a name
    /// with no apostrophe and no word of an unspaced script, as most are, without a new array.
    public static func tokenTexts(ofName name: String, words: [String]) -> [String] {
        let onlyWords =
            !name.unicodeScalars.contains(where: isApostrophe)
            && !words.contains { $0.unicodeScalars.contains(where: isUnspaced) }
        return onlyWords ? words : tokens(ofName: name, words: words).map(\.token)
    }

    /// Whether `scalar` is an apostrophe: ASCII's, the typographic one or the modifier letter.
    private static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "'" || scalar == "\u{2019}" || scalar == "\u{2BC}"
    }

    /// Whether the mark `mark`, after the letter `letter` (canonically decomposed), is folded
    /// away: every mark on a Latin letter (Vietnamese tones among them) or a Greek one, the
    /// diaeresis of Cyrillic е (ё), the hamza and madda of Arabic alef, Hebrew points (niqqud
    /// and cantillation), and the vowel signs and tone marks of Devanagari and Thai, which
    /// people often leave out when they type.
    private static func dropsMark(_ mark: Unicode.Scalar, after letter: Unicode.Scalar) -> Bool {
        switch (letter.value, mark.value) {
        case (0x41...0x5A, _), (0x61...0x7A, _), (0xC0...0x24F, _), (0x1E00...0x1EFF, _): true
        case (0x370...0x3FF, _), (0x1F00...0x1FFF, _): true
        case (0x5D0...0x5F2, 0x591...0x5C7): true
        case (0x900...0x97F, 0x900...0x97F), (0xE00...0xE7F, 0xE00...0xE7F): true
        case (0x435, 0x308): true
        case (0x627, 0x653...0x655): true
        default: false
        }
    }

    /// Appends a letter (canonically decomposed, lowercase) to `word` as a folded word writes
    /// it: most as they are; ß, ς, ٱ, ى, ی and tatweel as `SearchText` says.
    private static func appendFolded(_ scalar: Unicode.Scalar, to word: inout String.UnicodeScalarView) {
        switch scalar.value {
        case 0xDF: word.append(contentsOf: ["s", "s"])
        case 0x3C2: word.append("\u{3C3}")
        case 0x671: word.append("\u{627}")
        case 0x649, 0x6CC: word.append("\u{64A}")
        case 0x640: break
        default: word.append(scalar)
        }
    }

    /// Whether `scalar` is of a script written without spaces between words: Chinese, Japanese
    /// and Korean (`isCJK`), and Thai.
    public static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        isCJK(scalar) || (0xE01...0xE5B).contains(scalar.value)
    }

    /// Han, kana and Hangul.
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x1100...0x11FF, 0x3130...0x318F,
            0xAC00...0xD7AF, 0x20000...0x2FFFF:
            true
        default: false
        }
    }
}

/// Where a token stands in a name, best first: a query that equals a whole-name token matches
/// the name exactly, one that starts a name-start token matches its beginning.
public enum TokenPlace: Int, Comparable, Sendable, CaseIterable {
    /// The name's one word.
    case wholeName
    /// The first of several words.
    case nameStart
    /// A later word, or a CJK suffix.
    case inName

    public static func < (a: TokenPlace, b: TokenPlace) -> Bool { a.rawValue < b.rawValue }
}

/// Which kind of text a token comes from: `name` and `name:xx` rank above the other names at
/// the same match level, and both above the address (docs/search.md, "How results are ranked").
public enum NameField: Int, Comparable, Sendable, CaseIterable {
    /// `name` or a `name:xx`.
    case primary
    /// `alt_name`, `old_name`, `official_name`, `short_name` or `loc_name`.
    case other
    /// A searched part of the address (`SearchAddress`): not a name, met at the address level.
    case address

    /// The field of OSM key `key`.
    public init(ofKey key: String) {
        self = key == "name" || key.hasPrefix("name:") ? .primary : .other
    }

    public static func < (a: NameField, b: NameField) -> Bool { a.rawValue < b.rawValue }
}
