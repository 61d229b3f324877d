import SpotText
import Testing

@Suite("Value lists")
struct ValueListTests {
    @Test("items split on ';' and ',', trimmed and lowercased; an '&' or 'and' list gives its members after it")
    func items() {
        #expect(ValueList.items(of: "pizza") == ["pizza"])
        #expect(ValueList.items(of: "Italian; Pizza") == ["italian", "pizza"])
        #expect(ValueList.items(of: "italian,pizza") == ["italian", "pizza"])
        #expect(ValueList.items(of: "Pizza & Kebab") == ["pizza & kebab", "pizza", "kebab"])
        #expect(ValueList.items(of: "Pizza＆Kebab;burger") == ["pizza＆kebab", "pizza", "kebab", "burger"])
        #expect(ValueList.items(of: "fish and chips") == ["fish and chips", "fish", "chips"])
        #expect(ValueList.items(of: "fish_and_chips") == ["fish_and_chips"], "underscores are one value")
        #expect(ValueList.items(of: " ;, & ;kebab,") == ["&", "kebab"])
    }
}
