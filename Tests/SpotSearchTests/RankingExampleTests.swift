import Foundation
import Spots
import Testing

@testable import SpotSearch

@Suite("Text ranking by hand-picked examples")
struct RankingExampleTests {
    /// A node in central Helsinki, `metres` north of the Kiasma museum's square.
    static func spot(
        _ id: Int64, _ name: String?, _ category: Category = .museum, metres: Double = 0, names: [String: String] = [:],
        other: [String: String] = [:], details: [Spot.Detail: String] = [:]
    ) -> Spot {
        var spot = Spot(
            ref: OSMRef(.node, id),
            coordinate: Coordinate(latitudeE7: 601_720_000 + Int32(metres / 111_195 * 1e7), longitudeE7: 249_370_000)!,
            tagKey: "amenity", kind: category.rawValue, category: category, name: name, names: names, details: details)
        spot.otherNames = other
        return spot
    }

    static let square = Coordinate(latitudeE7: 601_720_000, longitudeE7: 249_370_000)!

    func ids(_ search: SpotSearch, _ query: String, near: Coordinate? = nil, limit: Int = 20) throws -> [Int64] {
        try search.search(SearchRequest(naturalLanguageQuery: query, near: near, limit: limit)).map(\.spot.ref.id)
    }

    @Test("the whole name first, then names that start with the query, then later words; better-known places first")
    func levelsThenQuality() throws {
        let search = try searchOver([
            Self.spot(1, "Kiasma kaupunkipyöräasema", .bicycleRental, metres: 100),
            Self.spot(2, "Kiasma", metres: 2_000, details: [.wikidata: "Q1", .website: "https://kiasma.fi"]),
            Self.spot(3, "Nykytaiteen museo Kiasma", metres: 50),
            Self.spot(4, "Kiasma Café", .cafe, metres: 3_000, details: [.phone: "+358"]),
            Self.spot(5, "Kiasmaplatsen", .landmark, metres: 20_000),
        ])
        #expect(try ids(search, "kiasma") == [2, 4, 1, 5, 3])
        // With a place distance counts as a ratio: the museum's long name 50 m away, the bike
        // station 100 m away, then the museum named exactly "Kiasma" 2 km away (twenty times as
        // far, a whole name counting twice a name begun), the café 3 km away, the square 20 km.
        #expect(try ids(search, "kiasma", near: Self.square) == [3, 1, 2, 4, 5])
        let explained = try search.search(SearchRequest(naturalLanguageQuery: "kiasma", explain: true))
        #expect(explained.map { $0.match?.level } == [.exact, .prefix, .prefix, .prefix, .words])
        #expect(explained.map { $0.match?.score } == [6, 1, 0, 0, 0])
    }

    @Test(
        "a match in name or name:xx ranks above one in another name at the same level, also when that other name is the word alone"
    )
    func nameFieldFirst() throws {
        let search = try searchOver([
            Self.spot(5, "Café Central", other: ["official_name": "Café"]),
            Self.spot(2, "Caffè Nero"),
            Self.spot(3, nil, other: ["alt_name": "Café Bar"]),
            Self.spot(4, "Bar", names: ["it": "Caffetteria"]),
        ])
        #expect(try ids(search, "caf") == [2, 4, 5, 3])
        // Then, with a typo forgiven, "Caffè" and "Caffetteria" (one letter more).
        #expect(try ids(search, "cafe") == [5, 3, 2, 4])
        let fields = try search.search(SearchRequest(naturalLanguageQuery: "caf", explain: true)).map {
            $0.match?.field
        }
        #expect(fields == ["name", "name:it", "name", "alt_name"])
    }

    @Test("a spot grouped under another name is not cut off when the results are full")
    func boundOfOtherNames() throws {
        let search = try searchOver([
            Self.spot(10, "Museo del Prado", other: ["official_name": "Museo"]),
            Self.spot(20, "Museo", names: ["en": "Museo del Prado"]),
        ])
        #expect(try ids(search, "museo del prado", limit: 1) == [10])
        #expect(try ids(search, "museo del prado") == [10, 20])
    }

    @Test(
        "a category phrase of several words finds the category's spots after the names, even those whose name holds its first word"
    )
    func severalWordPhrase() throws {
        let search = try searchOver(
            [
                Self.spot(1, "Movie Palace", .movieTheater), Self.spot(2, "Bio Rex", .movieTheater),
                Self.spot(3, "Movie Theater Rex", .restaurant),
            ], words: ["movie theater": [.movieTheater]])
        #expect(try ids(search, "movie theater") == [3, 1, 2])
    }
}
