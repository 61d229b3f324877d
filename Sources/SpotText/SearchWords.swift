import Spots

/// The words of search queries that name what a place is: phrases that name categories and
/// OSM values, folded as search folds them (`SearchText.words`), and the compound words that
/// also name their values at the end of a longer name word.
///
/// Their text form is lines (`lines`, `compoundLines`): one per target (a category's name, or a
/// value as `key=value`), the target, then tab-separated its phrases, targets and phrases
/// sorted. An index stores `lines` as its WORD section; the package's own words are folded into
/// this form when it is built (the fold-words tool), so that reading them folds nothing.
public struct SearchWords: Equatable, Sendable {
    /// Folded phrases and the categories they name ("cafe", "kahvila": every spot of `cafe`).
    public var categories: [String: [Category]]
    /// Folded phrases and the OSM values they name, as `key=value` ("zahnarzt":
    /// `amenity=dentist`, the spots of that value whatever their category).
    public var values: [String: [String]]
    /// Folded words that also name their values at the end of a longer name word, in the
    /// languages that compound ("museo": `tourism=museum`, met by "Taidemuseo"). The build
    /// resolves them into the index's word lists (WLST); WORD does not store them.
    public var compounds: [String: [String]]

    /// The words `categories`, `values` and `compounds`.
    public init(
        categories: [String: [Category]] = [:], values: [String: [String]] = [:],
        compounds: [String: [String]] = [:]
    ) {
        self.categories = categories
        self.values = values
        self.compounds = compounds
    }

    /// Each target that a phrase names (a category's name, or a value as `key=value`) with its
    /// phrases, both sorted.
    public var phrasesByTarget: [(target: String, phrases: [String])] {
        var phrases: [String: [String]] = [:]
        for (phrase, categories) in categories {
            for category in categories { phrases[category.rawValue, default: []].append(phrase) }
        }
        for (phrase, values) in values {
            for value in values { phrases[value, default: []].append(phrase) }
        }
        return Self.sortedLines(phrases)
    }

    /// `categories` and `values` as lines: per target its name, then its phrases, tab-separated.
    public var lines: String { Self.text(of: phrasesByTarget) }

    /// `compounds` as lines: per value its name, then its compound words, tab-separated.
    public var compoundLines: String {
        var words: [String: [String]] = [:]
        for (word, targets) in compounds {
            for target in targets { words[target, default: []].append(word) }
        }
        return Self.text(of: Self.sortedLines(words))
    }

    /// What is wrong with the text of `init(lines:compoundLines:)`.
    public struct LineError: Error, Sendable {
        /// What is wrong.
        public let message: String
    }

    /// The words of `lines` and `compoundLines`, the forms `lines` and `compoundLines` give.
    /// A line must start with a known category's name or a `key=value`.
    public init(lines: String, compoundLines: String = "") throws(LineError) {
        self.init()
        let lines = try Self.parse(lines)
        let compoundLines = try Self.parse(compoundLines)
        // Room for every phrase at once: growing rehashes every phrase so far, each time.
        let phrases = lines.reduce(0) { $0 + $1.fields.count }
        categories.reserveCapacity(phrases)
        values.reserveCapacity(phrases)
        compounds.reserveCapacity(compoundLines.reduce(0) { $0 + $1.fields.count })
        for (target, phrases) in lines {
            if let category = Category(rawValue: target) {
                for phrase in phrases { categories[phrase, default: []].append(category) }
            } else {
                for phrase in phrases { values[phrase, default: []].append(target) }
            }
        }
        for (target, words) in compoundLines {
            for word in words { compounds[word, default: []].append(target) }
        }
    }

    private static func sortedLines(_ entries: [String: [String]]) -> [(target: String, phrases: [String])] {
        entries.keys.sorted().map { ($0, entries[$0]!.sorted()) }
    }

    private static func text(of lines: [(target: String, phrases: [String])]) -> String {
        lines.map { ([$0.target] + $0.phrases).joined(separator: "\t") + "\n" }.joined()
    }

    /// The lines of `text`, each its target and the fields after it.
    private static func parse(_ text: String) throws(LineError) -> [(target: String, fields: [String])] {
        var lines: [(target: String, fields: [String])] = []
        for fields in splitFields(text) {
            guard let target = fields.first else { throw LineError(message: "an empty line") }
            let parts = target.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Category(rawValue: target) != nil || (parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty)
            else {
                throw LineError(message: "a line does not start with a known category or a key=value")
            }
            lines.append((target, Array(fields.dropFirst())))
        }
        return lines
    }

    /// The lines of `text`, each split into its tab-separated fields (empty lines left out),
    /// as splitting its characters at "\n" and "\t" does.
    ///
    /// Splitting characters costs far more than bytes, and the built-in words are read at every
    /// start, so the bytes are split when that gives the same: always but for a carriage return,
    /// which joins the newline after it into one character ("\r\n"). Tabs and newlines are
    /// controls, and a character boundary comes after a control whatever follows it (Unicode's
    /// rule GB4; a mark after one starts the next character).
    static func splitFields(_ text: String) -> [[String]] {
        guard !text.utf8.contains(0x0D) else {
            return text.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        }
        var text = text
        return text.withUTF8 { bytes in
            // Empty lines are left out; a line of tabs alone is a line without fields.
            var lines: [[String]] = []
            var fields: [String] = []
            var fieldStart = 0
            var lineStart = 0
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : 0x0A
                guard byte == 0x09 || byte == 0x0A else { continue }
                if index > fieldStart {
                    let field = UnsafeBufferPointer(rebasing: bytes[fieldStart..<index])
                    fields.append(String(decoding: field, as: UTF8.self))
                }
                fieldStart = index + 1
                guard byte == 0x0A else { continue }
                if index > lineStart { lines.append(fields) }
                fields.removeAll(keepingCapacity: true)
                lineStart = index + 1
            }
            return lines
        }
    }
}
