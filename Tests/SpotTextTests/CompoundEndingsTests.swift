import SpotText
import Testing

@Suite("Compound endings")
struct CompoundEndingsTests {
    static let endings = CompoundEndings(
        SearchWords(compounds: ["museo": ["tourism=museum"], "kahvila": ["amenity=cafe"], "bar": ["amenity=bar"]]))

    @Test("a name word longer than a compound word it ends with names that word's targets")
    func endingNames() {
        #expect(Self.endings.targets(ofNameWord: Array("taidemuseo".utf8)) == ["tourism=museum"])
        #expect(Self.endings.targets(ofNameWord: Array("nurkkakahvila".utf8)) == ["amenity=cafe"])
    }

    @Test("the compound word alone, another ending, or the word inside a longer one names nothing")
    func othersNameNothing() {
        for word in ["museo", "museot", "taidemuseon", "barr", "", "ä"] {
            #expect(Self.endings.targets(ofNameWord: Array(word.utf8)).isEmpty, "\(word)")
        }
        #expect(CompoundEndings(SearchWords()).isEmpty)
        #expect(!Self.endings.isEmpty)
    }

    @Test("an ending is matched on whole characters: a multibyte letter is not cut")
    func wholeCharacters() {
        let endings = CompoundEndings(SearchWords(compounds: ["ä": ["x=y"]]))
        #expect(endings.targets(ofNameWord: Array("kä".utf8)) == ["x=y"])
        #expect(endings.targets(ofNameWord: Array("kå".utf8)).isEmpty)
    }
}
