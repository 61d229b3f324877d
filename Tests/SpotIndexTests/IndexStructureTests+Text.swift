import Foundation
import SeededRandom
import SpotIndex
import SpotTestSupport
import SpotText
import Spots
import Testing

/// The text index: tokens, posting lists and prefix search.
extension IndexStructureTests {
    /// The spots whose tokens start with `query` (one folded word), each with the best (lowest)
    /// group key among those tokens.
    static func search(_ reader: SpotIndexReader, _ query: String) throws -> [OSMRef: PostingGroup.Key] {
        let words = SearchText.words(query)
        precondition(words.count == 1, "one word: \(query)")
        var found: [OSMRef: PostingGroup.Key] = [:]
        for (spot, key) in try reader.allPostings(ofTokens: try reader.tokens(withPrefix: Array(words[0].utf8))) {
            let ref = try reader.ref(at: spot)
            found[ref] = min(key, found[ref] ?? key)
        }
        return found
    }

    static let namedSpots: [Spot] = {
        func spot(
            _ id: Int64, _ name: String?, _ latitudeE7: Int32, names: [String: String] = [:],
            other: [String: String] = [:]
        ) -> Spot {
            var spot = Spot(
                ref: OSMRef(.node, id),
                coordinate: Coordinate(latitudeE7: latitudeE7, longitudeE7: 1_000_000 * Int32(id))!,
                tagKey: "amenity", kind: "cafe", category: .cafe, name: name, names: names)
            spot.otherNames = other
            return spot
        }
        return [
            spot(1, "Café Central", 480_000_000, names: ["de": "Kaffeehaus Zentral"]),
            spot(2, "Central Station", 10_000_000, other: ["alt_name": "Rautatieasema"]),
            spot(3, "姫路城", 348_000_000, names: ["ja": "姫路城", "en": "Himeji Castle"]),
            spot(4, "東京タワー", 356_000_000),
            spot(5, "서울역", 375_000_000),
            spot(6, "Ｃａｆｅ Ｌｕｎａ", -10_000_000),
            spot(7, "Zürich Hauptbahnhof", 473_000_000),
            spot(8, "Санкт-Петербург", 599_000_000),
            spot(9, "Ōsaka 大阪駅", 347_000_000),
            spot(10, nil, 0),
            spot(11, "Kiasma Bikes", 601_700_000, other: ["alt_name": "Kiasma"]),
        ]
    }()

    @Test("the text index finds name words by prefix, CJK names by any substring, in every kind of name")
    func textSearch() throws {
        func refs(_ ids: Int64...) -> Set<OSMRef> { Set(ids.map { OSMRef(.node, $0) }) }
        try Self.withReader(Self.namedSpots) { reader throws in
            let cases: [(String, Set<OSMRef>)] = [
                ("caf", refs(1, 6)), ("CAFÉ", refs(1, 6)), ("Ｃａｆ", refs(1, 6)), ("central", refs(1, 2)),
                ("cent", refs(1, 2)),
                ("zentral", refs(1)), ("kaffee", refs(1)), ("rautatie", refs(2)), ("himeji", refs(3)),
                ("castle", refs(3)),
                ("zur", refs(7)), ("hauptbahn", refs(7)), ("петер", refs(8)), ("санкт", refs(8)), ("osa", refs(9)),
                ("luna", refs(6)), ("kiasma", refs(11)), ("bikes", refs(11)),
                // CJK: any substring, since every suffix is a token.
                ("姫", refs(3)), ("路", refs(3)), ("路城", refs(3)), ("城", refs(3)), ("姫路城", refs(3)),
                ("タワ", refs(4)), ("ワー", refs(4)), ("京タ", refs(4)), ("울", refs(5)), ("울역", refs(5)), ("阪駅", refs(9)),
                ("駅", refs(9)),
                // Latin, Cyrillic: words by prefix only, not inside a word.
                ("entral", []), ("bahnhof", []), ("тербург", []), ("astle", []), ("x", []),
            ]
            for (query, expected) in cases {
                #expect(Set(try Self.search(reader, query).keys) == expected, "\(query)")
            }
            // The best place a token has in the spot's names, in which kind of name; these spots score 0.
            func key(_ place: TokenPlace, _ field: NameField = .primary) -> PostingGroup.Key {
                PostingGroup.Key(place: place, field: field, score: 0)
            }
            // "central" starts "Central Station" but not "Café Central".
            #expect(
                try Self.search(reader, "central") == [
                    OSMRef(.node, 1): key(.inName), OSMRef(.node, 2): key(.nameStart),
                ])
            #expect(try Self.search(reader, "zentral") == [OSMRef(.node, 1): key(.inName)])
            #expect(try Self.search(reader, "kaffee") == [OSMRef(.node, 1): key(.nameStart)])
            #expect(try Self.search(reader, "castle") == [OSMRef(.node, 3): key(.inName)])
            #expect(try Self.search(reader, "himeji") == [OSMRef(.node, 3): key(.nameStart)])
            #expect(try Self.search(reader, "路城") == [OSMRef(.node, 3): key(.inName)])
            #expect(try Self.search(reader, "姫路") == [OSMRef(.node, 3): key(.wholeName)])
            #expect(try Self.search(reader, "rautatieasema") == [OSMRef(.node, 2): key(.wholeName, .other)])
            #expect(try Self.search(reader, "大阪") == [OSMRef(.node, 9): key(.inName)])
            // The other name's whole word beats the name's first word: place ranks before field.
            #expect(try Self.search(reader, "kiasma") == [OSMRef(.node, 11): key(.wholeName, .other)])
            #expect(try Self.search(reader, "bikes") == [OSMRef(.node, 11): key(.inName)])
        }
    }

    @Test(
        "the reader gives each token's spots as the names give them, in groups by the best place, name field and score, keys ascending, each in reference order",
        arguments: [91, 92] as [UInt64])
    func textTables(seed: UInt64) throws {
        var factory = SpotFactory(seed: seed)
        let spots = factory.uniqueSpots(200, excluding: Set(Self.namedSpots.map(\.ref))) + Self.namedSpots
        let expected = ExpectedIndex(spots)
        var keysSeen: Set<PostingGroup.Key> = []
        try Self.withReader(spots) { reader in
            #expect(reader.tokenCount == expected.tokens.count)
            #expect(try reader.tokens(withPrefix: []) == 0..<expected.tokens.count, "every token has the empty prefix")
            let spotOfRank = try (0..<reader.count).map { try reader.spot(atRank: $0) }
            #expect(try spotOfRank.map { try reader.ref(at: $0) } == expected.refs)
            for (number, token) in expected.tokens.enumerated() {
                let comment: Comment = "token \(String(decoding: token, as: UTF8.self).debugDescription)"
                let want = expected.postings[number]
                let read = try reader.postingRanks(ofToken: number)
                #expect(read.map(\.key) == want.map(\.key), comment)
                #expect(read.map(\.ranks) == want.map(\.ranks), comment)
                #expect(zip(read, read.dropFirst()).allSatisfy { $0.key < $1.key }, comment)
                keysSeen.formUnion(read.map(\.key))
                // A spot comes once per place at most: under each place and field its names give
                // the token that no other beats in both.
                for rank in Set(read.flatMap(\.ranks)) {
                    let keys = read.filter { $0.ranks.contains(rank) }.map(\.key)
                    #expect(Set(keys.map(\.place)).count == keys.count, comment)
                    #expect(
                        keys.allSatisfy { a in keys.allSatisfy { b in a == b || a.place > b.place || a.field > b.field }
                        },
                        comment)
                }
                // A token is found by itself as a prefix, first of the tokens it starts.
                let range = try reader.tokens(withPrefix: token)
                #expect(range.lowerBound == number, comment)
                #expect(
                    range.upperBound == expected.tokens[number...].firstIndex { !$0.starts(with: token) }
                        ?? expected.tokens.count, comment)
            }
        }
        #expect(Set(keysSeen.map(\.place)) == Set(TokenPlace.allCases), "every place")
        #expect(Set(keysSeen.map(\.field)) == Set(NameField.allCases), "both fields")
        #expect(Set(keysSeen.map(\.score)).count > 3, "several scores")
    }

    @Test("every word of every name is found by each of its prefixes, every CJK word by each of its substrings")
    func everyWordFound() throws {
        var factory = SpotFactory(seed: 93)
        let spots = factory.uniqueSpots(150, excluding: Set(Self.namedSpots.map(\.ref))) + Self.namedSpots
        try Self.withReader(spots) { reader in
            var memo: [String: Set<Int>] = [:]
            func found(_ query: String) throws -> Set<Int> {
                if let known = memo[query] { return known }
                var result: Set<Int> = []
                result.formUnion(
                    try reader.allPostings(ofTokens: try reader.tokens(withPrefix: Array(query.utf8))).map(\.spot))
                memo[query] = result
                return result
            }
            var queries = 0
            var cjkWords = 0
            for spot in spots {
                let position = try #require(try reader.spotNumber(for: spot.ref))
                for name in spot.allNames {
                    for word in SearchText.words(name) {
                        let characters = Array(word)
                        let isCJK = word.unicodeScalars.contains {
                            (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value)
                                || (0xAC00...0xD7AF).contains($0.value)
                        }
                        if isCJK { cjkWords += 1 }
                        for start in isCJK ? Array(characters.indices) : [0] {
                            for end in (start + 1)...characters.count {
                                let query = String(characters[start..<end])
                                queries += 1
                                #expect(
                                    try found(query).contains(position),
                                    "\(spot.ref) by \(query.debugDescription) of \(name.debugDescription)")
                            }
                        }
                    }
                }
            }
            #expect(queries > 1_000)
            #expect(cjkWords > 10)
        }
    }
}
