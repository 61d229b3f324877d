import SpotText
import Spots
import Testing

/// Folding names and queries into words (`SearchText`), beyond case, width and Latin accents.
@Suite("Search text folding")
struct SearchTextTests {
    @Test(
        "spellings written either way fold alike: ß and ss, ё and е, Greek accents and final sigma, Arabic alef, yeh and tatweel",
        arguments: [
            ("Straße", "strasse"), ("STRASSE", "strasse"), ("Ёлка", "елка"), ("Οδός Ερμού", "οδοσ ερμου"),
            ("ΟΔΟΣ", "οδοσ"), ("أحمد", "احمد"), ("إبراهيم", "ابراهيم"), ("آمنة", "امنة"), ("ٱلله", "الله"),
            ("مستشفى", "مستشفي"), ("کافی شاپ", "کافي شاپ"), ("قهـــوة", "قهوة"), ("Café Zoë", "cafe zoe"),
        ])
    func foldsAlike(_ text: String, _ folded: String) {
        #expect(SearchText.words(text).joined(separator: " ") == folded)
    }

    @Test(
        "marks typists leave out fold away: Vietnamese tones, Hebrew points, Devanagari and Thai vowel signs and tones",
        arguments: [
            ("Nhà hàng Phở Hà Nội", "nha hang pho ha noi"), ("שָׁלוֹם", "שלום"), ("ร้านกาแฟ", "รานกาแฟ"),
            ("दुकान", "दकन"),
        ])
    func dropsTypedMarks(_ text: String, _ folded: String) {
        #expect(SearchText.words(text).joined(separator: " ") == folded)
    }

    @Test("a Thai word, written without spaces, is found by every suffix, as Chinese and Japanese are")
    func thaiSuffixes() {
        let tokens = SearchText.tokens(ofName: "ร้านกาแฟดี").map(\.token)
        #expect(tokens.first == "รานกาแฟด", "folded: the tone mark and the vowel sign of ดี dropped")
        #expect(tokens.contains("กาแฟด"))
    }

    @Test("a word an apostrophe splits is also found whole, as typed without it")
    func apostropheJoins() {
        #expect(SearchText.tokens(ofName: "McDonald's").map(\.token) == ["mcdonald", "s", "mcdonalds"])
        #expect(SearchText.tokens(ofName: "L\u{2019}Escale").map(\.token) == ["l", "escale", "lescale"])
        #expect(SearchText.tokens(ofName: "Café Engel").map(\.token) == ["cafe", "engel"])
    }

    @Test("letters that marks make different stay apart: й and и, ї and і, Japanese voicing")
    func keepsDistinctLetters() {
        #expect(SearchText.words("Йога") == ["йога"])
        #expect(SearchText.words("Київ") == ["київ"])
        #expect(SearchText.words("パン") != SearchText.words("ハン"))
    }
}
