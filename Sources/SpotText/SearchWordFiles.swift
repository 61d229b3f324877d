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
    /// What is wrong with a word file, and where: a JSON path such as `.values.amenity=cafe.en[2]`.
    public struct Error: Swift.Error, Sendable {
        /// The JSON path of the field, "." for the top level.
        public let path: String
        /// What is wrong.
        public let message: String
    }

    /// The phrases of a category words file and the categories they name.
    public static func categoryWords(_ json: JSONValue) throws(Error) -> [String: [Category]] {
        let root = try Field(json).topLevel(key: "words", allowing: ["about"])
        var words: [String: [Category]] = [:]
        for (name, list) in try root["words"]!.object() {
            guard let category = Category(rawValue: name) else { throw list.error("unknown category \"\(name)\"") }
            for item in try list.array() {
                let phrase = try item.phrase().joined(separator: " ")
                if !(words[phrase]?.contains(category) ?? false) { words[phrase, default: []].append(category) }
            }
        }
        return words
    }

    /// The phrases of a value words file and the values (`key=value`) they name, and its compound
    /// words and the values they name.
    public static func valueWords(
        _ json: JSONValue
    ) throws(Error) -> (words: [String: [String]], compounds: [String: [String]]) {
        let root = try Field(json).topLevel(key: "values", allowing: ["about", "languages", "cuisine", "compounds"])
        var entries: [(tag: String, languages: Field)] = []
        for (tag, languages) in try root["values"]!.object() {
            let parts = tag.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, Self.isPlain(tag) else {
                throw languages.error("expected key=value, not \"\(tag)\"")
            }
            entries.append((tag, languages))
        }
        for (value, languages) in try root["cuisine"]?.object() ?? [:] {
            guard !value.isEmpty, Self.isPlain(value) else { throw languages.error("expected a cuisine value") }
            entries.append(("cuisine=" + value, languages))
        }
        let compounding = try root["compounds"].map(compoundRule) ?? (languages: [], minimumLetters: 0)
        var words: [String: [String]] = [:]
        var compounds: [String: [String]] = [:]
        for (tag, languages) in entries.sorted(by: { $0.tag < $1.tag }) {
            for (language, list) in try languages.object() {
                for item in try list.array() {
                    let folded = try item.phrase()
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
    private static func compoundRule(_ field: Field) throws(Error) -> (languages: Set<String>, minimumLetters: Int) {
        let fields = try field.object(allowing: ["languages", "minimum_letters"])
        guard let languages = fields["languages"], let letters = fields["minimum_letters"] else {
            throw field.error("expected {\"languages\": [...], \"minimum_letters\": N}")
        }
        var codes: Set<String> = []
        for code in try languages.array() { codes.insert(try code.string()) }
        return (codes, try letters.count())
    }

    /// Whether a name can stand in the index's word lines: no tab and no line break.
    private static func isPlain(_ name: String) -> Bool { !name.contains("\t") && !name.contains("\n") }

    /// A JSON value with its path, whose readers throw `Error` naming the path.
    private struct Field {
        let value: JSONValue
        let path: String

        init(_ value: JSONValue, path: String = "") {
            self.value = value
            self.path = path
        }

        func error(_ message: String) -> Error { Error(path: path.isEmpty ? "." : path, message: message) }

        /// The top level: `schema_version` 1, the member `key`, and no members but those and `others`.
        func topLevel(key: String, allowing others: Set<String>) throws(Error) -> [String: Field] {
            let members = try object(allowing: others.union(["schema_version", key]))
            guard let version = members["schema_version"] else {
                throw Error(path: ".schema_version", message: "missing")
            }
            guard try version.count() == 1 else { throw version.error("unsupported version; this program reads 1") }
            guard members[key] != nil else { throw Error(path: "." + key, message: "missing") }
            return members
        }

        func object(allowing allowed: Set<String>? = nil) throws(Error) -> [String: Field] {
            guard case .object(let members) = value else { throw error("expected an object") }
            var fields: [String: Field] = [:]
            for (key, member) in members {
                let field = Field(member, path: path + "." + key)
                if let allowed, !allowed.contains(key) {
                    throw field.error("unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
                }
                fields[key] = field
            }
            return fields
        }

        func array() throws(Error) -> [Field] {
            guard case .array(let items) = value else { throw error("expected an array") }
            return items.enumerated().map { Field($0.element, path: path + "[\($0.offset)]") }
        }

        func string() throws(Error) -> String {
            guard case .string(let text) = value else { throw error("expected a string") }
            return text
        }

        /// A whole number of at least 1.
        func count() throws(Error) -> Int {
            guard case .number(let number) = value, number.rounded() == number, number >= 1, number < 1e15 else {
                throw error("expected a whole number of at least 1")
            }
            return Int(number)
        }

        /// A string of words, folded; at least one.
        func phrase() throws(Error) -> [String] {
            let words = SearchText.words(try string())
            guard !words.isEmpty else { throw error("expected a word") }
            return words
        }
    }
}
