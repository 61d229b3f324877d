import Foundation
import SeededRandom
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotSearch

/// Typos forgiven (docs/search.md, "Typos"): how many edits a word forgives, the edits between a word and
/// a token, the walk over the sorted tokens that finds every token within reach, and the fuzzy
/// level of search.
@Suite("Typos")
struct TypoTests {
    @Test("4 to 7 letters forgive one edit, 8 or more two; shorter words, digits and CJK none")
    func tolerance() {
        let cases: [(String, Int)] = [
            ("caf", 0), ("cafe", 1), ("kahvila", 1), ("kaupunki", 2), ("restaurant", 2), ("музей", 1),
            ("東京タワー", 0), ("タワーtower", 0), ("7eleven", 0), ("a1b2c3d4", 0),
        ]
        for (word, edits) in cases {
            #expect(FuzzyWord(word, isLast: false).maxEdits == edits, "\(word)")
        }
        #expect(FuzzyWord("restaurant", isLast: false, forgiving: false).maxEdits == 0)
    }

    /// A word of a few Latin and Cyrillic letters, with and without diacritics, so that random
    /// words are often a few edits apart.
    static func randomWord(_ lengths: ClosedRange<Int>, using random: inout SplitMix64) -> String {
        let letters = Array("abcdeäжи".unicodeScalars)
        return String(
            String.UnicodeScalarView(
                (0..<Int.random(in: lengths, using: &random)).map { _ in letters.randomElement(using: &random)! }))
    }

    @Test("edits between a word and a token are the oracle's, as a whole word and as the last (a prefix)")
    func editsAgreeWithTheTable() {
        var random = SplitMix64(seed: 19)
        func word(_ lengths: ClosedRange<Int>) -> String { Self.randomWord(lengths, using: &random) }
        for _ in 0..<20_000 {
            let query = word(1...10)
            let token = word(1...12)
            for isLast in [false, true] {
                let got = FuzzyWord(query, isLast: isLast).edits(to: token)
                let want = Oracle.edits(query, token, isLast: isLast, forgiving: true)
                #expect(got == want, "\(query) → \(token), last: \(isLast)")
            }
        }
        #expect(FuzzyWord("pnada", isLast: false).edits(to: "panda") == 1, "a swap is one edit")
        #expect(FuzzyWord("resturant", isLast: false).edits(to: "restaurant") == 1)
        #expect(FuzzyWord("resturan", isLast: true).edits(to: "restaurants") == 1)
        #expect(FuzzyWord("resturan", isLast: false).edits(to: "restaurants") == nil)
        #expect(FuzzyWord("muse", isLast: false).edits(to: "museum") == 0, "a token that starts with the word")
    }

    @Test("bit-parallel edits are the table's, uncapped: the whole token's and the best prefix's, up to 64 scalars")
    func bitParallelEditsAgreeWithTheTable() throws {
        var random = SplitMix64(seed: 31)
        /// The optimal-string-alignment table of `word` against `token`: its last cell, and the
        /// fewest edits between the whole word and a prefix of the token.
        func table(_ word: [UInt32], _ token: [UInt32]) -> (whole: Int, bestPrefix: Int) {
            var rows = [[Int]](repeating: [Int](repeating: 0, count: word.count + 1), count: token.count + 1)
            for j in 0...word.count { rows[0][j] = j }
            var best = word.count
            for d in stride(from: 1, through: token.count, by: 1) {
                rows[d][0] = d
                for j in stride(from: 1, through: word.count, by: 1) {
                    var cell = min(
                        rows[d - 1][j] + 1, rows[d][j - 1] + 1,
                        rows[d - 1][j - 1] + (word[j - 1] == token[d - 1] ? 0 : 1))
                    if d > 1, j > 1, word[j - 1] == token[d - 2], word[j - 2] == token[d - 1] {
                        cell = min(cell, rows[d - 2][j - 2] + 1)
                    }
                    rows[d][j] = cell
                }
                best = min(best, rows[d][word.count])
            }
            return (rows[token.count][word.count], best)
        }
        for round in 0..<20_000 {
            let lengths = round % 10 == 0 ? 55...64 : 1...12
            let word = Self.randomWord(lengths, using: &random).unicodeScalars.map(\.value)
            let token = Self.randomWord(round % 10 == 0 ? 0...70 : 0...14, using: &random).unicodeScalars.map(\.value)
            let edits = try #require(BitParallelEdits(word: word)).edits(to: token)
            let want = table(word, token)
            #expect(edits.whole == want.whole && edits.bestPrefix == want.bestPrefix, "\(word) → \(token)")
        }
        #expect(BitParallelEdits(word: []) == nil)
        #expect(BitParallelEdits(word: [UInt32](repeating: 97, count: 65)) == nil)
    }

    @Test("the walk over the one-word category phrases finds each phrase a word means, with its edits, as one by one")
    func phraseWalkFindsWhatEachPhraseGives() {
        var random = SplitMix64(seed: 23)
        func word(_ lengths: ClosedRange<Int>) -> String { Self.randomWord(lengths, using: &random) }
        let texts = Set((0..<2_000).map { _ in word(1...11) })
        let targets = PhraseTargets(categories: [.cafe])
        let phrases = OneWordPhrases(
            texts.map { OneWordPhrases.Phrase(scalars: $0.unicodeScalars.map(\.value), targets: targets) })
        for _ in 0..<2_000 {
            for spent in [0, 1] {
                let query = FuzzyWord(word(4...10), isLast: false, spent: spent)
                let got = phrases.matches(of: query).map { "\($0.phrase.scalars) \($0.edits)" }
                let want = texts.compactMap { text in
                    let scalars = text.unicodeScalars.map(\.value)
                    return query.edits(toScalars: scalars).map { "\(scalars) \($0)" }
                }
                #expect(got.sorted() == want.sorted(), "\(query.text), spent \(spent)")
            }
        }
    }

    @Test("the walk over the sorted tokens finds each token within reach once, with its edits, for any word")
    func walkFindsWhatTheTableDoes() throws {
        var random = SplitMix64(seed: 8)
        func word(_ lengths: ClosedRange<Int>) -> String { Self.randomWord(lengths, using: &random) }
        let spots = (0..<3_000).map { number in
            Spot(
                ref: OSMRef(.node, Int64(number)), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!,
                tagKey: "amenity", kind: "cafe", category: .cafe, name: word(1...9) + " " + word(1...12))
        }
        let index = try openIndex(of: spots)
        let tokens = try (0..<index.tokenCount).map { String(decoding: try index.token($0), as: UTF8.self) }
        #expect(tokens.count > 4_000)
        for _ in 0..<100 {
            let query = word(3...10)
            for isLast in [false, true] {
                let matches = try FuzzyWord(query, isLast: isLast).tokenMatches(in: index)
                let got = matches.flatMap { match in match.tokens.map { ($0, match.edits) } }
                let want = tokens.enumerated().compactMap { number, token in
                    Oracle.edits(query, token, isLast: isLast, forgiving: true).map { (number, $0) }
                }
                #expect(got.map(\.0) == want.map(\.0), "\(query), last: \(isLast)")
                #expect(got.map(\.1) == want.map(\.1), "\(query), last: \(isLast)")
            }
        }
    }

    /// A cafe named `name` at `metres` north of the equator's 25th meridian.
    static func spot(_ id: Int64, _ name: String?, _ category: Category = .cafe, kind: String? = nil) -> Spot {
        Spot(
            ref: OSMRef(.node, id), coordinate: Coordinate(latitudeE7: Int32(id) * 100, longitudeE7: 250_000_000)!,
            tagKey: category == .museum ? "tourism" : "amenity", kind: kind ?? category.rawValue, category: category,
            name: name)
    }

    static func ids(_ search: SpotSearch, _ query: String, limit: Int = 20, sort: SearchSort = .relevance) throws
        -> [Int64]
    {
        try search.search(SearchRequest(naturalLanguageQuery: query, limit: limit, sort: sort)).map(\.spot.ref.id)
    }

    @Test("a typo finds the name, below every match without one; fewer edits first; typos only fill the list")
    func fuzzyLevel() throws {
        let search = try searchOver([
            Self.spot(1, "Panda Express"), Self.spot(2, "Pnada Tea"), Self.spot(3, "Pandas"),
            Self.spot(4, "Kaupunginmuseo", .museum), Self.spot(5, "Kaupungintalo", .townHall),
            Self.spot(6, "Pizzeria Napoli", .restaurant), Self.spot(7, "Hotel Kämp", .hotel),
        ])
        // "Pnada" is a word of spot 2; spots 1 and 3 are one swap away.
        #expect(try Self.ids(search, "pnada") == [2, 1, 3])
        #expect(try Self.ids(search, "pnada", limit: 1) == [2])
        let explained = try search.search(SearchRequest(naturalLanguageQuery: "pnada", explain: true))
        #expect(explained.map { $0.match?.level } == [.prefix, .fuzzy, .fuzzy])
        #expect(explained.map { $0.match?.edits } == [0, 1, 1])
        // Eight letters or more forgive two edits: "kaupungintalo" is two from "kaupungnitlao".
        #expect(try Self.ids(search, "kaupungnitlao") == [5])
        #expect(try Self.ids(search, "kaupunginmuseo kaupungintalo").isEmpty, "every word must be met")
        #expect(try Self.ids(search, "pizzera napoli") == [6])
        #expect(try Self.ids(search, "hotel kmp").isEmpty, "three letters forgive nothing")
        #expect(try Self.ids(search, "pnada", sort: .distance) == [2, 1, 3], "by distance too, typos come last")
    }

    @Test("a misspelt category word finds its category; the last word may be an unfinished one")
    func categoryWords() throws {
        let search = try searchOver(
            [
                Self.spot(1, "Savoy", .restaurant), Self.spot(2, "Kiasma", .museum), Self.spot(3, "Restaurant Day"),
                Self.spot(4, nil, .pharmacy),
            ],
            words: ["restaurant": [.restaurant], "museum": [.museum], "pharmacy": [.pharmacy]])
        #expect(try Self.ids(search, "resturant") == [1, 3])
        #expect(try Self.ids(search, "muzeum") == [2])
        #expect(try Self.ids(search, "phramacy") == [4])
        #expect(try Self.ids(search, "muse") == [2], "a prefix of a category word")
        // An unfinished word with a typo: one edit from the start of "Restaurant Day"; a category
        // word is met whole, two edits here.
        #expect(try Self.ids(search, "resturan") == [3, 1])
        #expect(try Self.ids(search, "restaur") == [3, 1], "no edit: the name, then the category")
        let why = try search.search(SearchRequest(naturalLanguageQuery: "muzeum", explain: true)).first?.match
        #expect(why?.level == .fuzzy && why?.field == "tourism=museum" && why?.edits == 1)
    }

    @Test("two query words a name writes as one, or one it writes as two, meet it for an edit")
    func joinedAndSplitWords() throws {
        let search = try searchOver(
            [
                Self.spot(1, "McDonald's", .restaurant), Self.spot(2, "Starbucks"),
                Self.spot(3, "Burger King", .restaurant),
                Self.spot(4, "Star Bar"), Self.spot(5, "Kahvila Sokeri"),
            ],
            words: ["cafe": [.cafe]])
        func explained(_ query: String) throws -> [(Int64, Int?)] {
            try search.search(SearchRequest(naturalLanguageQuery: query, explain: true)).map {
                ($0.spot.ref.id, $0.match?.edits)
            }
        }
        // "mcdonalds" is a token of "McDonald's" (its apostrophe read away): the join alone.
        #expect(try explained("Mc Donalds").elementsEqual([(1, 1)], by: ==))
        // "macdonalds" is an edit from "mcdonalds", the space another.
        #expect(try explained("Mac Donalds").elementsEqual([(1, 2)], by: ==))
        #expect(try explained("Star bucks").elementsEqual([(2, 1)], by: ==))
        #expect(try explained("Burgerking").elementsEqual([(3, 1)], by: ==))
        #expect(try explained("Burgerkin").elementsEqual([(3, 1)], by: ==), "the last half may be unfinished")
        #expect(try explained("Starbar").elementsEqual([(4, 1)], by: ==))
        // A joined word forgives an edit fewer than its length would: "kahvilasokri" (12 letters)
        // is one from "kahvilasokeri", and no name holds that whole.
        #expect(try Self.ids(search, "kahvila sokri") == [5], "the words apart, one typo")
        #expect(try Self.ids(search, "kahvilasokri").isEmpty, "a split's halves forgive nothing")
        #expect(try Self.ids(search, "Star cafe bucks").isEmpty, "no join across a category word")
    }

    @Test("a respelling reads the query's other words for itself, and gathers by the rarest")
    func respellingGathersByItsRarestPart() throws {
        // Forty names hold both halves of "delli kesk"; one holds "dellikesk". Twelve words are
        // an edit from "zorbo", each a name's: too many tokens for the query as typed to read
        // beside the one spot "dellikesk" lists, few beside the split's forty.
        let halves = (1...40).map { Self.spot(Int64($0), "Delli Kesk \($0)") }
        let neighbours = [
            "zorba", "zorbi", "zorbu", "zorbs", "sorbo", "korbo", "torbo", "dorbo", "borbo", "morbo", "zorbos", "zarbo",
        ]
        let near = neighbours.enumerated().map { Self.spot(Int64(100 + $0.offset), "Cafe \($0.element)") }
        let search = try searchOver(halves + near + [Self.spot(200, "Dellikesk Zorbo")])
        let query = search.parser.parse("dellikesk zorbo")
        let stage = try #require(try TypoStage(query: query, parser: search.parser, index: search.index))
        #expect(stage.readings.contains { stage.parts[$0.last!].words.count == 2 }, "the split reading is read")
        let runs = try stage.runs(in: search.index)
        let gathered = runs.reduce(0) { total, run in total + run.lists.reduce(0) { $0 + $1.remaining } }
        // The split gathers by "zorbo" (twelve spots and one), not by its forty names.
        #expect(gathered < halves.count)
        #expect(try Self.ids(search, "dellikesk zorbo").first == 200)
    }

    @Test("Chinese, Japanese and Korean words keep substring matching and forgive nothing")
    func cjk() throws {
        let search = try searchOver([Self.spot(1, "姫路城"), Self.spot(2, "東京タワー"), Self.spot(3, "서울역")])
        #expect(try Self.ids(search, "路城") == [1])
        #expect(try Self.ids(search, "東京タワ") == [2])
        #expect(try Self.ids(search, "東京タウー").isEmpty)
        #expect(try Self.ids(search, "서울억").isEmpty)
    }

    @Test(
        "UTF-8 is decoded as Swift decodes it; a malformed byte (overlong, surrogate, past U+10FFFF, stray, cut short) stands for itself above every scalar"
    )
    func utf8Decoding() {
        let text = Array("aé日😀".utf8)
        var position = 0
        var scalars: [UInt32] = []
        while position < text.count {
            let (value, length) = UTF8Scalar.decode(text, at: position)
            scalars.append(value)
            position += length
        }
        #expect(scalars == "aé日😀".unicodeScalars.map(\.value))
        let malformed: [[UInt8]] = [
            [0xC1, 0xA1], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x80, 0x80, 0x80], [0x80], [0xE6, 0x97], [0xFF],
        ]
        for bytes in malformed {
            let (value, length) = UTF8Scalar.decode(bytes, at: 0)
            #expect(value == 0x11_0000 + UInt32(bytes[0]) && length == 1, "\(bytes)")
        }
    }
}
