import Foundation
import SpotBuiltInWords
import SpotIndex
import SpotIndexWriting
import SpotTestSupport
import Spots
import Testing

@testable import SpotSearch

/// Words that name an OSM value (Pipelines/value-words.json): they find the spots of that value,
/// not every spot of its category, as a category word finds the category.
@Suite("Value words")
struct ValueWordTests {
    static func spot(_ id: Int64, _ name: String, value: String, _ category: Category) -> Spot {
        Spot(
            ref: OSMRef(.node, id), coordinate: Coordinate(latitudeE7: 601_720_000, longitudeE7: 249_370_000)!,
            tagKey: "amenity", kind: value, category: category, name: name)
    }

    /// The words as the pipeline stores them: folded (`SearchText.words`).
    static let search = Result {
        try searchOver(
            [
                spot(1, "Smile Center", value: "dentist", .hospital),
                spot(2, "Family Clinic", value: "clinic", .hospital),
                spot(3, "Meilahti", value: "hospital", .hospital),
                spot(4, "Zahnarzt Weber", value: "doctors", .hospital),
            ],
            words: ["hospital": [.hospital], "sairaala": [.hospital]],
            values: [
                "zahnarzt": ["amenity=dentist"], "hammaslaakari": ["amenity=dentist"], "klinik": ["amenity=clinic"],
            ])
    }

    func ids(_ query: String) throws -> [Int64] {
        try Self.search.get().search(SearchRequest(naturalLanguageQuery: query)).map(\.spot.ref.id)
    }

    @Test("a value word finds its value's spots, and names that hold it; a category word the whole category")
    func valueOrCategory() throws {
        #expect(try ids("zahnarzt") == [4, 1], "the name holding the word first, then the value")
        #expect(try ids("hammaslääkäri") == [1])
        #expect(try ids("Hammaslaakari") == [1], "folded as names are")
        #expect(try ids("klinik") == [2])
        #expect(try ids("hospital") == [1, 2, 3, 4])
        #expect(try ids("sairaala") == [1, 2, 3, 4])
    }

    @Test("a value word with name words needs a spot of the value whose names hold them")
    func withNameWords() throws {
        #expect(try ids("zahnarzt smile") == [1])
        #expect(try ids("smile zahnarzt") == [1])
        #expect(try ids("zahnarzt family").isEmpty)
        #expect(try ids("hospital family") == [2])
    }

    @Test("a misspelt value word finds its value at the fuzzy level")
    func typo() throws {
        let results = try Self.search.get().search(SearchRequest(naturalLanguageQuery: "zahnartz", explain: true))
        #expect(results.map(\.spot.ref.id) == [1, 4], "one edit each, by name or by value: by reference")
        #expect(results.map { $0.match?.level } == [.fuzzy, .fuzzy])
    }

    /// Pizza places and museums: by cuisine, by a compound name, by a name holding the word.
    static let dishes = Result {
        var kotipizza = spot(11, "Kotipizza", value: "fast_food", .restaurant)
        kotipizza.details[.cuisine] = "burger"
        var tagged = spot(12, "Trattoria", value: "restaurant", .restaurant)
        tagged.details[.cuisine] = "Italian; Pizza"
        var sushi = spot(13, "Sakura", value: "restaurant", .restaurant)
        sushi.details[.cuisine] = "sushi;pizzeria"
        var italian = spot(20, "Da Mario", value: "restaurant", .restaurant)
        italian.details[.cuisine] = "italian_pizza"
        var commas = spot(21, "Luigi", value: "restaurant", .restaurant)
        commas.details[.cuisine] = "italian,pizza"
        var ampersand = spot(22, "Istanbul Grill", value: "fast_food", .restaurant)
        ampersand.details[.cuisine] = "Pizza & Kebab"
        var and = spot(23, "Tokyo Corner", value: "restaurant", .restaurant)
        and.details[.cuisine] = "sushi and noodles"
        return try searchOver(
            [
                kotipizza, tagged, sushi, spot(14, "Pizza Hut", value: "restaurant", .restaurant),
                spot(15, "Taidemuseo", value: "gallery", .museum), spot(16, "Zanzibar", value: "bar", .nightlife),
                spot(17, "Museo", value: "cafe", .cafe), spot(18, "Ateneum", value: "museum", .museum),
                spot(19, "Minipizza", value: "cafe", .cafe), italian, commas, ampersand, and,
            ],
            words: ["bar": [.nightlife]],
            values: ["pizza": ["cuisine=pizza"], "museo": ["tourism=museum"], "sushi": ["cuisine=sushi"]],
            compounds: ["pizza": ["cuisine=pizza"], "museo": ["tourism=museum"]])
    }

    func dishIDs(_ query: String) throws -> [Int64] {
        try Self.dishes.get().search(SearchRequest(naturalLanguageQuery: query)).map(\.spot.ref.id)
    }

    @Test("a dish word finds names that hold it first, then its cuisine value in a list, then compound names")
    func dish() throws {
        #expect(
            try Set(dishIDs("pizza")) == [14, 11, 12, 19, 20, 21, 22],
            "Pizza Hut by name; the others by cuisine (in a list of ';', ',' or '&', or a part of italian_pizza) or compound"
        )
        #expect(try dishIDs("pizza").first == 14)
        #expect(
            try dishIDs("sushi") == [13, 23],
            "one value of a list, also of an 'and' list; not pizzeria's spot for pizza")
        #expect(try dishIDs("pizza trattoria") == [12])
        #expect(try dishIDs("pizza kotipizza") == [11])
    }

    @Test("a compound word of 5 letters or more meets the end of a longer name word; a short word never")
    func compounds() throws {
        #expect(try dishIDs("museo") == [17, 15], "the name Museo first; Taidemuseo by its ending; not Ateneum")
        #expect(try dishIDs("bar") == [16], "Zanzibar is a bar by its kind only")
        let results = try Self.dishes.get().search(SearchRequest(naturalLanguageQuery: "pizza", explain: true))
        #expect(results.map { $0.match?.level } == [.prefix] + Array(repeating: .category, count: 6))
    }

    @Test("a misspelt dish word finds its cuisine and compound spots at the fuzzy level")
    func dishTypo() throws {
        let results = try Self.dishes.get().search(SearchRequest(naturalLanguageQuery: "pizzza", explain: true))
        #expect(Set(results.map(\.spot.ref.id)) == [11, 12, 14, 19, 20, 21, 22])
        #expect(results.allSatisfy { $0.match?.level == .fuzzy })
    }

    @Test(
        "the built-in words of the languages added after the first 20 name their values, whatever the marks typed",
        arguments: [
            ("caixer", "atm"), ("caixer automàtic", "atm"), ("farmàcia", "pharmacy"), ("gyógyszertár", "pharmacy"),
            ("φαρμακείο", "pharmacy"), ("מסעדה", "restaurant"), ("nhà hàng", "restaurant"), ("nha hang", "restaurant"),
            ("ร้านกาแฟ", "cafe"), ("รานกาแฟ", "cafe"), ("kafić", "cafe"), ("jatetxea", "restaurant"),
            // iD's search terms in those languages: synonyms beside the preset names.
            ("patika", "pharmacy"), ("nhà thuốc", "pharmacy"), ("καφετέρια", "cafe"), ("pénzautomata", "atm"),
        ])
    func addedLanguages(_ query: String, _ value: String) throws {
        let kinds = ["atm", "pharmacy", "restaurant", "cafe", "bank"]
        let spots = kinds.enumerated().map { Self.spot(Int64($0.offset + 1), "Spot", value: $0.element, .cafe) }
        let index = try openIndex(SpotIndexWriter.encode(spots, metadata: .tests, words: .builtIn))
        let results = try SpotSearch(index: index).search(SearchRequest(naturalLanguageQuery: query))
        #expect(results.map(\.spot.kind) == [value])
    }
}
