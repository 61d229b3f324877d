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

    @Test("the extensions are exactly the documented OSM categories and are not MapKit")
    func extensionsAreNotMapKit() {
        #expect(
            Category.extensions == [
                .placeOfWorship, .viewpoint, .artwork, .touristInformation, .townHall, .communityCenter, .drinkingWater,
                .bicycleRental,
            ])
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
    let table = CategoryTable(rules: [
        "amenity": ["cafe": .init(category: .cafe), "shelter": .init(category: nil)],
        "tourism": [
            "attraction": .init(
                category: .landmark,
                conditions: [
                    .init(key: "historic", value: "castle", category: .castle),
                    .init(key: "historic", value: "fort", category: .fortress),
                    .init(key: "ruins", value: "yes", category: nil),
                ])
        ],
    ])

    @Test("a value maps to its rule's category; unknown values, keys and spellings to none")
    func plainRules() {
        #expect(table.category(key: "amenity", value: "cafe") == .cafe)
        for (key, value) in [
            ("amenity", "bench"), ("tourism", "cafe"), ("amenity", "Cafe"), ("amenity", "shelter"), ("", "cafe"),
        ] {
            #expect(table.category(key: key, value: value) == nil, "\(key)=\(value)")
        }
    }

    @Test("a second tag decides where a condition names it; the first that holds wins")
    func conditions() {
        #expect(table.category(key: "tourism", value: "attraction") == .landmark)
        #expect(table.category(key: "tourism", value: "attraction", context: ["historic": "castle"]) == .castle)
        #expect(
            table.category(key: "tourism", value: "attraction", context: ["historic": "fort", "ruins": "yes"])
                == .fortress)
        #expect(table.category(key: "tourism", value: "attraction", context: ["ruins": "yes"]) == nil)
        #expect(table.category(key: "tourism", value: "attraction", context: ["historic": "manor"]) == .landmark)
    }

    @Test("the consulted keys are those the selected keys' conditions name")
    func consultedKeys() {
        #expect(table.consultedKeys(selecting: ["amenity", "tourism"]) == ["historic", "ruins"])
        #expect(table.consultedKeys(selecting: ["amenity"]).isEmpty)
    }

    @Test("result types by selecting key; unreached categories by selection")
    func resultTypesAndReach() {
        let physical = CategoryTable(
            rules: ["natural": ["peak": .init(category: .landmark)], "amenity": ["cafe": .init(category: .cafe)]],
            resultTypes: ["natural": .physicalFeature])
        #expect(physical.resultType(ofKey: "natural") == .physicalFeature)
        #expect(physical.resultType(ofKey: "amenity") == .pointOfInterest)
        let unreached = physical.unreachedCategories(selecting: ["amenity"])
        #expect(!unreached.contains(.cafe) && unreached.contains(.landmark))
        #expect(!physical.unreachedCategories(selecting: ["amenity", "natural"]).contains(.landmark))
    }
}
