import Spots
import Testing

@Suite("Category")
struct CategoryTests {
    /// MKPointOfInterestCategory members available since iOS 13.
    static let iOS13: [Category] = [
        .airport, .amusementPark, .aquarium, .atm, .bakery, .bank, .beach, .brewery, .cafe, .campground,
        .carRental, .evCharger, .fireStation, .fitnessCenter, .foodMarket, .gasStation, .hospital, .hotel,
        .laundry, .library, .marina, .movieTheater, .museum, .nationalPark, .nightlife, .park, .parking,
        .pharmacy, .police, .postOffice, .publicTransport, .restaurant, .restroom, .school, .stadium,
        .store, .theater, .university, .winery, .zoo,
    ]
    /// MKPointOfInterestCategory members added in iOS 18.
    static let iOS18: [Category] = [
        .animalService, .automotiveRepair, .baseball, .basketball, .beauty, .bowling, .castle,
        .conventionCenter, .distillery, .fairground, .fishing, .fortress, .golf, .goKart, .hiking,
        .kayaking, .landmark, .mailbox, .miniGolf, .musicVenue, .nationalMonument, .planetarium,
        .rockClimbing, .rvPark, .skatePark, .skating, .skiing, .soccer, .spa, .surfing, .swimming,
        .tennis, .volleyball,
    ]

    @Test("MapKit cases are the 40 of iOS 13 and the 33 of iOS 18, and nothing else but the extensions")
    func mapKitCasesAreExactlyTheSeventyThree() {
        #expect(Self.iOS13.count == 40)
        #expect(Self.iOS18.count == 33)
        let mapKit = Set(Self.iOS13 + Self.iOS18)
        #expect(mapKit.count == 73)
        let declaredMapKit = Set(Category.allCases.filter(\.isMapKit))
        #expect(declaredMapKit == mapKit)
        #expect(Category.allCases.count == 73 + Category.extensions.count)
        #expect(Set(Category.allCases) == mapKit.union(Category.extensions))
        #expect(mapKit.isDisjoint(with: Category.extensions))
    }

    @Test("the extensions are exactly the four documented OSM categories and are not MapKit")
    func extensionsAreNotMapKit() {
        #expect(Category.extensions == [.placeOfWorship, .viewpoint, .artwork, .touristInformation])
        for category in Category.extensions {
            #expect(!category.isMapKit)
            #expect(category.mapKitRawValue == nil)
        }
    }

    @Test(
        "mapKitRawValue is MapKit's raw name, with its acronyms capitalized",
        arguments: [
            (Category.cafe, "MKPOICategoryCafe"), (.atm, "MKPOICategoryATM"), (.evCharger, "MKPOICategoryEVCharger"),
            (.rvPark, "MKPOICategoryRVPark"), (.goKart, "MKPOICategoryGoKart"),
            (.nationalMonument, "MKPOICategoryNationalMonument"), (.amusementPark, "MKPOICategoryAmusementPark"),
            (.airport, "MKPOICategoryAirport"), (.zoo, "MKPOICategoryZoo"), (.miniGolf, "MKPOICategoryMiniGolf"),
            (.publicTransport, "MKPOICategoryPublicTransport"), (.volleyball, "MKPOICategoryVolleyball"),
        ])
    func mapKitRawValue(category: Category, expected: String) {
        #expect(category.mapKitRawValue == expected)
    }

    @Test("every MapKit case has a distinct raw value built from its member name")
    func everyMapKitRawValueIsDistinctAndPrefixed() throws {
        var seen = Set<String>()
        for category in Self.iOS13 + Self.iOS18 {
            let raw = try #require(category.mapKitRawValue)
            #expect(raw.hasPrefix("MKPOICategory"))
            let member = raw.dropFirst("MKPOICategory".count)
            #expect(member.lowercased() == category.rawValue.lowercased())
            #expect(member.first?.isUppercase == true)
            #expect(seen.insert(raw).inserted)
        }
    }

    @Test("the raw value of a category is its Swift member name")
    func rawValueIsMemberName() {
        #expect(Category(rawValue: "cafe") == .cafe)
        #expect(Category(rawValue: "evCharger") == .evCharger)
        #expect(Category(rawValue: "placeOfWorship") == .placeOfWorship)
        #expect(Category(rawValue: "Cafe") == nil)
        #expect(Category(rawValue: "ev_charger") == nil)
    }
}

@Suite("CategoryTable")
struct CategoryTableTests {
    @Test(
        "the standard table maps common amenity and tourism tags",
        arguments: [
            ("amenity", "cafe", Category.cafe), ("tourism", "hotel", .hotel), ("amenity", "ice_cream", .cafe),
            ("amenity", "fast_food", .restaurant), ("amenity", "atm", .atm), ("amenity", "charging_station", .evCharger),
            ("tourism", "caravan_site", .rvPark), ("amenity", "post_box", .mailbox),
            ("amenity", "place_of_worship", .placeOfWorship), ("tourism", "viewpoint", .viewpoint),
        ])
    func standardMappings(key: String, value: String, expected: Category) {
        #expect(CategoryTable.standard.category(key: key, value: value) == expected)
    }

    @Test(
        "the standard table has no category for unknown values, wrong keys or other spellings",
        arguments: [("amenity", "bench"), ("tourism", "cafe"), ("shop", "bakery"), ("amenity", "Cafe"), ("amenity", ""), ("", "cafe")])
    func standardUnknowns(key: String, value: String) {
        #expect(CategoryTable.standard.category(key: key, value: value) == nil)
    }

    @Test("a custom table maps exactly the key=value pairs it was given")
    func customTable() {
        let table = CategoryTable(["leisure=park": .park, "amenity=cafe": .bakery])
        #expect(table.category(key: "leisure", value: "park") == .park)
        #expect(table.category(key: "amenity", value: "cafe") == .bakery)
        #expect(table.category(key: "amenity", value: "restaurant") == nil)
    }
}
