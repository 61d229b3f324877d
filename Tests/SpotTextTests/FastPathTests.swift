import Testing

@testable import SpotText

/// The byte-level path for ASCII text gives what the Unicode path gives.
@Suite("Search text's ASCII path")
struct ASCIIWordsTests {
    @Test("every ASCII character, alone, doubled and between letters, splits and folds as the Unicode path does")
    func matchesUnicodePath() {
        for byte in UInt8(0)..<128 {
            let character = String(decoding: [byte], as: UTF8.self)
            for text in [character, character + character, "Ab" + character + "cD", character + "Zz9" + character] {
                #expect(SearchText.asciiWords(text) == SearchText.unicodeWords(text), "\(Array(text.utf8))")
            }
        }
    }

    @Test("random ASCII strings split and fold as the Unicode path does")
    func matchesOnRandomText() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            let bytes = (0..<(Int(state % 23))).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(state >> 57)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(SearchText.asciiWords(text) == SearchText.unicodeWords(text), "\(bytes)")
        }
    }

    @Test("text with a character beyond ASCII is left to the other paths")
    func leavesOtherText() {
        #expect(SearchText.asciiWords("Café Kiasma") == nil && SearchText.asciiWords("Kiasma ’s") == nil)
        #expect(SearchText.words("Café Kiasma") == ["cafe", "kiasma"])
    }
}

/// The per-character path for Latin text gives what the Unicode path gives.
@Suite("Search text's Latin path")
struct LatinWordsTests {
    /// Every character below U+0250.
    static let latin = (0..<0x250).map { String(Unicode.Scalar(UInt32($0))!) }

    @Test(
        "every Latin character, alone, doubled, between letters and beside a mark-bearing one, folds as the Unicode path does"
    )
    func matchesUnicodePath() {
        var folded = 0
        for character in Self.latin {
            for text in [
                character, character + character, "Ab" + character + "cD", "é" + character + "ß",
                character + "Ö9" + character,
            ] {
                guard let words = SearchText.latinWords(text) else { continue }
                folded += 1
                #expect(words == SearchText.unicodeWords(text), "\(text.unicodeScalars.map(\.value))")
            }
        }
        #expect(folded > 5 * 0x200, "the Latin path folds nearly every Latin text")
    }

    @Test("random Latin strings, and ones with a character from beyond, fold as the Unicode path does")
    func matchesOnRandomText() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let beyond = ["\u{301}", "\u{308}", "ё", "ς", "カ", "\u{2044}", "İ"]
        for round in 0..<3000 {
            var text = (0..<next(12)).map { _ in Self.latin[next(Self.latin.count)] }.joined()
            if round % 3 == 0 { text.insert(contentsOf: beyond[next(beyond.count)], at: text.startIndex) }
            #expect(SearchText.words(text) == SearchText.unicodeWords(text), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
