import Foundation

/// How names and queries are folded and cut into words, the same way when the index is
/// written and when it is searched: Unicode NFKC (full- and half-width forms folded),
/// lowercase, diacritics removed from Latin letters, words split at white space and punctuation.
/// Marks on other scripts are kept, because there they make different letters (Japanese ハ,
/// バ, パ; Cyrillic й and и).
public enum SearchText {
    /// The words of `text`, folded.
    public static func words(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        // ASCII text is its own normal form: only its case needs folding.
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let decomposed =
            isASCII
            ? String(decoding: text.utf8.map { $0 &+ ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }, as: UTF8.self)
            : text.precomposedStringWithCompatibilityMapping.lowercased().decomposedStringWithCanonicalMapping
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var previousIsLatin = false
        func finishWord() {
            if !word.isEmpty {
                words.append(isASCII ? String(word) : String(word).precomposedStringWithCanonicalMapping)
            }
            word = String.UnicodeScalarView()
        }
        for scalar in decomposed.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                if !previousIsLatin { word.append(scalar) }
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
                .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation:
                finishWord()
                previousIsLatin = false
            default:
                word.append(scalar)
                previousIsLatin = isLatin(scalar)
            }
        }
        finishWord()
        return words
    }

    /// The tokens under which a name is found: each word, and for a word with Chinese, Japanese
    /// or Korean characters (written without spaces) every suffix of it as well, so that a
    /// query word that is a prefix of a token is a word prefix in spaced scripts and a
    /// substring in CJK. Each token says where in the name it stands.
    public static func tokens(ofName name: String) -> [(token: String, place: TokenPlace)] {
        let words = words(name)
        var tokens: [(String, TokenPlace)] = []
        for (position, word) in words.enumerated() {
            tokens.append((word, position > 0 ? .inName : words.count == 1 ? .wholeName : .nameStart))
            guard word.unicodeScalars.contains(where: isCJK) else { continue }
            var suffix = Substring(word).dropFirst()
            while !suffix.isEmpty {
                tokens.append((String(suffix), .inName))
                suffix = suffix.dropFirst()
            }
        }
        return tokens
    }

    /// Latin letters: Basic Latin, Latin-1 Supplement, Latin Extended-A/B and Additional.
    private static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: true
        default: false
        }
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

/// Which kind of name a name is: `name` and `name:xx` rank above the other names at the same
/// match level (README, "How results are ranked").
public enum NameField: Int, Comparable, Sendable, CaseIterable {
    /// `name` or a `name:xx`.
    case primary
    /// `alt_name`, `old_name`, `official_name`, `short_name` or `loc_name`.
    case other

    /// The field of OSM key `key`.
    public init(ofKey key: String) {
        self = key == "name" || key.hasPrefix("name:") ? .primary : .other
    }

    public static func < (a: NameField, b: NameField) -> Bool { a.rawValue < b.rawValue }
}
