import Testing

@testable import SpotPipeline

/// The normalize stage's byte check (`NormalizeStage.isTidy`) never calls text tidy that the
/// Character-level tidying would change.
@Suite("Tidying attribute values")
struct TidyTests {
    /// Every White_Space scalar, some look-alikes that are not white space, a combining mark
    /// and plain letters.
    private static let pieces = [
        " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2007}",
        "\u{200A}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{301}", "\u{2019}",
        "\u{20AC}", "–", "é", "a", "Zz", "カフェ", "·",
    ]

    @Test("tidy equals splitting at white space Characters and joining with one space, on every pair and triple")
    func agreesWithCharacterTidying() {
        for first in Self.pieces {
            for second in Self.pieces {
                for third in ["", "x"] + Self.pieces {
                    for text in [first + second + third, "a" + first + second + "b" + third] {
                        let reference = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                        #expect(NormalizeStage.tidy(text) == reference, "\(text.unicodeScalars.map(\.value))")
                        if NormalizeStage.isTidy(text) { #expect(reference == text) }
                    }
                }
            }
        }
    }

    @Test("ordinary values are tidy as they are")
    func ordinaryValuesAreTidy() {
        for text in ["Café de Paris", "Mannerheimintie 22", "カフェ", "Ravintola–Kahvila", "Caf\u{E9}", "A", ""] {
            #expect(NormalizeStage.isTidy(text))
        }
        // A space before a non-ASCII character goes the slow way: it might be a mark.
        for text in [" a", "a ", "a  b", "a\u{A0}b", "a \u{301}b", "a – b"] { #expect(!NormalizeStage.isTidy(text)) }
    }
}
