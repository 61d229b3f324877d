import SpotText

/// The house numbers of an index's spots that do not start with a digit (HNUM; FORMAT.md): the
/// words of one or two letters, folded, that some `addr:housenumber` holds alone ("A", "bis"
/// joined to no number). A query word of one or two letters may be a house number only when it
/// is one of them, so elsewhere it is searched as a word alone. Read on demand, every line
/// checked.
struct LetterHouseNumbers {
    private let bytes: SectionBytes

    /// The list in `bytes`.
    init(_ bytes: SectionBytes) {
        self.bytes = bytes
    }

    /// The house numbers.
    func decode() throws(IndexError) -> Set<String> {
        guard let text = String(validating: Array(bytes), as: UTF8.self) else {
            throw bytes.corrupt("is not UTF-8 text")
        }
        guard text.isEmpty || text.hasSuffix("\n") else { throw bytes.corrupt("does not end with a line feed") }
        var numbers: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let number = String(line)
            guard SearchAddress.isNumber(number), !SearchAddress.startsWithDigit(number), !number.isEmpty else {
                throw bytes.corrupt("holds \"\(number.prefix(20))\", not a house number of one or two letters")
            }
            numbers.insert(number)
        }
        return numbers
    }
}
