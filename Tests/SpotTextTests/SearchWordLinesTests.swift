import SpotBuiltInWords
import Testing

@testable import SpotText

/// Splitting word lines by bytes, where it gives what splitting by characters gives.
@Suite("Search word lines")
struct SearchWordLinesTests {
    /// What splitting `text` into lines and fields by characters gives.
    private func characterSplit(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
    }

    @Test("the built-in words split by bytes as by characters, and read back the same")
    func builtInWordsSplitAlike() throws {
        let lines = SearchWords.builtIn.lines
        #expect(SearchWords.splitFields(lines) == characterSplit(lines))
        let compounds = SearchWords.builtIn.compoundLines
        #expect(SearchWords.splitFields(compounds) == characterSplit(compounds))
        #expect(try SearchWords(lines: lines, compoundLines: compounds) == SearchWords.builtIn)
    }

    @Test("marks after tabs and newlines, carriage returns and empty fields split as by characters")
    func oddTextSplitsAlike() {
        for text in [
            "cafe\tkahvila\n\tmuseo", "cafe\t\u{301}x\tb", "a\n\u{301}b\tc", "a\r\nb\tc", "\n\na\t\tb\n", "", "a=b",
            "kahvila\tcafé\nmuseum\tmuséo", "a\n\t\t\nb", "\t", "x\ty\n",
        ] {
            #expect(SearchWords.splitFields(text) == characterSplit(text), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
