import SpotJSON
import Spots

/// Reads the search word files of Pipelines/, the one reader of both the built-in words (folded
/// when the package is built: the fold-words tool, `SearchWords.builtIn` in SpotIndex) and a
/// pipeline's own: phrases folded as search folds them
/// (`SearchText.words`), multi-word phrases as their words joined by one space.
///
/// - category-words.json: the words that name each category.
///
///       {"schema_version": 1, "words": {"cafe": ["cafe", "coffee shop", "カフェ"], ...}}
///
/// - value-words.json (made by Scripts/value-words.py): the words that name each OSM value, by
///   language; `cuisine` the words of the `cuisine` tag's values (dishes and drinks), and
///   `compounds` the languages whose words of at least `minimum_letters` also name their value
///   at the end of a longer name word ("museo" in "Taidemuseo").
///
///       {"schema_version": 1, "values": {"amenity=dentist": {"en": ["dentist"], "de": ["zahnarzt"]}},
///        "cuisine": {"pizza": {"en": ["pizza"], "fi": ["pizza", "pitsa"]}},
///        "compounds": {"languages": ["de", "fi"], "minimum_letters": 5}}
public enum SearchWordFiles {
    /// The phrases of a category words file and the categories they name.
    public static func categoryWords(_ json: JSONField) throws(JSONFieldError) -> [String: [Category]] {
        let root = try json.versioned(key: "words", allowing: ["about"])
        var words: [String: [Category]] = [:]
        for (name, list) in try root.member.object() {
            guard let category = Category(rawValue: name) else { throw list.error("unknown category \"\(name)\"") }
            for item in try list.array() {
                let phrase = try Self.phrase(item).joined(separator: " ")
                if !(words[phrase]?.contains(category) ?? false) { words[phrase, default: []].append(category) }
            }
        }
        return words
    }

    /// The phrases of a value words file and the values (`key=value`) they name, and its compound
    /// words and the values they name.
    public static func valueWords(
        _ json: JSONField
    ) throws(JSONFieldError) -> (words: [String: [String]], compounds: [String: [String]]) {
        let root = try json.versioned(key: "values", allowing: ["about", "languages", "cuisine", "compounds"])
        var entries: [(tag: String, languages: JSONField)] = []
        for (tag, languages) in try root.member.object() {
            let parts = tag.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, Self.isPlain(tag) else {
                throw languages.error("expected key=value, not \"\(tag)\"")
            }
            entries.append((tag, languages))
        }
        for (value, languages) in try root.members["cuisine"]?.object() ?? [:] {
            guard !value.isEmpty, Self.isPlain(value) else { throw languages.error("expected a cuisine value") }
            entries.append(("cuisine=" + value, languages))
        }
        let compounding = try root.members["compounds"].map(compoundRule) ?? (languages: [], minimumLetters: 0)
        var words: [String: [String]] = [:]
        var compounds: [String: [String]] = [:]
        for (tag, languages) in entries.sorted(by: { $0.tag < $1.tag }) {
            for (language, list) in try languages.object() {
                for item in try list.array() {
                    let folded = try Self.phrase(item)
                    let phrase = folded.joined(separator: " ")
                    if !(words[phrase]?.contains(tag) ?? false) { words[phrase, default: []].append(tag) }
                    if compounding.languages.contains(language), folded.count == 1,
                        phrase.unicodeScalars.count >= compounding.minimumLetters,
                        !(compounds[phrase]?.contains(tag) ?? false)
                    {
                        compounds[phrase, default: []].append(tag)
                    }
                }
            }
        }
        return (words, compounds)
    }

    /// The `compounds` object: `languages` (codes) and `minimum_letters` (at least 1).
    private static func compoundRule(
        _ field: JSONField
    ) throws(JSONFieldError) -> (languages: Set<String>, minimumLetters: Int) {
        let fields = try field.object(allowing: ["languages", "minimum_letters"])
        guard let languages = fields["languages"], let letters = fields["minimum_letters"] else {
            throw field.error("expected {\"languages\": [...], \"minimum_letters\": N}")
        }
        var codes: Set<String> = []
        for code in try languages.array() { codes.insert(try code.string()) }
        return (codes, try letters.integer(atLeast: 1))
    }

    /// Whether a name can stand in the index's word lines: no tab and no line break.
    private static func isPlain(_ name: String) -> Bool { !name.contains("\t") && !name.contains("\n") }

    /// A string of words, folded; at least one.
    private static func phrase(_ field: JSONField) throws(JSONFieldError) -> [String] {
        let words = SearchText.words(try field.string())
        guard !words.isEmpty else { throw field.error("expected a word") }
        return words
    }
}
