import SpotText

/// The search words (WORD; FORMAT.md) of an index built with words other than the built-in
/// ones, in `SearchWords.lines` form: a line per category or OSM value, its name (a category, or
/// `key=value`), then tab-separated the folded query phrases that name it. Read on demand,
/// every line checked.
struct CategoryWordTable {
    private let bytes: SectionBytes

    /// The table in `bytes`.
    init(_ bytes: SectionBytes) {
        self.bytes = bytes
    }

    /// Each phrase with the categories and the values it names.
    func decode() throws(IndexError) -> SearchWords {
        do throws(SearchWords.LineError) {
            return try SearchWords(lines: String(decoding: Array(bytes), as: UTF8.self))
        } catch {
            throw bytes.corrupt(error.message)
        }
    }
}
