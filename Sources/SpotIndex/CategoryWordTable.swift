import Spots

/// The category words (WORD; FORMAT.md): a line per category, its name, then tab-separated the
/// folded query phrases that name it. Read on demand, every line checked.
struct CategoryWordTable {
    private let bytes: SectionBytes

    /// The table in `bytes`.
    init(_ bytes: SectionBytes) {
        self.bytes = bytes
    }

    /// Each phrase with the categories it names.
    func decode() throws(IndexError) -> [String: [Category]] {
        var words: [String: [Category]] = [:]
        // Split as text, not bytes, as the writer joined it: a tab or newline that a combining
        // mark follows is part of one character, and splits nothing.
        for line in String(decoding: Array(bytes), as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard let name = fields.first, let category = Category(rawValue: String(name)) else {
                throw bytes.corrupt("a line does not start with a known category")
            }
            for word in fields.dropFirst() { words[String(word), default: []].append(category) }
        }
        return words
    }
}
