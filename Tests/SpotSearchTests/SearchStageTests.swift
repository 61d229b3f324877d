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

    @Test("a word of one or two letters may be a house number only where the index has one that is it")
    func letterHouseNumbers() {
        let parser = QueryParser(words: SearchWords())
        func numbers(_ text: String, _ letters: Set<String>?) -> [Bool] {
            parser.parse(text, letterHouseNumbers: letters).terms.map(\.mayBeHouseNumber)
        }
        #expect(numbers("La Hote S", nil) == [true, false, true], "an index that does not list them: any may be")
        #expect(numbers("La Hote S", ["s", "km"]) == [false, false, true])
        #expect(
            numbers("Rue 22 a 5", []) == [false, true, true, true], "a letter after a number, and digits, still may")
    }

    @Test("a name matches exactly, by its beginning, by its words, or not at all")
    func nameMatch() {
        func name(_ text: String) -> SearchName { SearchName(key: "name", name: text) }
        #expect(NameMatch.level(of: name("Café Kiasma"), terms: ["cafe", "kiasma"]) == .exact)
        #expect(NameMatch.level(of: name("Café Kiasma"), terms: ["cafe", "kia"]) == .prefix)
        #expect(NameMatch.level(of: name("Café Kiasma"), terms: ["kiasma", "cafe"]) == .words)
        #expect(NameMatch.level(of: name("Café Kiasma"), terms: ["kiasma", "bar"]) == nil)
        #expect(NameMatch.level(of: name("姫路城"), terms: ["路城"]) == .words, "a CJK substring is a word match")
        #expect(NameMatch.level(of: name("姫路城"), terms: ["姫路"]) == .prefix)
        var spot = Spot(
            ref: OSMRef(.node, 1), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: "amenity",
            kind: "cafe", category: .cafe, name: "Kahvila Kiasma", names: ["sv": "Kiasma"])
        spot.otherNames["alt_name"] = "Kiasma"
        let names = spot.namesByKey.map { SearchName(key: $0.key, name: $0.name) }
        #expect(NameMatch.best(in: names, terms: ["kiasma"])! == (.exact, "name:sv"), "name:xx before alt_name")
        #expect(NameMatch.best(in: names, terms: ["kahvila"])! == (.prefix, "name"))
    }

    @Test("near a place a match counts its weight over 1 + d / scale; kinds' quality reorders within 10%")
    func scoring() {
        let ref = OSMRef(.node, 1)
        func match(_ level: MatchLevel, quality: Int = 0) -> CandidateMatch {
            CandidateMatch(level: level, edits: 0, field: .primary, quality: quality)
        }
        func key(_ order: RankOrder, _ match: CandidateMatch, at distance: Double) -> RankKey {
            order.key(match, fit: .best, distance: distance, ref: ref)
        }
        let relevance = RankOrder.relevance(namedKindsFirst: false)
        #expect(relevance.shownScore(of: key(relevance, match(.prefix, quality: 7), at: 0)) == 7)
        let near = RankOrder.near(scale: 100)
        #expect(abs(near.shownScore(of: key(near, match(.exact), at: 0)) - 1) < 1e-12)
        #expect(abs(near.shownScore(of: key(near, match(.exact), at: 100)) - 0.5) < 1e-12, "halved at the scale")
        #expect(abs(near.shownScore(of: key(near, match(.prefix, quality: 10), at: 300)) - 0.5 * 1.5 / 4) < 1e-12)
        #expect(
            key(near, match(.exact), at: 1990) < key(near, match(.prefix), at: 1000), "a whole name: up to 2x as far")
        #expect(key(near, match(.prefix), at: 1000) < key(near, match(.exact), at: 2200))
        #expect(key(near, match(.prefix), at: 1000) < key(near, match(.words), at: 900))
        let kinds = RankOrder.kindsNear
        #expect(key(kinds, match(.category, quality: 10), at: 1090) < key(kinds, match(.category), at: 1000))
        #expect(key(kinds, match(.category), at: 1000) < key(kinds, match(.category, quality: 10), at: 1110))
        let missed = kinds.key(
            match(.exact, quality: 10), fit: KindFit(missed: true, targetsMet: 0), distance: 0, ref: ref)
        #expect(key(kinds, match(.category), at: 50_000) < missed, "spots of the kinds before names of others")
    }

    @Test("the bounded list keeps the best in order and refuses what cannot enter")
    func topResults() {
        var top = TopResults<Int>(limit: 3)
        for (spot, key) in [5, 1, 4, 1, 3, 9, 2].enumerated() { top.offer(key, spot: spot) }
        #expect(top.entries.map(\.key) == [1, 1, 2])
        #expect(top.entries.map(\.spot) == [1, 3, 6], "ties keep the first offered")
        #expect(top.worst == 2 && top.isFull)
    }

    @Test("a spot set answers as a set of its members, whether kept sorted or as bits", arguments: [3, 40_000])
    func spotSet(members count: Int) {
        // Out of a million spots, 3 members are kept sorted and 40,000 as bits.
        let spots = 1_000_000
        let members = (0..<count).map { ($0 * 7_919 + 13) % spots } + [13]
        var set = SpotSet(members, estimatedCount: members.count, count: spots)
        let expected = Set(members)
        #expect(set.members == expected.sorted())
        #expect((0..<2_000).allSatisfy { set.contains($0) == expected.contains($0) })
        let outsider = (0..<spots).first { !expected.contains($0) }!
        #expect(!set.insert(13) && set.insert(outsider) && set.contains(outsider))
        #expect(set.members.count == expected.count + 1)
    }

    @Test("a run's best key ranks after a kept key only when no spot of the run can beat it")
    func bounds() {
        let relevance = RankOrder.relevance(namedKindsFirst: false)
        let match = CandidateMatch(level: .prefix, edits: 0, field: .primary, quality: 3)
        let key = relevance.key(match, fit: .best, distance: 0, ref: OSMRef(.node, 9))
        func after(_ bound: KeyBound, in order: RankOrder = relevance) -> Bool { key < order.bestKey(of: bound) }
        #expect(after(KeyBound(level: .prefix, field: .primary, score: 2)))
        #expect(!after(KeyBound(level: .prefix, field: .primary, score: 3)), "may tie")
        #expect(after(KeyBound(level: .words, field: .primary, score: 10)))
        #expect(!after(KeyBound(level: .exact, field: .other, score: 0)))
        #expect(after(KeyBound(level: .fuzzy, edits: 0, field: .primary, score: 10)))
        let typo = relevance.key(
            CandidateMatch(level: .fuzzy, edits: 1, field: .other, quality: 0), fit: .best, distance: 0,
            ref: OSMRef(.node, 1))
        #expect(typo < relevance.bestKey(of: KeyBound(level: .fuzzy, edits: 2, field: .primary, score: 10)))
        #expect(!(typo < relevance.bestKey(of: KeyBound(level: .fuzzy, edits: 1, field: .primary, score: 0))))
        // Near a place a bound's best key is at no distance; farther, it is lowered by the cost.
        let near = RankOrder.near(scale: 100)
        let kept = near.key(match, fit: .best, distance: 50, ref: OSMRef(.node, 9))
        #expect(!(kept < near.bestKey(of: KeyBound(level: .prefix, field: .primary, score: 0))))
        let at60 = near.cost(ofDistance: 60)
        let at50 = near.cost(ofDistance: 50)
        #expect(kept < near.bestKey(of: KeyBound(level: .prefix, field: .primary, score: 0)).lowered(by: at60))
        #expect(kept < near.bestKey(of: KeyBound(level: .words, field: .primary, score: 3)).lowered(by: at50))
    }
}
