import Foundation
import SpotIndex
import SpotPipeline
import SpotTestSupport
import SpotText
import Spots
import Testing

@testable import SpotSearch

/// The order of text results (docs/search.md, "How results are ranked"): match level, name field,
/// score (quality, and with a place the distance decay), then OSM type and id.
@Suite("Ranking")
struct RankingTests {
    /// The embedded sample of central Helsinki, built with the default pipeline, searched.
    static let helsinki: SpotSearch = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var pipeline = try! Pipeline.defaults()
        pipeline.inputs = [root.appendingPathComponent("Samples/helsinki-center.osm.gz").path]
        let (bytes, _) = try! SpotBuild(pipeline: pipeline).run()
        return try! SpotSearch(index: try! openIndex(bytes))
    }()

    /// Where the bike station "Kiasma kaupunkipyöräasema" stands, 110 m from the museum.
    static let besideTheBikeStation = Coordinate(latitudeE7: 601_711_000, longitudeE7: 249_375_000)!

    static func names(_ results: [SearchResult]) -> [String] { results.map { $0.spot.name ?? "-" } }

    @Test("\"Kiasma\" gives the museum named exactly so before the bike station, with or without a place")
    func kiasmaExactBeforePrefix() throws {
        for near in [nil, Self.besideTheBikeStation] {
            let results = try Self.helsinki.search(
                SearchRequest(naturalLanguageQuery: "Kiasma", near: near, explain: true))
            #expect(Self.names(results).prefix(2) == ["Kiasma", "Kiasma kaupunkipyöräasema"])
            #expect(results.first?.match?.level == .exact && results.first?.match?.field == "name")
            #expect(results.dropFirst().first?.match?.level == .prefix)
        }
    }

    @Test("--sort distance keeps the nearest first, as before ranking")
    func sortByDistance() throws {
        let request = SearchRequest(naturalLanguageQuery: "kiasma", near: Self.besideTheBikeStation, sort: .distance)
        let results = try Self.helsinki.search(request)
        #expect(Self.names(results).prefix(2) == ["Kiasma kaupunkipyöräasema", "Kiasma"])
        #expect(zip(results, results.dropFirst()).allSatisfy { ($0.distance ?? 0) <= ($1.distance ?? 0) })
    }

    @Test(
        "without a place results come level by level, and within a level and field by score (by targets met first at the category level)"
    )
    func levelsThenScores() throws {
        for query in ["kia", "stock", "hotel", "cafe", "ravintola", "helsinki", "st", "museum of", "a"] {
            let results = try Self.helsinki.search(SearchRequest(naturalLanguageQuery: query, limit: 60, explain: true))
            for (a, b) in zip(results, results.dropFirst()) {
                let (x, y) = (try #require(a.match), try #require(b.match))
                #expect(x.level <= y.level, "\(query)")
                if x.level == y.level && x.level != .category && NameField(ofKey: x.field) == NameField(ofKey: y.field)
                {
                    #expect(x.score >= y.score, "\(query): \(a.spot.ref) before \(b.spot.ref)")
                }
            }
        }
    }

    @Test("with a place name matches come by one score of level and distance, typos after, by their edits")
    func oneScoreNearAPlace() throws {
        for query in ["kia", "stock", "ravintola", "helsinki", "st", "a", "kiasam", "stockman"] {
            let results = try Self.helsinki.search(
                SearchRequest(naturalLanguageQuery: query, near: Self.besideTheBikeStation, limit: 60, explain: true))
            #expect(!results.isEmpty)
            for (a, b) in zip(results, results.dropFirst()) {
                let (x, y) = (try #require(a.match), try #require(b.match))
                let (xTypos, yTypos) = (x.level == .fuzzy ? 1 + x.edits : 0, y.level == .fuzzy ? 1 + y.edits : 0)
                #expect(xTypos <= yTypos, "\(query)")
                if xTypos == yTypos { #expect(x.score >= y.score, "\(query): \(a.spot.ref) before \(b.spot.ref)") }
            }
        }
    }

    @Test("a search without a place that stops early gives the first results of the whole order")
    func earlyStopKeepsTheOrder() throws {
        for query in ["k", "ka", "kiasma", "s", "ho", "ravintola", "hotel", "museo", "bar", "cafe", "stock", "mu"] {
            let all = try Self.helsinki.rankedSpots(SearchRequest(naturalLanguageQuery: query, limit: 10_000))
            for limit in [1, 3, 10] {
                let first = try Self.helsinki.rankedSpots(SearchRequest(naturalLanguageQuery: query, limit: limit))
                #expect(first.map(\.spot) == Array(all.prefix(limit)).map(\.spot), "\(query) limit \(limit)")
            }
        }
    }

    /// A spot at `latitude` named `name` (and `alt_name` `alternative`), with `details`.
    static func spot(
        _ id: Int64, _ name: String?, alternative: String? = nil, latitude: Double = 60,
        details: [Spot.Detail: String] = [:], wikipedia: Bool = false
    ) -> Spot {
        var spot = Spot(
            ref: OSMRef(.node, id),
            coordinate: Coordinate(latitudeE7: Int32(latitude * 1e7), longitudeE7: 250_000_000)!, tagKey: "amenity",
            kind: "cafe", category: .cafe, name: name, details: details)
        if let alternative { spot.otherNames["alt_name"] = alternative }
        spot.hasWikipedia = wikipedia
        return spot
    }

    @Test("within a level, name before alt_name, then the better-known place, then OSM id")
    func fieldThenQualityThenReference() throws {
        let spots = [
            Self.spot(1, "Alpha Cafe"),
            Self.spot(2, "Other", alternative: "Alpha Bistro"),
            Self.spot(3, "Alpha Bar", details: [.website: "https://example.org", .wikidata: "Q1"]),
            Self.spot(4, "Alpha", details: [.phone: "1"]),
            Self.spot(5, "Alpha House", wikipedia: true),
            Self.spot(6, "The Alpha"),
        ]
        let search = try SpotSearch(index: try openIndex(of: spots))
        let ids = try search.search(SearchRequest(naturalLanguageQuery: "alpha")).map(\.spot.ref.id)
        // Exact; prefix in name by quality (6, 4, 0 and id); prefix in alt_name; words.
        #expect(ids == [4, 3, 5, 1, 2, 6])
        let explained = try search.search(SearchRequest(naturalLanguageQuery: "alpha", explain: true))
        #expect(explained.map { $0.match?.level } == [.exact, .prefix, .prefix, .prefix, .prefix, .words])
        #expect(explained[4].match?.field == "alt_name")
    }

    @Test("brand and operator are searched as other names: after a spot's own names at the same level")
    func brandAndOperator() throws {
        let spots = [
            Self.spot(1, nil, details: [.operator: "Mora Banc"]),
            Self.spot(2, "Shell Beach Cafe"),
            Self.spot(3, "Station", details: [.brand: "Shell"]),
            Self.spot(4, "Mora"),
            Self.spot(5, "Shell"),
        ]
        let search = try SpotSearch(index: try openIndex(of: spots))
        let shell = try search.search(SearchRequest(naturalLanguageQuery: "shell", explain: true))
        #expect(shell.map(\.spot.ref.id) == [5, 3, 2], "exact in the name, exact in the brand, then the prefix")
        #expect(shell.map { $0.match?.field } == ["name", "brand", "name"])
        let bank = try search.search(SearchRequest(naturalLanguageQuery: "mora banc"))
        #expect(bank.map(\.spot.ref.id) == [1])
        #expect(bank.first?.displayName == DisplayName(key: "operator", name: "Mora Banc"))
    }

    @Test("with a place a whole name comes first up to twice as far as a name begun; the nearer begun first")
    func distanceAgainstLevel() throws {
        let here = Coordinate(latitudeE7: 600_000_000, longitudeE7: 250_000_000)!
        // 111 m and 556 m away: "Harbour" 167 m away first, 2.2 km away after both.
        for (latitude, expected) in [(60.0015, [Int64(1), 2, 3]), (60.02, [2, 3, 1])] {
            let spots = [
                Self.spot(1, "Harbour", latitude: latitude),
                Self.spot(2, "Harbour Cafe", latitude: 60.001),
                Self.spot(3, "Harbour Bar", latitude: 60.005),
            ]
            let search = try SpotSearch(index: try openIndex(of: spots))
            let results = try search.search(SearchRequest(naturalLanguageQuery: "harbour", near: here, explain: true))
            #expect(results.map(\.spot.ref.id) == expected)
            #expect(zip(results, results.dropFirst()).allSatisfy { ($0.match?.score ?? 0) >= ($1.match?.score ?? 0) })
        }
    }

    /// A spot of `kind` (`amenity=kind`, of `category`) `metres` north of 60° N 25° E.
    static func spot(
        _ id: Int64, _ name: String?, kind: String, _ category: Category, metres: Double, quality: Bool = false,
        cuisine: String? = nil
    ) -> Spot {
        var spot = Spot(
            ref: OSMRef(.node, id),
            coordinate: Coordinate(latitudeE7: 600_000_000 + Int32(metres / 111_195 * 1e7), longitudeE7: 250_000_000)!,
            tagKey: "amenity", kind: kind, category: category, name: name,
            details: quality ? [.website: "https://example.org", .wikidata: "Q1"] : [:])
        if let cuisine { spot.details[.cuisine] = cuisine }
        return spot
    }

    static let kinds = [
        spot(1, "Hotel Harbour", kind: "restaurant", .restaurant, metres: 40),
        spot(2, "Sea View", kind: "hotel", .hotel, metres: 500),
        spot(3, "Grand", kind: "hotel", .hotel, metres: 520, quality: true),
        spot(4, nil, kind: "hotel", .hotel, metres: 300),
        spot(5, "Hotel Sport", kind: "hotel", .hotel, metres: 5_000),
        spot(6, "Sport Bar", kind: "bar", .nightlife, metres: 60),
        spot(7, "Hotel Sport Bar", kind: "bar", .nightlife, metres: 70),
        spot(8, "Sport", kind: "hotel", .hotel, metres: 900),
    ]

    @Test("a category word near a place lists that kind by distance, quality within 10%, then names of other kinds")
    func categoryWordNearAPlace() throws {
        let search = try SpotSearch(index: try openIndex(of: Self.kinds, categoryWords: ["hotel": [.hotel]]))
        let here = Coordinate(latitudeE7: 600_000_000, longitudeE7: 250_000_000)!
        func ids(_ query: String, near: Coordinate?) throws -> [Int64] {
            try search.search(SearchRequest(naturalLanguageQuery: query, near: near)).map(\.spot.ref.id)
        }
        // The hotel 520 m away and better known comes before the one 500 m away (within 10%),
        // the one 900 m away after both; the restaurant named "Hotel Harbour" 40 m away last.
        #expect(try ids("hotel", near: here) == [4, 3, 2, 8, 5, 1, 7])
        #expect(try ids("hotel", near: nil).prefix(3) == [1, 5, 7], "without a place names first, as before")
        // Name words filter ("Sport Bar" is no hotel and names none); without a place level by
        // level, with one the hotels first: "Sport" 900 m away, then "Hotel Sport" 5 km away.
        #expect(try ids("hotel sport", near: nil) == [5, 7, 8])
        #expect(try ids("hotel sport", near: here) == [8, 5, 7])
    }

    @Test("a cuisine word finds the cuisine's spots and the places kept for it; without a place most targets first")
    func purposeWords() throws {
        let spots = [
            Self.spot(1, "Kahvila", kind: "cafe", .cafe, metres: 100),
            Self.spot(2, "Beans", kind: "cafe", .cafe, metres: 900, cuisine: "coffee_shop"),
            Self.spot(3, "Roastery", kind: "fast_food", .restaurant, metres: 300, cuisine: "donut;coffee_shop"),
            Self.spot(4, "Noodles", kind: "restaurant", .restaurant, metres: 50),
        ]
        let search = try SpotSearch(
            index: try openIndex(of: spots, valueWords: ["coffee": ["cuisine=coffee_shop", "amenity=cafe"]]))
        let here = Coordinate(latitudeE7: 600_000_000, longitudeE7: 250_000_000)!
        let near = try search.search(SearchRequest(naturalLanguageQuery: "coffee", near: here)).map(\.spot.ref.id)
        #expect(near == [1, 3, 2])
        let anywhere = try search.search(SearchRequest(naturalLanguageQuery: "coffee")).map(\.spot.ref.id)
        #expect(anywhere == [2, 1, 3], "the café with the cuisine meets both targets; the others one each")
    }

    @Test("several words: the level comes from the one name that holds them all")
    func severalWords() throws {
        let spots = [
            Self.spot(1, "Cafe Alpha Beta"),
            Self.spot(2, "Alpha Beta"),
            Self.spot(3, "Beta Alpha"),
            Self.spot(4, "Alpha Betamax Gamma"),
        ]
        let search = try SpotSearch(index: try openIndex(of: spots))
        let results = try search.search(SearchRequest(naturalLanguageQuery: "alpha beta", explain: true))
        #expect(results.map(\.spot.ref.id) == [2, 4, 1, 3])
        #expect(results.map { $0.match?.level } == [.exact, .prefix, .words, .words])
    }

    @Test("a query of category words ranks names holding them above spots of the category")
    func categoryLevel() throws {
        let spots = [
            Self.spot(1, "Cafe Central"), Self.spot(2, "Beans", details: [.website: "x"]), Self.spot(3, "Mocha"),
        ]
        let search = try SpotSearch(index: try openIndex(of: spots, categoryWords: ["cafe": [.cafe]]))
        let results = try search.search(SearchRequest(naturalLanguageQuery: "cafe", explain: true))
        #expect(results.map(\.spot.ref.id) == [1, 2, 3])
        #expect(results.map { $0.match?.level } == [.prefix, .category, .category])
        #expect(results[1].match?.field == "amenity=cafe")
    }

    @Test("a candidate's names, read once a search by string number, are the spot's names in their order")
    func candidateNamesAreTheSpotsNames() throws {
        let index = Self.helsinki.index
        let words = CandidateWords()
        for _ in 0..<2 {  // the second time from what the first kept
            for spot in 0..<index.count {
                let expected = try index.spot(at: spot).namesByKey
                let names = try words.names(of: spot, in: index)
                #expect(names.map(\.key) == expected.map(\.key) && names.map(\.name) == expected.map(\.name))
                #expect(names.map(\.words) == expected.map { SearchText.words($0.name) })
            }
        }
    }

    @Test("the level a run of postings promises is the one NameMatch gives, for one-word queries")
    func postingLevelsAgreeWithNameMatch() throws {
        let index = Self.helsinki.index
        for spot in 0..<index.count {
            let decoded = try index.spot(at: spot)
            for (key, name) in decoded.namesByKey {
                for (token, place) in SearchText.tokens(ofName: name) {
                    for term in [token, String(token.prefix(2))] where !term.isEmpty {
                        let level = WordPostings.bestLevel(place: place, tokenIsTerm: term == token, termCount: 1)
                        let named = NameMatch.level(of: SearchName(key: key, name: name), terms: [term])
                        #expect(named.map { $0 <= level } == true, "\(name) / \(term)")
                        if place != .inName || named == .words { #expect(named == level, "\(name) / \(term)") }
                    }
                }
            }
        }
    }

    @Test("the neighbourhood gives a kind's nearest spots as the kind's lists would, quality within 10%")
    func kindsFromTheNeighbourhood() throws {
        // 400 hotels and 100 bars, so that the walk of the tree reads fewer spots than the list.
        var spots: [Spot] = []
        for id in 1...500 {
            let metres = Double((id * 7_919) % 5_000)
            spots.append(
                Self.spot(
                    Int64(id), "Place \(id)", kind: id % 5 == 0 ? "bar" : "hotel", id % 5 == 0 ? .nightlife : .hotel,
                    metres: metres, quality: id % 3 == 0))
        }
        let search = try SpotSearch(index: try openIndex(of: spots, categoryWords: ["hotel": [.hotel]]))
        let here = Coordinate(latitudeE7: 600_000_000, longitudeE7: 250_000_000)!
        for limit in [1, 5, 40] {
            let got = try search.search(SearchRequest(naturalLanguageQuery: "hotel", near: here, limit: limit))
            // The documented order: 1.1^(q/10) / (1 + d / 1 m), then OSM type and id.
            let want = spots.filter { $0.category == .hotel }.map { spot in
                let quality = Double(PlaceQuality(of: spot).score) / 10
                return (score: log(1.1) * quality - log1p(spot.coordinate.distance(to: here)), id: spot.ref.id)
            }.sorted { ($0.score, -$0.id) > ($1.score, -$1.id) }.prefix(limit).map(\.id)
            #expect(got.map(\.spot.ref.id) == Array(want), "limit \(limit)")
        }
    }
}
