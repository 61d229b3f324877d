import Testing

@testable import Spots

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

@Suite("Distances")
struct DistanceTests {
    @Test("haversine on the mean Earth radius")
    func haversine() {
        let a = Coordinate(latitudeE7: 0, longitudeE7: 0)!
        let b = Coordinate(latitudeE7: 10_000_000, longitudeE7: 0)!
        #expect(abs(a.distance(to: b) - 111_195.08) < 0.01)
        let west = Coordinate(latitudeE7: 0, longitudeE7: 1_799_999_999)!
        let east = Coordinate(latitudeE7: 0, longitudeE7: -1_799_999_999)!
        #expect(west.distance(to: east) < 0.03)
        #expect(a.distance(to: a) == 0)
    }
}
