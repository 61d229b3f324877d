import Spots

/// The words of search queries that name what a place is, as the build stores them (WORD).
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
}

/// The search words (WORD; FORMAT.md) of an index built with words other than the built-in
/// ones: a line per category or OSM value, its name (a category, or `key=value`), then
/// tab-separated the folded query phrases that name it. Read on demand, every line checked.
struct CategoryWordTable {
    private let bytes: SectionBytes

    /// The table in `bytes`.
    init(_ bytes: SectionBytes) {
        self.bytes = bytes
    }

    /// Each phrase with the categories and the values it names.
    func decode() throws(IndexError) -> SearchWords {
        var words = SearchWords()
        // Split as text, not bytes, as the writer joined it: a tab or newline that a combining
        // mark follows is part of one character, and splits nothing.
        for line in String(decoding: Array(bytes), as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard let name = fields.first else { throw bytes.corrupt("an empty line") }
            if let category = Category(rawValue: String(name)) {
                for word in fields.dropFirst() { words.categories[String(word), default: []].append(category) }
            } else if let equals = name.firstIndex(of: "="), equals != name.startIndex,
                name.index(after: equals) != name.endIndex
            {
                for word in fields.dropFirst() { words.values[String(word), default: []].append(String(name)) }
            } else {
                throw bytes.corrupt("a line does not start with a known category or a key=value")
            }
        }
        return words
    }
}
