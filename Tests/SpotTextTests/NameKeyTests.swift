import Testing

@testable import SpotText

@Suite("Normalized names")
struct NameKeyTests {
    @Test(
        "case, diacritics, width, white space and punctuation fold together",
        arguments: [
            ["Café  Central", "CAFE CENTRAL", "Ｃａｆｅ Ｃｅｎｔｒａｌ", "café-central", " Cafe\tCentral. "],
            ["スターバックス", "ｽﾀｰﾊﾞｯｸｽ", "スターバックス "],
            ["Кофе Хауз", "КОФЕ  ХАУЗ", "кофе-хауз"],
            ["Müller & Söhne", "MULLER & SOHNE", "muller&sohne"],
        ])
    func foldsSpellings(_ spellings: [String]) {
        let keys = Set(spellings.map(NameKey.normalize))
        #expect(keys.count == 1, "\(keys)")
    }

    @Test(
        "marks that make other letters are kept", arguments: [("ハン", "バン"), ("バン", "パン"), ("Мой", "Мои"), ("é", "ë")])
    func keepsDistinctLetters(_ a: String, _ b: String) {
        if a == "é" {
            #expect(NameKey.normalize(a) == NameKey.normalize(b))  // Latin diacritics do fold
        } else {
            #expect(NameKey.normalize(a) != NameKey.normalize(b))
        }
    }

    @Test("a name of punctuation alone has an empty key")
    func emptyKey() {
        #expect(NameKey.normalize(" - . ").isEmpty)
        #expect(NameKey.normalize("7-Eleven") == "7eleven")
    }
}
