import Foundation
import SpotIndex
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

}
