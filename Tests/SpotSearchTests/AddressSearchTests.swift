import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotSearch

/// Searching by address (docs/search.md, "Addresses"): street, place, postcode and city words as name
/// words are, a house number equal to its word, at the address level after the names.
@Suite("Address search")
struct AddressSearchTests {
    static func spot(
        _ id: Int64, _ name: String?, _ address: [String: String], kind: String = "restaurant",
        _ category: Category = .restaurant
    ) -> Spot {
        Spot(
            ref: OSMRef(.node, id),
            coordinate: Coordinate(latitudeE7: 601_700_000 + Int32(id), longitudeE7: 249_380_000)!,
            tagKey: "amenity", kind: kind, category: category, name: name, address: address)
    }

    static let spots = [
        spot(
            1, "Amos Rex",
            ["street": "Mannerheimintie", "housenumber": "22-24", "postcode": "00100", "city": "Helsinki"]),
        spot(2, "Zetor", ["street": "Mannerheimintie", "housenumber": "3 B", "city": "Helsinki"]),
        spot(
            3, "Mannerheimintie", ["street": "Kaivokatu", "housenumber": "2"], kind: "bicycle_rental", .bicycleRental),
        spot(4, "Café Engel", ["street": "Aleksanterinkatu", "housenumber": "26"], kind: "cafe", .cafe),
        spot(5, "Gasthof Löwen", ["street": "Obere Landstr.", "housenumber": "3"]),
        spot(6, "Blue Door", ["street": "East Fort Avenue", "housenumber": "871", "country": "US"]),
        spot(7, "Le Procope", ["street": "Bd Saint-Germain", "housenumber": "13", "country": "FR"]),
        spot(8, "Пушкин", ["street": "улица Тверская", "housenumber": "26а"]),
        spot(9, "Mannerheimintie Grill", ["street": "Mannerheimintie", "housenumber": "2"]),
        spot(10, "Kiosk", ["street": "Main St", "housenumber": "S/N"]),
        spot(11, "Parc Bar", ["street": "Parc de la Mola", "housenumber": "6"], kind: "bar", .nightlife),
        spot(12, "Espresso House", ["street": "Mannerheimintie", "housenumber": "22"], kind: "cafe", .cafe),
    ]

    static let search = Result {
        try searchOver(spots, words: ["cafe": [.cafe], "parc": [.park], "bar": [.nightlife]])
    }

    func results(_ query: String) throws -> [SearchResult] {
        try Self.search.get().search(SearchRequest(naturalLanguageQuery: query, explain: true))
    }

    func ids(_ query: String) throws -> [Int64] { try results(query).map(\.spot.ref.id) }

    @Test("a street and a house number find the spot at that address first, in either order")
    func streetAndNumber() throws {
        #expect(try ids("Mannerheimintie 22") == [1, 12])
        #expect(try ids("22 Mannerheimintie") == [1, 12])
        #expect(try ids("Mannerheimintie 24") == [1], "a range's numbers each match")
        #expect(try ids("Aleksanterinkatu 26") == [4])
        let match = try #require(try results("Mannerheimintie 22").first?.match)
        #expect(match.level == .address && match.field == "addr:street")
    }

    @Test("a street alone finds the spots on it, after the names that hold it; prefixes and typos as names take them")
    func streetAlone() throws {
        #expect(try ids("Mannerheimintie") == [3, 9, 1, 2, 12])
        #expect(
            try results("Mannerheimintie").map { $0.match!.level } == [.exact, .prefix, .address, .address, .address])
        #expect(try ids("Mannerh") == [3, 9, 1, 2, 12])
        let typo = try results("Mannerheimintei 3b")
        #expect(typo.map(\.spot.ref.id) == [2])
        #expect(typo.first?.match?.level == .fuzzy && typo.first?.match?.field == "addr:street")
    }

    @Test("a house number matches exactly: 2 is not 22, and 3b, 3 B and 3 b are one")
    func exactNumbers() throws {
        #expect(try ids("Mannerheimintie 2") == [9])
        #expect(try ids("Mannerheimintie 3b") == [2])
        #expect(try ids("Mannerheimintie 3 B") == [2])
        #expect(try ids("Mannerheimintie 3").isEmpty)
        #expect(try ids("Тверская 26 а") == [8])
        #expect(try ids("Main Street S/N") == [10])
    }

    @Test("a house number alone, or with a name, is no address match")
    func numberAlone() throws {
        #expect(try ids("22").isEmpty)
        #expect(try ids("Zetor 3b").isEmpty)
        #expect(try ids("Zetor Mannerheimintie") == [2], "a name word and a street word together")
    }

    @Test("abbreviations equal their words, both ways; ß is ss")
    func abbreviations() throws {
        #expect(try ids("Obere Landstraße 3") == [5])
        #expect(try ids("Obere Landstrasse 3") == [5])
        #expect(try ids("Obere Landstr 3") == [5])
        #expect(try ids("871 E Fort Ave") == [6])
        #expect(try ids("871 East Fort Avenue") == [6])
        #expect(try ids("Boulevard Saint-Germain 13") == [7])
        #expect(try ids("bd St Germain 13") == [7])
        #expect(try ids("ул. Тверская 26а") == [8])
        #expect(try ids("улица Тверская 26а") == [8])
        #expect(try ids("Main St") == [10])
    }

    @Test("category words meet the kind, and a street that holds them: cafe Mannerheimintie, Parc de la Mola 6")
    func categoryAndStreet() throws {
        #expect(try ids("cafe Mannerheimintie") == [12])
        #expect(try ids("Parc de la Mola 6") == [11])
        #expect(try ids("bar Parc de la Mola") == [11])
        #expect(
            try results("parc").map { $0.match!.level } == [.prefix], "a category word alone never meets an address")
    }

    @Test("postcode and city are searchable")
    func postcodeAndCity() throws {
        #expect(try ids("00100") == [1])
        #expect(try ids("Helsinki").sorted() == [1, 2])
        #expect(try ids("Zetor Helsinki") == [2])
        #expect(try results("00100").first?.match?.field == "addr:postcode")
    }

    @Test("results carry the address on one line, as the country writes it")
    func addressLine() throws {
        #expect(try results("Mannerheimintie 22").first?.addressLine == "Mannerheimintie 22-24, 00100 Helsinki")
        #expect(try results("871 East Fort Avenue").first?.addressLine == "871 East Fort Avenue")
        #expect(try results("Procope").first?.addressLine == "13 Bd Saint-Germain")
    }
}
