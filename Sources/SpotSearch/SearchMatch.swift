import SpotText
import Spots

/// How a result matched a text query, strongest first (docs/search.md, "How results are ranked").
public enum MatchLevel: Int, Comparable, Sendable, CaseIterable {
    /// A whole name equals the query.
    case exact
    /// A name starts with the query.
    case prefix
    /// Every query word starts a word of one name.
    case words
    /// The spot is of a category the query names, and its names hold the query's other words.
    case category
    /// Every query word meets the spot's names or address and some its address (`AddressMatch`):
    /// a street, place, postcode or city word it starts, or a house number it equals.
    case address
    /// As one of the levels above once typos are forgiven (`FuzzyWord`): every query word
    /// within its edits of a word of one name, or of a category word of the spot's kind.
    case fuzzy

    /// The name `--explain` gives the level.
    public var name: String {
        switch self {
        case .exact: "exact"
        case .prefix: "prefix"
        case .words: "words"
        case .category: "category"
        case .address: "address"
        case .fuzzy: "fuzzy"
        }
    }

    public static func < (a: MatchLevel, b: MatchLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Why a result came back (`--explain`): its match level, what it matched in, the typos
/// forgiven, and its score within the level.
public struct SearchMatch: Sendable, Equatable {
    /// The level.
    public let level: MatchLevel
    /// The OSM key of the name that matched (`name`, `name:fi`, `alt_name`), the address part
    /// for an address match (`addr:street`), or the selecting tag for a category match
    /// (`amenity=restaurant`).
    public let field: String
    /// The score within the level: the quality score (`PlaceQuality.score`), times the distance
    /// decay when the request has a place.
    public let score: Double
    /// The edits forgiven: 0 but at the fuzzy level.
    public let edits: Int

    /// A match.
    public init(level: MatchLevel, field: String, score: Double, edits: Int = 0) {
        self.level = level
        self.field = field
        self.score = score
        self.edits = edits
    }
}

/// How the words of one name meet the name terms of a query: every term must start a token of
/// the name (`SearchText.tokens(ofName:)`); the name's words equal to the terms are an exact
/// match, its words starting with them (the last as a prefix) a prefix match.
enum NameMatch {
    /// The level at which `name` matches `terms` (folded, at least one), or nil when it does not.
    static func level(of name: SearchName, terms: [String]) -> MatchLevel? {
        guard terms.allSatisfy(name.holds) else { return nil }
        let words = name.words
        if words == terms { return .exact }
        let last = terms.count - 1
        if words.count >= terms.count, words[..<last].elementsEqual(terms[..<last]), words[last].hasPrefix(terms[last])
        {
            return .prefix
        }
        return .words
    }

    /// Whether every one of `terms` starts a token of some name of `names`, not all of one.
    static func namesHold(_ terms: [String], in names: [SearchName]) -> Bool {
        terms.allSatisfy { term in names.contains { $0.holds(term) } }
    }

    /// The best match of `terms` among the names of a spot (`Spot.namesByKey`): the strongest
    /// level, then `name` and `name:xx` before other names, then the first.
    static func best(in names: [SearchName], terms: [String]) -> (level: MatchLevel, key: String)? {
        var best: (level: MatchLevel, field: NameField, key: String)?
        for name in names {
            guard let level = level(of: name, terms: terms) else { continue }
            let field = NameField(ofKey: name.key)
            if best.map({ (level, field) < ($0.level, $0.field) }) ?? true { best = (level, field, name.key) }
        }
        return best.map { ($0.level, $0.key) }
    }
}
