import Foundation
import SpotIndex
import SpotText
import Spots
import Testing

@testable import SpotSearch

/// Each stage of a search on its own: parsing, name matching, scoring, the bounded list.
@Suite("Search stages")
struct SearchStageTests {
    @Test("the parser takes the longest category phrase first and leaves the rest as name terms")
    func parser() {
        let parser = QueryParser(
            words: SearchWords(
                categories: ["coffee shop": [.cafe], "coffee": [.cafe], "bar": [.nightlife]],
                values: ["pub": ["amenity=pub"], "bar": ["amenity=bar"]]))
        let query = parser.parse("Coffee Shop near the BAR")
        #expect(query.phrases.map(\.words) == [["coffee", "shop"], ["bar"]])
        #expect(
            query.phrases[1].targets.categories.isEmpty && query.phrases[1].targets.values == ["amenity=bar"],
            "a phrase that names a value names it alone, though it is a category word too")
        #expect(parser.parse("coffee").phrases.first?.targets.categories == [.cafe])
        #expect(parser.parse("pub").phrases.first?.targets.values == ["amenity=pub"])
        #expect(query.termTexts == ["near", "the"] && !query.terms.contains(where: \.mayBeHouseNumber))
        #expect(parser.parse("Mannerheimintie 22 a").terms.map(\.mayBeHouseNumber) == [false, true, true])
        #expect(query.words == ["coffee", "shop", "near", "the", "bar"] && query.startsWithPhrase)
        #expect(!parser.parse("the bar").startsWithPhrase)
        #expect(parser.parse("").words.isEmpty)
    }

    @Test("a name matches exactly, by its beginning, by its words, or not at all")
    func nameMatch() {
        #expect(NameMatch.level(of: "Café Kiasma", terms: ["cafe", "kiasma"]) == .exact)
        #expect(NameMatch.level(of: "Café Kiasma", terms: ["cafe", "kia"]) == .prefix)
        #expect(NameMatch.level(of: "Café Kiasma", terms: ["kiasma", "cafe"]) == .words)
        #expect(NameMatch.level(of: "Café Kiasma", terms: ["kiasma", "bar"]) == nil)
        #expect(NameMatch.level(of: "姫路城", terms: ["路城"]) == .words, "a CJK substring is a word match")
        #expect(NameMatch.level(of: "姫路城", terms: ["姫路"]) == .prefix)
        var spot = Spot(
            ref: OSMRef(.node, 1), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: "amenity",
            kind: "cafe", category: .cafe, name: "Kahvila Kiasma", names: ["sv": "Kiasma"])
        spot.otherNames["alt_name"] = "Kiasma"
        #expect(
            NameMatch.best(in: spot.namesByKey, terms: ["kiasma"])! == (.exact, "name:sv"), "name:xx before alt_name")
        #expect(NameMatch.best(in: spot.namesByKey, terms: ["kahvila"])! == (.prefix, "name"))
    }

    @Test("the score is the quality without a place, and decays by e over the scale with one")
    func scoring() {
        let place = Coordinate(latitudeE7: 0, longitudeE7: 0)
        #expect(Scoring(origin: nil, scale: 2000).score(quality: 7, distance: 0) == 7)
        let scoring = Scoring(origin: place, scale: 2000)
        #expect(scoring.score(quality: 0, distance: 0) == 1)
        #expect(abs(scoring.score(quality: 10, distance: 2000) - 2 / M_E) < 1e-12)
    }

    @Test("the bounded list keeps the best in order and refuses what cannot enter")
    func topResults() {
        var top = TopResults<Int>(limit: 3)
        for (spot, key) in [5, 1, 4, 1, 3, 9, 2].enumerated() { top.offer(key, spot: spot) }
        #expect(top.entries.map(\.key) == [1, 1, 2])
        #expect(top.entries.map(\.spot) == [1, 3, 6], "ties keep the first offered")
        #expect(top.worst == 2 && top.isFull)
    }

    @Test("a kept key precedes only bounds whose best key ranks after it")
    func bounds() {
        let key = RankKey(
            sort: .relevance, level: .prefix, edits: 0, field: .primary, score: 3, distance: 0, ref: OSMRef(.node, 9))
        let quality = Scoring(origin: nil, scale: 2000)
        #expect(key.precedes(KeyBound(level: .prefix, field: .primary, score: 2), scoredBy: quality))
        #expect(!key.precedes(KeyBound(level: .prefix, field: .primary, score: 3), scoredBy: quality), "may tie")
        #expect(key.precedes(KeyBound(level: .words, field: .primary, score: 10), scoredBy: quality))
        #expect(!key.precedes(KeyBound(level: .exact, field: .other, score: 0), scoredBy: quality))
        #expect(key.precedes(KeyBound(level: .fuzzy, edits: 0, field: .primary, score: 10), scoredBy: quality))
        let typo = RankKey(
            sort: .relevance, level: .fuzzy, edits: 1, field: .other, score: 0, distance: 0, ref: OSMRef(.node, 1))
        #expect(typo.precedes(KeyBound(level: .fuzzy, edits: 2, field: .primary, score: 10), scoredBy: quality))
        #expect(!typo.precedes(KeyBound(level: .fuzzy, edits: 1, field: .primary, score: 0), scoredBy: quality))
        // With a place a bound's score is its best at no distance: 1 + quality / 10.
        let place = Scoring(origin: Coordinate(latitudeE7: 0, longitudeE7: 0), scale: 2000)
        let near = RankKey(
            sort: .relevance, level: .prefix, edits: 0, field: .primary, score: 1.45, distance: 50,
            ref: OSMRef(.node, 9))
        #expect(near.precedes(KeyBound(level: .prefix, field: .primary, score: 4), scoredBy: place))
        #expect(!near.precedes(KeyBound(level: .prefix, field: .primary, score: 5), scoredBy: place))
    }
}
