import Foundation
import SeededRandom
import SpotIndex
import SpotPipeline
import SpotTestSupport
import SpotText
import Spots
import Testing

@testable import SpotSearch

/// Writes `spots` as an index with category `words`, `values` words and `compounds`, and opens a
/// search over it.
func searchOver(
    _ spots: [Spot], words: [String: [Category]] = [:], values: [String: [String]] = [:],
    compounds: [String: [String]] = [:]
) throws -> SpotSearch {
    try SpotSearch(index: try openIndex(of: spots, categoryWords: words, valueWords: values, compoundWords: compounds))
}

/// Random requests of every kind around `spots`.
func randomRequests(_ count: Int, around spots: [Spot], names: [String], using random: inout SplitMix64)
    -> [SearchRequest]
{
    // The quality weights draw from a stream of their own, leaving the other fields as they were.
    // This seed once met a tie at the South Pole that the meridian bound turned away
    // (`Coordinate.metresAlongMeridian`).
    var weights = SplitMix64(seed: 0x9e37_79b9)
    return (0..<count).map { _ in
        var request = SearchRequest(limit: [0, 1, 5, 20, 20, 100].randomElement(using: &random)!)
        let anchor = spots.randomElement(using: &random)!.coordinate
        func jitter(_ value: Int32, _ range: Int32, limit: Int32) -> Int32 {
            Int32(
                clamping: max(
                    -Int64(limit),
                    min(Int64(limit), Int64(value) + Int64(Int32.random(in: -range...range, using: &random)))))
        }
        let point = Coordinate(
            latitudeE7: jitter(anchor.latitudeE7, 50_000, limit: 900_000_000),
            longitudeE7: jitter(anchor.longitudeE7, 50_000, limit: 1_800_000_000))!
        switch Int.random(in: 0..<8, using: &random) {
        case 0, 1: request.near = point
        case 2:
            request.near = point
            request.radius = [0, 10, 300, 1000, 5000].randomElement(using: &random)!
        case 3:
            let span = Double.random(in: 0.001...2, using: &random)
            request.region = GeoBox(center: point, latitudeDelta: span, longitudeDelta: span * 2)
        case 4:
            request.near = point
            request.region = GeoBox(center: point, latitudeDelta: 0.01, longitudeDelta: 0.01)
        default: break
        }
        if Bool.random(using: &random) || (request.near == nil && request.region == nil) {
            request.naturalLanguageQuery = randomQuery(from: names.randomElement(using: &random)!, using: &random)
        }
        if Int.random(in: 0..<5, using: &random) == 0 { request.sort = .distance }
        if Int.random(in: 0..<4, using: &random) == 0 {
            request.distanceScale = [50, 500, 20_000].randomElement(using: &random)!
        }
        if Int.random(in: 0..<4, using: &weights) == 0 {
            // Beside the default 1: quality ignored, counting less, more, beyond the range (clamped).
            request.qualityWeight = [0, 0.5, 2.5, 12, -1].randomElement(using: &weights)!
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
            let categories = Set(spots.compactMap(\.category).shuffled(using: &random).prefix(3))
            request.pointOfInterestFilter =
                Bool.random(using: &random)
                ? PointOfInterestFilter(including: categories) : PointOfInterestFilter(excluding: categories)
        }
        return request
    }
}

/// A query made from `name`, to meet each match level: a prefix of one of its words, the whole
/// name, its first words and a prefix of the next, two of its words in any order, or one of its
/// words misspelt (alone or in the name).
func randomQuery(from name: String, using random: inout SplitMix64) -> String? {
    let words = SearchText.words(name)
    guard let word = words.randomElement(using: &random) else { return nil }
    func prefix(_ word: String) -> String {
        String(word.prefix(Int.random(in: 1...max(1, word.count), using: &random)))
    }
    /// The word with one or two random edits.
    func misspell(_ word: String) -> String {
        var scalars = Array(word.unicodeScalars)
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let at = Int.random(in: 0...scalars.count, using: &random)
            let letter = "aeikmnorstuäжк".unicodeScalars.randomElement(using: &random)!
            switch Int.random(in: 0..<4, using: &random) {
            case 0: scalars.insert(letter, at: at)
            case 1 where at < scalars.count: scalars[at] = letter
            case 2 where at + 1 < scalars.count: scalars.swapAt(at, at + 1)
            default: if at < scalars.count && scalars.count > 1 { scalars.remove(at: at) }
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }
    switch Int.random(in: 0..<8, using: &random) {
    case 0: return name
    case 6: return misspell(word)
    case 7: return words.map { $0 == word ? misspell($0) : $0 }.joined(separator: " ")
    case 1:
        let count = Int.random(in: 1...words.count, using: &random)
        return (words.prefix(count - 1) + [prefix(words[count - 1])]).joined(separator: " ")
    case 2: return [word, words.randomElement(using: &random)!].joined(separator: " ")
    default: return prefix(word)
    }
}

/// Random spots in `count` clusters around the world, named in Latin, Cyrillic and Japanese, some
/// with other names (`alt_name`…) and with the tags that make up their quality score.
func randomSpots(_ count: Int, using random: inout SplitMix64) -> [Spot] {
    let names = [
        "Café Central", "Кофе Хауз", "スターバックス 吉祥寺店", "Museo del Prado", "姫路城", "Hotel Kämp", "7-Eleven",
        "Пушкинский музей", "カフェ・ド・クリエ", "Bar Ä", "Bar", "Café", "Central", "Museo", "吉祥寺", "Kahvila Engel",
        "Baari", "Taidekahvila", "Kotipizza", "Pizzeria Rax", "Zanzibar",
    ]
    let centres: [(Double, Double)] = [
        (60.17, 24.94), (35.70, 139.58), (-16.5, 179.99), (-16.5, -179.99), (89.99, 0), (-89.99, 45), (0, 0),
        (55.75, 37.62),
    ]
    return (0..<count).map { number in
        let centre = centres[number % centres.count]
        let latitude = max(-90, min(90, centre.0 + Double.random(in: -0.05...0.05, using: &random)))
        var longitude = centre.1 + Double.random(in: -0.05...0.05, using: &random)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        let category = [Category.cafe, .museum, .hotel, .castle, .nightlife, nil].randomElement(using: &random)!
        var spot = Spot(
            ref: OSMRef(OSMType.allCases.randomElement(using: &random)!, Int64(number)),
            coordinate: Coordinate(
                latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))!,
            tagKey: "amenity",
            // Two values for each category, so that a value word names some spots of a category.
            kind: category.map { $0.rawValue + ["", "_2"].randomElement(using: &random)! } ?? "other",
            category: category)
        if Int.random(in: 0..<5, using: &random) > 0 { spot.name = names.randomElement(using: &random)! }
        if Bool.random(using: &random) { spot.names["en"] = names.randomElement(using: &random)! }
        if Int.random(in: 0..<3, using: &random) == 0 {
            spot.otherNames[Spot.otherNameKeys.sorted().randomElement(using: &random)!] =
                names.randomElement(using: &random)!
        }
        for detail in [Spot.Detail.wikidata, .website, .openingHours, .phone] where Bool.random(using: &random) {
            spot.details[detail] = "x"
        }
        spot.hasWikipedia = Int.random(in: 0..<4, using: &random) == 0
        if Int.random(in: 0..<4, using: &random) == 0 {
            spot.details[.cuisine] =
                [
                    "pizza", "Italian; Pizza", "sushi", "burger;kebab", "italian_pizza", "italian,pizza",
                    "Pizza & Kebab", "sushi and burger", "kebab,",
                ].randomElement(using: &random)!
        }
        if Bool.random(using: &random) { spot.address = randomAddress(using: &random) }
        return spot
    }
}

/// Streets, house numbers, postcodes and cities as OSM writes them, abbreviated or not.
let randomAddressParts = (
    streets: [
        "Mannerheimintie", "Obere Landstraße", "East Fort Avenue", "Hauptstr.", "улица Ленина", "Bd Saint-Michel",
        "Museokatu", "Central Street", "St Mary's Rd",
    ],
    numbers: ["22", "22 A", "22a", "5bis", "3-5", "S/N", "7 B, sisäpiha", "1"],
    postcodes: ["00100", "SW1A 1AA", "22100"], cities: ["Helsinki", "Kahvila", "Москва"]
)

/// Queries of the addresses `randomAddress` makes: street and number either way, abbreviated,
/// with a category word or a name.
let randomAddressQueries = [
    "Mannerheimintie 22", "22 Mannerheimintie", "Mannerheimintie 22 a", "Obere Landstrasse 3", "Hauptstraße 5bis",
    "ул Ленина 22", "Boulevard Saint-Michel 22a", "cafe Mannerheimintie", "East Fort Ave 1", "Saint Mary's Road",
    "Central St 3-5", "s/n Mannerheimintie", "sisäpiha", "00100", "Helsinki", "Kahvila Helsinki", "museo Museokatu",
]

/// A random address of `randomAddressParts`, with some of its parts.
func randomAddress(using random: inout SplitMix64) -> [String: String] {
    var address = ["street": randomAddressParts.streets.randomElement(using: &random)!]
    if Int.random(in: 0..<4, using: &random) == 0 { address = ["place": address["street"]!] }
    if Int.random(in: 0..<4, using: &random) > 0 {
        address["housenumber"] = randomAddressParts.numbers.randomElement(using: &random)!
    }
    if Bool.random(using: &random) { address["postcode"] = randomAddressParts.postcodes.randomElement(using: &random)! }
    if Bool.random(using: &random) { address["city"] = randomAddressParts.cities.randomElement(using: &random)! }
    return address
}

@Suite("Search against a brute-force oracle")
struct SearchOracleTests {
    /// Compound words of the random index: "kahvila" ends "Taidekahvila", "pizza" "Kotipizza";
    /// "bar", which is not one, does not end "Zanzibar".
    static let compounds = ["kahvila": ["amenity=cafe"], "pizza": ["cuisine=pizza"]]

    @Test("random requests of every kind, worldwide (poles, antimeridian), answer as the oracle does")
    func randomWorld() throws {
        var random = SplitMix64(seed: 42)
        let spots = randomSpots(2000, using: &random)
        let search = try searchOver(
            spots,
            words: [
                "cafe": [.cafe], "カフェ": [.cafe], "museum": [.museum], "музей": [.museum], "cafe central": [.cafe],
                "hotel kamp": [.hotel],
            ],
            values: [
                "kahvila": ["amenity=cafe"], "baari": ["amenity=nightlife_2"], "cafe": ["amenity=museum_2"],
                "pizza": ["cuisine=pizza"], "sushi": ["cuisine=sushi", "amenity=cafe_2"], "bar": ["amenity=nightlife"],
            ],
            compounds: Self.compounds)
        let requests = randomRequests(
            2000, around: spots,
            names: spots.flatMap(\.allNames) + ["pizza", "sushi bar", "kahvila"] + randomAddressQueries
                + spots.compactMap(\.addressLine), using: &random)
        let failures = try mismatches(search, spots, requests, compounds: Self.compounds)
        #expect(failures.isEmpty, "\(failures)")
        // The quality weights are asked for: some answers differ from those of the default weight.
        let reweighted = try requests.filter { $0.qualityWeight != 1 }.filter { request in
            var plain = request
            plain.qualityWeight = 1
            return try search.rankedSpots(request).map(\.spot) != search.rankedSpots(plain).map(\.spot)
        }
        #expect(reweighted.count > 10, "\(reweighted.count)")
        // The addresses are asked for: some answers match them, typos forgiven or not.
        let byAddress = try requests.map { request in
            var asked = request
            asked.explain = true
            return try search.search(asked).filter { $0.match?.field.hasPrefix("addr:") == true }.map(\.match!.level)
        }
        #expect(byAddress.filter { $0.contains(.address) }.count > 100)
        #expect(byAddress.filter { $0.contains(.fuzzy) }.count > 10)
    }

    @Test("hand-picked corners: the poles, the antimeridian, empty results, limit 0, an empty index")
    func corners() throws {
        var random = SplitMix64(seed: 7)
        let spots = randomSpots(800, using: &random)
        let search = try searchOver(spots)
        let fiji = Coordinate(latitudeE7: -165_000_000, longitudeE7: 1_800_000_000)!
        let requests = [
            SearchRequest(near: Coordinate(latitudeE7: 900_000_000, longitudeE7: 0)!, limit: 50),
            SearchRequest(
                near: Coordinate(latitudeE7: -900_000_000, longitudeE7: 1_234_567)!, radius: 20_000, limit: 500),
            SearchRequest(near: fiji, radius: 10_000, limit: 200),
            SearchRequest(region: GeoBox(west: 179.9, south: -17, east: -179.9, north: -16), limit: 500),
            SearchRequest(region: GeoBox(center: fiji, latitudeDelta: 1, longitudeDelta: 1), limit: 500),
            SearchRequest(near: Coordinate(latitudeE7: 100_000_000, longitudeE7: 100_000_000)!, radius: 1000),
            SearchRequest(naturalLanguageQuery: "zzzz"),
            SearchRequest(naturalLanguageQuery: "吉祥寺", limit: 1000),
            SearchRequest(naturalLanguageQuery: "кофе", limit: 1000),
            SearchRequest(near: fiji, limit: 0),
            SearchRequest(limit: 5),
            SearchRequest(pointOfInterestFilter: PointOfInterestFilter(including: [.museum, .castle]), limit: 30),
            SearchRequest(pointOfInterestFilter: PointOfInterestFilter(excluding: [.cafe]), limit: 30),
            SearchRequest(pointOfInterestFilter: PointOfInterestFilter(including: []), limit: 30),
        ]
        #expect(try mismatches(search, spots, requests).isEmpty)
        #expect(try search.search(SearchRequest(near: fiji, limit: 0)).isEmpty)
        let empty = try searchOver([])
        #expect(try empty.search(SearchRequest(near: fiji)).isEmpty)
        #expect(try empty.search(SearchRequest(naturalLanguageQuery: "cafe")).isEmpty)
    }

    @Test("a radius without near is refused; so is a negative limit")
    func refusesBadRequests() throws {
        let search = try searchOver([])
        #expect(throws: SearchError.self) { try search.search(SearchRequest(radius: 100)) }
        #expect(throws: SearchError.self) { try search.search(SearchRequest(limit: -1)) }
    }

    @Test(
        "text: category words filter, other words are name-word prefixes, CJK substrings; names that start with the word first"
    )
    func text() throws {
        func spot(_ id: Int64, _ name: String, _ category: Category) -> Spot {
            Spot(
                ref: OSMRef(.node, id),
                coordinate: Coordinate(latitudeE7: 357_000_000, longitudeE7: 1_395_800_000 + Int32(id))!,
                tagKey: "amenity", kind: category.rawValue, category: category, name: name)
        }
        let spots = [
            spot(1, "スターバックス 吉祥寺店", .cafe), spot(2, "吉祥寺美術館", .museum), spot(3, "Café Kichi", .cafe),
            spot(4, "Old Kichijoji Bar", .nightlife), spot(5, "Кофе Хауз", .cafe),
            spot(6, "Kichijoji Kitchen", .restaurant),
            {
                var sundial = spot(7, "Sun Dial", .landmark)
                sundial.names["ja"] = "日時計"
                return sundial
            }(),
        ]
        let search = try searchOver(
            spots, words: ["cafe": [.cafe], "カフェ": [.cafe], "museum": [.museum], "美術館": [.museum]])
        func ids(_ query: String) throws -> [Int64] {
            try search.search(SearchRequest(naturalLanguageQuery: query)).map(\.spot.ref.id)
        }
        #expect(try ids("カフェ") == [1, 3, 5])
        #expect(try ids("吉祥寺") == [2, 1])
        #expect(try ids("祥寺") == [1, 2])
        #expect(try ids("kichi") == [6, 3, 4])
        #expect(try ids("KICHIJOJI kit") == [6])
        #expect(try ids("cafe kichi") == [3])
        #expect(try ids("kichijoji bar") == [4])
        #expect(try ids("sun dial") == [7] && ids("日時計") == [7])
        #expect(try ids("sun 日時計").isEmpty)  // the words are in two names of the spot, not one
        #expect(try ids("кофе") == [5])
        #expect(try ids("КОФЕ ХА") == [5])
        #expect(try ids("吉祥寺 美術館") == [2])
        #expect(try search.search(SearchRequest(naturalLanguageQuery: "kichi")).allSatisfy { $0.distance == nil })
    }

    @Test("lookup by reference finds a spot by its own reference and by one merged into it")
    func lookup() throws {
        var merged = Spot(
            ref: OSMRef(.node, 10), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: "amenity",
            kind: "cafe", category: .cafe, name: "A")
        merged.merged = [OSMRef(.way, 4), OSMRef(.node, 3)]
        let other = Spot(
            ref: OSMRef(.relation, 10), coordinate: Coordinate(latitudeE7: 1, longitudeE7: 1)!, tagKey: "amenity",
            kind: "cafe", category: .cafe)
        let search = try searchOver([merged, other])
        #expect(try search.spot(for: OSMRef(.node, 10))?.ref == OSMRef(.node, 10))
        #expect(try search.spot(for: OSMRef(.way, 4))?.ref == OSMRef(.node, 10))
        #expect(try search.spot(for: OSMRef(.node, 3))?.ref == OSMRef(.node, 10))
        #expect(try search.spot(for: OSMRef(.relation, 10))?.ref == OSMRef(.relation, 10))
        #expect(try search.spot(for: OSMRef(.node, 11)) == nil)
    }
}

/// ../shared/data, found from this file.
let sharedData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/data")

@Suite(
    "Search on real data",
    .enabled(
        if: FileManager.default.fileExists(atPath: sharedData.path),
        "../shared/data is absent: real-data search tests skipped"))
struct RealDataSearchTests {
    @Test("thousands of random requests on every POI of the real extracts answer as the oracle does")
    func realData() throws {
        var pipeline = try Pipeline.defaults()
        pipeline.inputs = [sharedData.appendingPathComponent("pois-union.osm.gz").path]
        pipeline.keepAll = true
        pipeline.dedupe.enabled = false
        let (bytes, _) = try SpotBuild(pipeline: pipeline).run()
        let index = try openIndex(bytes)
        let search = try SpotSearch(index: index)
        let spots = try (0..<index.count).map { try index.spot(at: $0) }
        #expect(spots.count == 3135)
        var random = SplitMix64(seed: 2026)
        let requests = randomRequests(
            2000, around: spots,
            names: spots.compactMap(\.name) + [
                "カフェ", "cafe", "museum", "博物館", "pizza", "museo", "kahvila", "ravintola", "sushi", "kirche", "apteekki",
            ] + spots.compactMap(\.addressLine) + randomAddressQueries, using: &random)
        let failures = try mismatches(search, spots, requests, compounds: SearchWords.builtIn.compounds)
        #expect(failures.isEmpty, "\(failures)")
    }
}
