import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotSearch

/// Result types in search: the `resultTypes` filter, and address points (no name, no category)
/// found by their address.
@Suite("Result types in search")
struct ResultTypeSearchTests {
    static func spot(
        _ id: Int64, _ tag: (key: String, value: String), _ category: Category?, _ type: ResultType,
        name: String? = nil, address: [String: String] = [:]
    ) -> Spot {
        var spot = Spot(
            ref: OSMRef(.node, id),
            coordinate: Coordinate(latitudeE7: 465_000_000 + Int32(id), longitudeE7: 95_000_000)!,
            tagKey: tag.key, kind: tag.value, category: category, name: name, address: address)
        spot.resultType = type
        return spot
    }

    static let address = SelectingTag.address
    static let spots = [
        spot(1, ("amenity", "cafe"), .cafe, .pointOfInterest, name: "Café Alpenblick"),
        spot(2, ("natural", "peak"), .landmark, .physicalFeature, name: "Piz Alpenblick"),
        spot(
            3, (address.key, address.value), nil, .address,
            address: ["street": "Dorfstrasse", "housenumber": "7", "postcode": "7000", "city": "Chur"]),
        spot(
            4, (address.key, address.value), nil, .address,
            address: ["street": "Dorfstrasse", "housenumber": "9", "city": "Chur"]),
        spot(
            5, ("amenity", "restaurant"), .restaurant, .pointOfInterest, name: "Krone",
            address: ["street": "Dorfstrasse", "housenumber": "9"]),
    ]

    static let search = Result { try searchOver(spots) }

    func ids(_ request: SearchRequest) throws -> [Int64] {
        try Self.search.get().search(request).map(\.spot.ref.id)
    }

    @Test("the index reads each kind's result type")
    func kindsCarryTypes() throws {
        let index = try Self.search.get().index
        #expect(Set(index.kinds.map(\.resultType)) == Set(ResultType.allCases))
        #expect(try index.spot(at: 0).resultType == Self.spots.first { $0.ref == (try index.ref(at: 0)) }!.resultType)
    }

    @Test("every type by default; resultTypes keeps only those asked for, with text and without")
    func filters() throws {
        let near = Coordinate(latitudeE7: 465_000_000, longitudeE7: 95_000_000)!
        #expect(try ids(SearchRequest(near: near)).count == 5)
        #expect(try Set(ids(SearchRequest(naturalLanguageQuery: "Alpenblick"))) == [1, 2])
        var request = SearchRequest(naturalLanguageQuery: "Alpenblick")
        request.resultTypes = .physicalFeature
        #expect(try ids(request) == [2])
        request = SearchRequest(near: near)
        request.resultTypes = [.pointOfInterest, .physicalFeature]
        #expect(try Set(ids(request)) == [1, 2, 5])
        request.resultTypes = .address
        #expect(try Set(ids(request)) == [3, 4])
    }

    @Test("an address point is found by street and house number, in either order, and by postcode")
    func addressPoints() throws {
        #expect(try ids(SearchRequest(naturalLanguageQuery: "Dorfstrasse 7")) == [3])
        #expect(try ids(SearchRequest(naturalLanguageQuery: "7 Dorfstrasse")) == [3])
        #expect(try ids(SearchRequest(naturalLanguageQuery: "Dorfstrasse 7000")).contains(3))
        var request = SearchRequest(naturalLanguageQuery: "Dorfstrasse 9")
        #expect(try Set(ids(request)) == [4, 5])
        request.resultTypes = .address
        #expect(try ids(request) == [4])
    }

    @Test("result type lists: short names and MapKit's, at least one, nothing unknown")
    func lists() {
        #expect(ResultTypes(list: "poi,physical") == [.pointOfInterest, .physicalFeature])
        #expect(ResultTypes(list: "address,pointOfInterest") == [.address, .pointOfInterest])
        #expect(
            ResultTypes(list: "") == nil && ResultTypes(list: "poi,shop") == nil && ResultTypes(list: "poi,") == nil)
    }
}
