/// A point-of-interest category, named as MapKit names it: each MapKit case is spelled as the
/// Swift member of `MKPointOfInterestCategory` (`cafe`, `amusementPark`, `evCharger`), so an app
/// maps a spot to MapKit with no table of its own. The few categories MapKit lacks are
/// extensions, listed in `Category.extensions` and in docs/build.md.
public enum Category: String, CaseIterable, Hashable, Sendable {
    // MapKit, iOS 13.
    case airport, amusementPark, aquarium, atm, bakery, bank, beach, brewery, cafe, campground
    case carRental, evCharger, fireStation, fitnessCenter, foodMarket, gasStation, hospital, hotel
    case laundry, library, marina, movieTheater, museum, nationalPark, nightlife, park, parking
    case pharmacy, police, postOffice, publicTransport, restaurant, restroom, school, stadium
    case store, theater, university, winery, zoo
    // MapKit, iOS 18.
    case animalService, automotiveRepair, baseball, basketball, beauty, bowling, castle
    case conventionCenter, distillery, fairground, fishing, fortress, golf, goKart, hiking
    case kayaking, landmark, mailbox, miniGolf, musicVenue, nationalMonument, planetarium
    case rockClimbing, rvPark, skatePark, skating, skiing, soccer, spa, surfing, swimming
    case tennis, volleyball
    // Spots extensions: common OpenStreetMap places that MapKit has no name for.
    case placeOfWorship, viewpoint, artwork, touristInformation, townHall, communityCenter, drinkingWater
    case bicycleRental

    /// The categories MapKit does not have.
    public static let extensions: Set<Category> = [
        .placeOfWorship, .viewpoint, .artwork, .touristInformation, .townHall, .communityCenter, .drinkingWater,
        .bicycleRental,
    ]

    /// Whether MapKit has this category.
    public var isMapKit: Bool { !Category.extensions.contains(self) }

    /// MapKit's raw value (`MKPOICategoryCafe`), or nil for an extension category.
    public var mapKitRawValue: String? {
        guard isMapKit else { return nil }
        let special: [Category: String] = [.atm: "ATM", .evCharger: "EVCharger", .rvPark: "RVPark"]
        let member = special[self] ?? rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        return "MKPOICategory" + member
    }
}
