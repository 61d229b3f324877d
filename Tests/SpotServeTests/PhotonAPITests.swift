import Foundation
import SpotIndex
import SpotIndexWriting
import SpotJSON
import SpotPipeline
import SpotSearch
import SpotTestSupport
import Spots
import Testing

@testable import SpotServe

/// The indexes the Photon tests ask: the Helsinki sample built with the default pipeline, and a
/// few spots written by hand.
enum PhotonFixtures {
    static let helsinki: LoadedIndex = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var pipeline = try! Pipeline.defaults()
        pipeline.inputs = [root.appendingPathComponent("Samples/helsinki-center.osm.gz").path]
        return try! loaded(SpotBuild(pipeline: pipeline).run().0)
    }()

    /// Where the bike station "Kiasma kaupunkipyöräasema" stands, in the middle of the sample.
    static let centre = Coordinate(latitudeE7: 601_711_000, longitudeE7: 249_375_000)!

    static let cafe = Spot(
        ref: OSMRef(.node, 101), coordinate: Coordinate(latitudeE7: 601_700_000, longitudeE7: 249_400_000)!,
        tagKey: "amenity", kind: "cafe", category: .cafe, name: "Café Aalto", names: ["sv": "Kafé Aalto"],
        address: [
            "street": "Pohjoisesplanadi", "housenumber": "39", "postcode": "00100", "city": "Helsinki",
            "country": "fi", "suburb": "Kluuvi",
        ],
        details: [.website: "https://aalto.example", .openingHours: "Mo-Su 09:00-21:00", .cuisine: "coffee_shop"])
    static let handMade: [Spot] = [
        cafe,
        Spot(
            ref: OSMRef(.way, 202), coordinate: Coordinate(latitudeE7: 601_710_000, longitudeE7: 249_410_000)!,
            tagKey: "tourism", kind: "museum", category: .museum, name: "Ateneum"),
        // A value that is no category label: Photon's category for it is osm.amenity.yes.
        Spot(
            ref: OSMRef(.relation, 303), coordinate: Coordinate(latitudeE7: 601_720_000, longitudeE7: 249_420_000)!,
            tagKey: "amenity", kind: "bar;restaurant", category: nil, name: "Kappeli"),
        Spot(
            ref: OSMRef(.node, 404), coordinate: Coordinate(latitudeE7: 614_978_000, longitudeE7: 237_610_000)!,
            tagKey: "tourism", kind: "hotel", category: .hotel, name: "Hotel Aalto"),
    ]

    static func handMadeIndex(buildTime: String?) throws -> LoadedIndex {
        let metadata = IndexMetadata(generator: "tests", buildTime: buildTime, inputs: [], bbox: nil, statistics: [:])
        return try loaded(SpotIndexWriter.encode(handMade, metadata: metadata))
    }

    static func loaded(_ bytes: [UInt8]) throws -> LoadedIndex {
        try withTemporaryFile(bytes) { path in try LoadedIndex(path: path, generation: 1) }
    }
}

/// A route's answer, read back.
struct PhotonAnswer {
    let response: HTTPResponse
    let json: JSONValue

    enum Route { case search, reverse }

    init(_ route: Route, _ arguments: [(String, String)], on index: LoadedIndex = PhotonFixtures.helsinki) throws {
        let pairs = arguments.map { (name: $0.0, value: $0.1) }
        response = route == .search ? PhotonAPI.search(pairs, on: index) : PhotonAPI.reverse(pairs, on: index)
        json = try JSONValue(parsing: response.body)
    }

    var features: [[String: JSONValue]] {
        guard case .object(let collection) = json, case .array(let features)? = collection["features"] else {
            return []
        }
        return features.compactMap { feature in
            guard case .object(let members) = feature, case .object(let properties)? = members["properties"] else {
                return nil
            }
            return properties
        }
    }

    /// Each feature's `osm_type` and `osm_id`.
    var refs: [OSMRef] {
        features.compactMap { properties in
            guard case .string(let type)? = properties["osm_type"], let id = properties["osm_id"]?.double,
                let osmType = ["N": OSMType.node, "W": .way, "R": .relation][type]
            else { return nil }
            return OSMRef(osmType, Int64(id))
        }
    }

    /// String property `key` of each feature (nil where it is absent).
    func strings(_ key: String) -> [String?] {
        features.map { properties in
            guard case .string(let value)? = properties[key] else { return nil }
            return value
        }
    }

    /// The message of an error answer.
    var message: String? {
        guard case .object(let members) = json, members.count == 1, case .string(let message)? = members["message"]
        else { return nil }
        return message
    }
}

/// The references SpotSearch ranks for `request`, in order.
func ranked(_ request: SearchRequest, on index: LoadedIndex = PhotonFixtures.helsinki) throws -> [OSMRef] {
    try index.search.rankedSpots(request).map { try index.search.index.ref(at: $0.spot) }
}

/// Every spot of the Helsinki sample, nearest the centre first, with its selecting tag.
func everySpotByDistance() throws -> [(ref: OSMRef, key: String, value: String)] {
    let index = PhotonFixtures.helsinki
    let request = SearchRequest(near: PhotonFixtures.centre, radius: 5_000_000, limit: index.search.index.count)
    return try index.search.rankedSpots(request).map { result in
        let kind = try index.search.index.kind(at: result.spot)
        return (try index.search.index.ref(at: result.spot), kind.key, kind.value)
    }
}

@Suite("Photon's API answered from a Spots index")
struct PhotonAPITests {
    static let lat = ("lat", "60.1711")
    static let lon = ("lon", "24.9375")

    @Test("/api?q= answers the spots SpotSearch ranks for the text, in its order, 15 by default, as JSON")
    func searchMapsOntoRankedSpots() throws {
        for query in ["kiasma", "cafe", "hotel", "aino", "Lönnrotinkatu", "ravintola"] {
            let answer = try PhotonAnswer(.search, [("q", query)])
            #expect(answer.response.status == 200)
            #expect(answer.response.contentType == "application/json; charset=utf-8")
            let expected = try ranked(SearchRequest(naturalLanguageQuery: query, limit: 15))
            #expect(!expected.isEmpty && answer.refs == expected, "\(query)")
            #expect(
                answer.strings("distance_m").allSatisfy { $0 == nil }
                    && answer.features.allSatisfy {
                        $0["distance_m"] == nil
                    })
        }
        #expect(try PhotonAnswer(.search, [("q", "cafe")]).refs.count == 15)
    }

    @Test("lat and lon are the place; zoom sets the distance scale, location_bias_scale the quality weight")
    func locationBias() throws {
        func request(
            _ query: String, near: Coordinate? = PhotonFixtures.centre, scale: Double = 100, weight: Double = 1
        )
            -> SearchRequest
        {
            SearchRequest(
                naturalLanguageQuery: query, near: near, limit: 15, distanceScale: scale, qualityWeight: weight)
        }
        var changedByZoom = 0
        var changedByWeight = 0
        for query in ["aino", "arti", "anna", "bist"] {
            let biased = try PhotonAnswer(.search, [("q", query), Self.lat, Self.lon])
            let plain = try ranked(request(query))
            #expect(biased.refs == plain)
            // Distances to the nearest 0.1 m.
            let distances = try PhotonFixtures.helsinki.search.rankedSpots(request(query)).map {
                $0.distance.map { ($0 * 10).rounded() / 10 }
            }
            #expect(biased.features.map { $0["distance_m"]?.double } == distances)
            // Zoom 12: Photon's radius 2.2^6 × 0.1 km.
            let zoomed = try PhotonAnswer(.search, [("q", query), Self.lat, Self.lon, ("zoom", "12")]).refs
            #expect(zoomed == (try ranked(request(query, scale: 100 * pow(2.2, 6)))))
            changedByZoom += zoomed == plain ? 0 : 1
            // Zoom 18 and beyond, and none, are Spots' default 100 m.
            #expect(try PhotonAnswer(.search, [("q", query), Self.lat, Self.lon, ("zoom", "18")]).refs == plain)
            #expect(try PhotonAnswer(.search, [("q", query), Self.lat, Self.lon, ("zoom", "40")]).refs == plain)
            // Zoom 4 and below: Photon biases by no place.
            let far = try PhotonAnswer(.search, [("q", query), Self.lat, Self.lon, ("zoom", "4")])
            #expect(far.refs == (try ranked(request(query, near: nil))))
            #expect(far.features.allSatisfy { $0["distance_m"] == nil })
            // location_bias_scale / 0.4, within 0...1: 0.4 is the default weight 1.
            for (scale, weight) in [("0.4", 1.0), ("0", 0), ("0.1", 0.25), ("1", 2.5), ("7", 2.5), ("-3", 0)] {
                let answer = try PhotonAnswer(
                    .search, [("q", query), Self.lat, Self.lon, ("location_bias_scale", scale)])
                #expect(answer.refs == (try ranked(request(query, weight: weight))), "\(query) \(scale)")
                changedByWeight += answer.refs == plain ? 0 : 1
            }
        }
        #expect(changedByZoom > 0 && changedByWeight > 0)
    }

    @Test("zoom's distance scale and location_bias_scale's quality weight")
    func biasNumbers() {
        #expect(PhotonAPI.distanceScale(zoom: nil) == SearchRequest.defaultDistanceScale)
        #expect(PhotonAPI.distanceScale(zoom: 18) == 100 && PhotonAPI.distanceScale(zoom: 25) == 100)
        #expect(abs(PhotonAPI.distanceScale(zoom: 12) - 11_337.99) < 0.01)
        #expect(PhotonAPI.distanceScale(zoom: 0) == PhotonAPI.distanceScale(zoom: -5))
        #expect(abs(PhotonAPI.distanceScale(zoom: 0) - 100 * pow(2.2, 18)) < 1e-6)
        #expect(PhotonAPI.qualityWeight(locationBiasScale: nil) == 1)
        #expect(PhotonAPI.qualityWeight(locationBiasScale: 0.4) == 1)
        #expect(
            PhotonAPI.qualityWeight(locationBiasScale: 0) == 0 && PhotonAPI.qualityWeight(locationBiasScale: -1) == 0)
        #expect(
            PhotonAPI.qualityWeight(locationBiasScale: 1) == 2.5 && PhotonAPI.qualityWeight(locationBiasScale: 9) == 2.5
        )
    }

    /// `osm_tag` values and which selecting tags they keep, as Photon's rules say.
    static let tagCases: [([String], @Sendable (String, String) -> Bool)] = [
        (["amenity"], { key, _ in key == "amenity" }),
        (["amenity:cafe"], { key, value in key == "amenity" && value == "cafe" }),
        ([":cafe"], { _, value in value == "cafe" }),
        (["!amenity"], { key, _ in key != "amenity" }),
        (["!amenity:cafe"], { key, value in !(key == "amenity" && value == "cafe") }),
        ([":!cafe"], { _, value in value != "cafe" }),
        (["!:cafe"], { _, value in value != "cafe" }),
        (["!amenity:!cafe"], { key, value in !(key == "amenity" && value == "cafe") }),
        (["amenity:!cafe"], { key, value in key == "amenity" && value != "cafe" }),
        (["amenity: cafe "], { key, value in key == "amenity" && value == "cafe" }),
        (
            ["amenity:cafe", "tourism:museum"],
            { key, value in (key, value) == ("amenity", "cafe") || value == "museum" }
        ),
        (["tourism", ":cafe"], { key, value in key == "tourism" || value == "cafe" }),
        (
            ["amenity", "!:restaurant", "!amenity:bar"],
            { key, value in key == "amenity" && value != "restaurant" && value != "bar" }
        ),
        // Each include of a key but a value lets the other's value through, as in Photon.
        (["amenity:!cafe", "amenity:!bar"], { key, _ in key == "amenity" }),
        (["amenity:!cafe", "tourism:hotel"], { key, value in key == "amenity" ? value != "cafe" : value == "hotel" }),
    ]

    @Test("osm_tag in each of Photon's forms, repeated: includes or-ed, any exclude excludes", arguments: tagCases)
    func osmTags(_ values: [String], _ keeps: @Sendable (String, String) -> Bool) throws {
        let every = try everySpotByDistance()
        let expected = every.filter { keeps($0.key, $0.value) }.map(\.ref)
        #expect(!expected.isEmpty && expected.count < every.count)
        let answer = try PhotonAnswer(
            .reverse, [Self.lat, Self.lon, ("radius", "5000"), ("limit", "1000")] + values.map { ("osm_tag", $0) })
        #expect(answer.refs == expected, "\(values)")
        #expect(zip(answer.strings("osm_key"), answer.strings("osm_value")).allSatisfy { keeps($0!, $1!) })
    }

    @Test("osm_tag on /api filters as the search's TagFilter of the same rule does")
    func osmTagsOnSearch() throws {
        let cases: [(String, TagFilter)] = [
            ("!amenity:cafe", TagFilter(excluding: [.init(key: "amenity", value: "cafe")])),
            (":cafe", TagFilter(including: [.init(key: nil, value: "cafe")])),
            ("!:cafe", TagFilter(excluding: [.init(key: nil, value: "cafe")])),
            ("amenity", TagFilter(including: [.init(key: "amenity", value: nil)])),
        ]
        for (value, filter) in cases {
            var request = SearchRequest(naturalLanguageQuery: "cafe", limit: 15)
            request.tagFilter = filter
            let expected = try ranked(request)
            #expect(!expected.isEmpty)
            #expect(try PhotonAnswer(.search, [("q", "cafe"), ("osm_tag", value)]).refs == expected, "\(value)")
        }
        #expect(try PhotonAnswer(.search, [("q", "cafe"), ("osm_tag", "amenity:no_such_value")]).refs.isEmpty)
    }

    @Test(
        "osm_tag values Photon refuses are refused",
        arguments: ["", ":", "shop:", "a:b:c", "!", "amenity:!", "::cafe", "!:"])
    func badOsmTags(_ value: String) throws {
        for route in [PhotonAnswer.Route.search, .reverse] {
            let answer = try PhotonAnswer(route, [("q", "cafe"), Self.lat, Self.lon, ("osm_tag", value)])
            #expect(answer.response.status == 400 && answer.message == "Invalid format for osm_tag parameter.")
        }
    }

    @Test("include and exclude name Photon's categories osm.KEY.VALUE, repeated includes all met, any exclude")
    func categories() throws {
        let every = try everySpotByDistance()
        let cases: [([(String, String)], (String, String) -> Bool)] = [
            ([("include", "osm.amenity.cafe")], { key, value in key == "amenity" && value == "cafe" }),
            ([("include", "osm.tourism")], { key, _ in key == "tourism" }),
            (
                [("include", "osm.amenity.cafe,osm.tourism.museum")],
                { _, value in value == "cafe" || value == "museum" }
            ),
            (
                [("include", "osm.amenity"), ("include", "osm.amenity.bar,osm.tourism.hotel,osm.amenity.pub")],
                { key, value in key == "amenity" && (value == "bar" || value == "pub") }
            ),
            ([("exclude", "osm.amenity")], { key, _ in key != "amenity" }),
            ([("exclude", "osm.amenity,osm.amenity.cafe")], { _, value in value != "cafe" }),
            (
                [("exclude", "osm.amenity.cafe"), ("exclude", "osm.tourism")],
                { key, value in key == "amenity" && value != "cafe" }
            ),
            (
                [("include", "osm.amenity"), ("osm_tag", "!:restaurant")],
                { key, value in key == "amenity" && value != "restaurant" }
            ),
        ]
        for (arguments, keeps) in cases {
            let expected = every.filter { keeps($0.key, $0.value) }.map(\.ref)
            #expect(!expected.isEmpty && expected.count < every.count)
            let answer = try PhotonAnswer(
                .reverse, [Self.lat, Self.lon, ("radius", "5000"), ("limit", "1000")] + arguments)
            #expect(answer.refs == expected, "\(arguments)")
        }
        // A group the index has no categories of, and a category no spot has.
        #expect(try PhotonAnswer(.reverse, [Self.lat, Self.lon, ("include", "food.shop")]).refs.isEmpty)
        #expect(try PhotonAnswer(.reverse, [Self.lat, Self.lon, ("include", "osm.amenity.nothing")]).refs.isEmpty)
        // A value that is no label is osm.KEY.yes, as Photon's export writes it.
        let handMade = try PhotonFixtures.handMadeIndex(buildTime: nil)
        let yes = try PhotonAnswer(.search, [("include", "osm.amenity.yes")], on: handMade)
        #expect(yes.refs == [OSMRef(.relation, 303)] && yes.strings("osm_value") == ["bar;restaurant"])
        for value in ["osm", "osm.", "osm..cafe", "osm.amenity,", ",osm.amenity", "osm.ame nity", "osm.amenity=cafe"] {
            for name in ["include", "exclude"] {
                let answer = try PhotonAnswer(.search, [("q", "cafe"), (name, value)])
                #expect(answer.response.status == 400 && answer.message == "Invalid category pattern in '\(name)'.")
            }
        }
    }

    @Test("q may be left out when categories are included, as in Photon; else it is required")
    func missingQuery() throws {
        var cafes = SearchRequest(limit: 15)
        cafes.tagFilter = TagFilter(including: [.init(key: "amenity", value: "cafe")])
        #expect(try PhotonAnswer(.search, [("include", "osm.amenity.cafe")]).refs == ranked(cafes))
        cafes.near = PhotonFixtures.centre
        let near = try PhotonAnswer(.search, [("include", "osm.amenity.cafe"), Self.lat, Self.lon])
        #expect(near.refs == (try ranked(cafes)) && near.refs.count == 15)
        let withoutQuery: [[(String, String)]] = [
            [], [("q", "")], [("q", "  ")], [("osm_tag", "amenity:cafe")], [("layer", "house")],
        ]
        for arguments in withoutQuery {
            let answer = try PhotonAnswer(.search, arguments + [Self.lat, Self.lon])
            #expect(answer.response.status == 400)
            #expect(answer.message == "q parameter is required when no include categories are specified")
        }
    }

    @Test("layer: every spot is a point of interest, layer house; other layers are empty, unknown ones refused")
    func layers() throws {
        let all = try PhotonAnswer(.search, [("q", "cafe")]).refs
        #expect(!all.isEmpty)
        #expect(try PhotonAnswer(.search, [("q", "cafe")]).strings("type").allSatisfy { $0 == "house" })
        #expect(try PhotonAnswer(.search, [("q", "cafe"), ("layer", "house")]).refs == all)
        #expect(try PhotonAnswer(.search, [("q", "cafe"), ("layer", "city"), ("layer", "house")]).refs == all)
        for layer in ["street", "locality", "district", "city", "county", "state", "country", "other"] {
            let answer = try PhotonAnswer(.search, [("q", "cafe"), ("layer", layer)])
            #expect(answer.response.status == 200 && answer.refs.isEmpty && answer.features.isEmpty)
            #expect(try PhotonAnswer(.reverse, [Self.lat, Self.lon, ("layer", layer)]).refs.isEmpty)
        }
        let unknown = try PhotonAnswer(.search, [("q", "cafe"), ("layer", "house"), ("layer", "suburb")])
        #expect(unknown.response.status == 400)
        #expect(
            unknown.message
                == "Unknown layer type 'suburb'. Available layers: [house, street, locality, district, city, county, state, country, other]"
        )
    }

    @Test("lang gives each name in that language, falling back as the display name does; an unknown code is ignored")
    func language() throws {
        let query = ("q", "omenahotelli lönnrotinkatu")
        func firstName(_ arguments: [(String, String)]) throws -> String? {
            try PhotonAnswer(.search, [query] + arguments).strings("name").first ?? nil
        }
        #expect(try firstName([("lang", "sv")]) == "Omena Hotel Lönnrotsgatan")
        let localNames: [[(String, String)]] = [
            [], [("lang", "fi")], [("lang", "default")], [("lang", "de")], [("lang", "!!")],
        ]
        for arguments in localNames {
            #expect(try firstName(arguments) == "Omenahotelli Lönnrotinkatu", "\(arguments)")
        }
        let search = PhotonFixtures.helsinki.search
        for lang in ["sv", "en", "fi", "ja"] {
            let answer = try PhotonAnswer(.search, [("q", "kiasma"), ("lang", lang)])
            let request = SearchRequest(naturalLanguageQuery: "kiasma", limit: 15, language: lang)
            let expected = try search.search(request)
            #expect(answer.refs == expected.map(\.spot.ref))
            #expect(answer.strings("name") == expected.map(\.displayName?.name))
        }
    }

    @Test("Photon's properties: the reference, the selecting tag, the layer, the address parts, the details as extra")
    func properties() throws {
        let answer = try PhotonAnswer(.search, [("q", "omenahotelli lönnrotinkatu"), ("lang", "fi")])
        let hotel = try #require(answer.features.first)
        let expected: [String: String] = [
            "osm_type": "N", "osm_key": "tourism", "osm_value": "hotel", "type": "house", "housenumber": "13",
            "name": "Omenahotelli Lönnrotinkatu", "street": "Lönnrotinkatu", "city": "Helsinki", "postcode": "00120",
            "countrycode": "FI", "country": "Suomi", "category": "hotel",
            "address_line": "Lönnrotinkatu 13, 00120 Helsinki",
        ]
        for (key, value) in expected { #expect(hotel[key] == .string(value), "\(key)") }
        #expect(hotel["osm_id"]?.double == 648_249_324)
        #expect(
            hotel["extra"]
                == .object([
                    "operator": .string("Omenahotels"),
                    "website": .string("https://www.omenahotels.com/fi/hotellit/suomi/helsinki-loennrotinkatu/"),
                ]))
        // Country names are in the request's language, English without one.
        #expect(try PhotonAnswer(.search, [("q", "omenahotelli lönnrotinkatu")]).strings("country").first == "Finland")
        #expect(try PhotonAnswer(.search, [("q", "kiasma")]).features.allSatisfy { $0["extent"] == nil })
    }

    @Test("a feature's bytes: Photon's properties in its order, then Spots' own, then the point")
    func featureBytes() throws {
        let index = try PhotonFixtures.handMadeIndex(buildTime: nil)
        let answer = try PhotonAnswer(
            .search, [("q", "aalto"), ("lat", "60.17"), ("lon", "24.94"), ("limit", "1"), ("explain", "yes")],
            on: index)
        let request = SearchRequest(
            naturalLanguageQuery: "aalto", near: Coordinate(latitudeE7: 601_700_000, longitudeE7: 249_400_000),
            limit: 1,
            explain: true)
        let result = try #require(try index.search.rankedSpots(request).first)
        let match = try #require(result.match)
        #expect(result.distance == 0)
        let expected =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"osm_type":"N","osm_id":101,"#
            + #""osm_key":"amenity","osm_value":"cafe","type":"house","housenumber":"39","name":"Café Aalto","#
            + #""street":"Pohjoisesplanadi","district":"Kluuvi","city":"Helsinki","country":"Finland","#
            + #""postcode":"00100","countrycode":"FI","extra":{"website":"https://aalto.example","#
            + #""opening_hours":"Mo-Su 09:00-21:00","cuisine":"coffee_shop"},"category":"cafe","#
            + #""result_type":"pointOfInterest","#
            + #""address_line":"Pohjoisesplanadi 39, 00100 Helsinki","distance_m":0.0,"#
            + #""match":{"level":"\#(match.level.name)","field":"name","score":\#(String(format: "%.4g", match.score))}},"#
            + #""geometry":{"type":"Point","coordinates":[24.9400000,60.1700000]}}]}"#
        #expect(String(decoding: answer.response.body, as: UTF8.self) == expected)
        #expect(match.level == .words)
    }

    @Test("explain=true adds each result's match, as SpotSearch explains it")
    func explain() throws {
        let request = SearchRequest(
            naturalLanguageQuery: "kiasma", near: PhotonFixtures.centre, limit: 15, explain: true)
        let expected = try PhotonFixtures.helsinki.search.rankedSpots(request)
        for flag in ["true", "1", "YES"] {
            let answer = try PhotonAnswer(.search, [("q", "kiasma"), Self.lat, Self.lon, ("explain", flag)])
            let levels = answer.features.map { properties -> String? in
                guard case .object(let match)? = properties["match"], case .string(let level)? = match["level"] else {
                    return nil
                }
                return level
            }
            #expect(levels == expected.map { $0.match?.level.name })
        }
        let plain = try PhotonAnswer(.search, [("q", "kiasma"), ("explain", "no")])
        #expect(!plain.features.isEmpty && plain.features.allSatisfy { $0["match"] == nil })
    }

    @Test("bbox is minLon,minLat,maxLon,maxLat, corners in either order; a bad one is refused with Photon's words")
    func boundingBox() throws {
        let box = try #require(GeoBox(west: 24.935, south: 60.165, east: 24.950, north: 60.172))
        let expected = try ranked(SearchRequest(naturalLanguageQuery: "cafe", region: box, limit: 15))
        #expect(!expected.isEmpty)
        for text in ["24.935,60.165,24.95,60.172", "24.95,60.172,24.935,60.165", " 24.935, 60.165 ,24.95,60.172"] {
            let answer = try PhotonAnswer(.search, [("q", "cafe"), ("bbox", text)])
            #expect(answer.refs == expected, "\(text)")
        }
        let inside = try PhotonAnswer(
            .search, [("q", "cafe"), ("bbox", "24.935,60.165,24.95,60.172"), ("limit", "50")])
        let search = PhotonFixtures.helsinki.search
        #expect(!inside.refs.isEmpty)
        #expect(try inside.refs.allSatisfy { (try search.spot(for: $0)?.coordinate).map(box.contains) ?? false })
        let count =
            "Invalid number of supplied coordinates for parameter 'bbox', expected format is: minLon,minLat,maxLon,maxLat"
        let bounds =
            "Invalid bounds for parameter 'bbox', expected values minLat, maxLat element [-90,90], minLon, maxLon element [-180,180]"
        let cases = [
            ("9.6,52.3,9.8", count), ("9.6,52.3,r34,9.8", count), ("9.6,52.3,,9.8", count), ("", count),
            ("9.6,52.3,NaN,9.8", bounds), ("9.6,52.3,-Infinity,9.8", bounds), ("9.6,-92,9.8,14", bounds),
            ("9.6,14,9.8,91", bounds), ("-181, 9, 4, 12", bounds), ("12, 9, 181, 12", bounds),
        ]
        for (text, message) in cases {
            let answer = try PhotonAnswer(.search, [("q", "cafe"), ("bbox", text)])
            #expect(answer.response.status == 400 && answer.message == message, "\(text)")
        }
    }

    @Test("limit: 15 by default (1 for reverse), at least 1, at most 1,000; q at most 1,024 bytes")
    func limits() throws {
        let cafe = ("q", "cafe")
        #expect(try PhotonAnswer(.search, [cafe]).refs.count == 15)
        #expect(
            try PhotonAnswer(.search, [cafe, ("limit", "3")]).refs
                == ranked(SearchRequest(naturalLanguageQuery: "cafe", limit: 3)))
        #expect(try PhotonAnswer(.search, [cafe, ("limit", "0")]).refs.count == 1)
        #expect(try PhotonAnswer(.search, [cafe, ("limit", "-5")]).refs.count == 1)
        #expect(try PhotonAnswer(.search, [cafe, ("limit", "1000")]).response.status == 200)
        #expect(try PhotonAnswer(.reverse, [Self.lat, Self.lon]).refs.count == 1)
        #expect(try PhotonAnswer(.reverse, [Self.lat, Self.lon, ("limit", "5")]).refs.count == 5)
        for value in ["1001", "abc", "2.5", "", "99999999999"] {
            for route in [PhotonAnswer.Route.search, .reverse] {
                let answer = try PhotonAnswer(route, [cafe, Self.lat, Self.lon, ("limit", value)])
                #expect(answer.response.status == 400 && answer.message?.contains("'limit'") == true, "\(value)")
            }
        }
        for (query, fits) in [
            (String(repeating: "a", count: 1024), true), (String(repeating: "a", count: 1025), false),
            (String(repeating: "ä", count: 512), true), (String(repeating: "ä", count: 513), false),
        ] {
            let answer = try PhotonAnswer(.search, [("q", query)])
            #expect(answer.response.status == (fits ? 200 : 400))
            #expect(fits || answer.message == "Parameter 'q' is longer than 1024 bytes.")
        }
    }

    /// Requests Photon refuses, and its message.
    static let refused: [(PhotonAnswer.Route, [(String, String)], String)] = [
        (.search, [("q", "a"), ("lat", "60.1")], "Missing parameter 'lon'."),
        (.search, [("q", "a"), ("lon", "24.9")], "Missing parameter 'lat'."),
        (.search, [("q", "a"), ("lat", "90.01"), ("lon", "24.9")], "Invalid value for 'lat' parameter."),
        (.search, [("q", "a"), ("lat", "60"), ("lon", "-180.01")], "Invalid value for 'lon' parameter."),
        (.search, [("q", "a"), ("lat", "NaN"), ("lon", "24.9")], "Invalid value for 'lat' parameter."),
        (.search, [("q", "a"), ("lat", "60"), ("lon", "")], "Invalid value for 'lon' parameter."),
        (.search, [("q", "a"), ("lat", "60"), ("lon", "Infinity")], "Invalid value for 'lon' parameter."),
        (.search, [("q", "a"), ("zoom", "12.5")], "Invalid value for 'zoom' parameter."),
        (.search, [("q", "a"), ("location_bias_scale", "NaN")], "Invalid value for 'location_bias_scale' parameter."),
        (.search, [("q", "a"), ("location_bias_scale", "bad")], "Invalid value for 'location_bias_scale' parameter."),
        (.reverse, [], "Missing parameter 'lat'."),
        (.reverse, [("lat", "60.1")], "Missing parameter 'lon'."),
        (.reverse, [("lat", "bad"), ("lon", "24.9")], "Invalid value for 'lat' parameter."),
        (.reverse, [("lat", "60.1"), ("lon", "24.9"), ("radius", "bad")], "Invalid value for 'radius' parameter."),
        (.reverse, [("lat", "60.1"), ("lon", "24.9"), ("radius", "NaN")], "Invalid value for 'radius' parameter."),
    ]

    @Test("refusals are 400 with Photon's {\"message\": …}, naming the parameter", arguments: refused)
    func refusals(_ route: PhotonAnswer.Route, _ arguments: [(String, String)], _ message: String) throws {
        let answer = try PhotonAnswer(route, arguments)
        #expect(answer.response.status == 400)
        #expect(answer.response.contentType == "application/json; charset=utf-8")
        #expect(answer.message == message)
    }

    @Test("parameters Photon does not know, or Spots cannot honour, are ignored")
    func unknownParameters() throws {
        let plain = try PhotonAnswer(.search, [("q", "kiasma"), Self.lat, Self.lon])
        let extra = try PhotonAnswer(
            .search,
            [
                ("q", "kiasma"), ("bogus", "thing"), Self.lat, Self.lon, ("countrycode", "DE"), ("dedupe", "0"),
                ("debug", "1"), ("q", "ignored second q"),
            ])
        #expect(extra.response.status == 200 && extra.refs == plain.refs && !plain.refs.isEmpty)
        let reverse = try PhotonAnswer(.reverse, [Self.lat, Self.lon, ("limit", "4")])
        let ignoring = try PhotonAnswer(
            .reverse, [Self.lat, Self.lon, ("limit", "4"), ("distance_sort", "false"), ("query_string_filter", "x")])
        #expect(ignoring.refs == reverse.refs && reverse.refs.count == 4)
    }

    @Test("/reverse: the nearest spots within the radius in kilometres (1 by default, above 0, at most 5000)")
    func reverse() throws {
        #expect(
            try PhotonAnswer(.reverse, [Self.lat, Self.lon]).refs
                == ranked(SearchRequest(near: PhotonFixtures.centre, radius: 1000, limit: 1)))
        let near = try PhotonAnswer(.reverse, [Self.lat, Self.lon, ("radius", "0.15"), ("limit", "50")])
        let expected = try PhotonFixtures.helsinki.search.rankedSpots(
            SearchRequest(near: PhotonFixtures.centre, radius: 150, limit: 50))
        #expect(near.refs == (try expected.map { try PhotonFixtures.helsinki.search.index.ref(at: $0.spot) }))
        let distances = near.features.compactMap { $0["distance_m"]?.double }
        #expect(
            distances.count == near.refs.count && distances == distances.sorted() && distances.allSatisfy { $0 <= 150 })
        #expect(!near.refs.isEmpty && near.refs.count < 50)
        // Nothing within a kilometre of the Gulf of Guinea; Helsinki within 5000 km of Kraków, not of it.
        #expect(try PhotonAnswer(.reverse, [("lat", "0"), ("lon", "0")]).features.isEmpty)
        #expect(try PhotonAnswer(.reverse, [("lat", "0"), ("lon", "0"), ("radius", "5000")]).features.isEmpty)
        #expect(try PhotonAnswer(.reverse, [("lat", "50.06"), ("lon", "19.94"), ("radius", "5000")]).refs.count == 1)
        for radius in ["0", "0.0", "-10", "5000.5", "Infinity"] {
            let answer = try PhotonAnswer(.reverse, [Self.lat, Self.lon, ("radius", radius)])
            #expect(answer.response.status == 400 && answer.message?.contains("'radius'") == true, "\(radius)")
        }
        // lang and explain apply as on /api.
        let swedish = try PhotonAnswer(.reverse, [("lat", "60.16554"), ("lon", "24.93603"), ("lang", "sv")])
        let nearest = try PhotonFixtures.helsinki.search.search(
            SearchRequest(
                near: Coordinate(latitudeE7: 601_655_400, longitudeE7: 249_360_300), radius: 1000, limit: 1,
                language: "sv"))
        #expect(swedish.strings("name") == nearest.map(\.displayName?.name))
    }

    @Test("/status is Photon's health answer, the index's build time as import_date")
    func status() throws {
        let built = try PhotonFixtures.handMadeIndex(buildTime: "2026-11-30T22:15:00Z")
        let response = PhotonAPI.status(of: built)
        #expect(response.status == 200 && response.contentType == "application/json; charset=utf-8")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"status":"Ok","import_date":"2026-11-30T22:15:00Z","version":"\#(SpotsVersion.version)","git_commit":"unknown"}"#
        )
        let json = try JSONValue(parsing: PhotonAPI.status(of: PhotonFixtures.helsinki).body)
        guard case .object(let members) = json else { throw PhotonError("not an object") }
        #expect(members["status"] == .string("Ok"))
        #expect(members["import_date"] == .string(try #require(PhotonFixtures.helsinki.buildTime)))
        let undated = try JSONValue(
            parsing: PhotonAPI.status(of: try PhotonFixtures.handMadeIndex(buildTime: nil)).body)
        guard case .object(let undatedMembers) = undated else { throw PhotonError("not an object") }
        #expect(undatedMembers["import_date"] == .string(""))
    }
}
