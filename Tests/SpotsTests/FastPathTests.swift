import Testing

@testable import Spots

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
}
