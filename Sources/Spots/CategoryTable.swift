/// Maps a selecting tag (`amenity=cafe`) to its category.
///
/// This first table covers the common amenity and tourism values; values it does not know map
/// to no category (the spot is kept with a nil category and its `kind`).
public struct CategoryTable: Sendable {
    private let categories: [String: Category]

    /// A table from "key=value" strings to categories.
    public init(_ categories: [String: Category]) {
        self.categories = categories
    }

    /// The category of the tag `key=value`, or nil when the table has none for it.
    public func category(key: String, value: String) -> Category? {
        categories[key + "=" + value]
    }

    /// The built-in table of common OpenStreetMap values.
    public static let standard = CategoryTable([
        "amenity=cafe": .cafe, "amenity=ice_cream": .cafe,
        "amenity=restaurant": .restaurant, "amenity=fast_food": .restaurant, "amenity=food_court": .restaurant,
        "amenity=bar": .nightlife, "amenity=pub": .nightlife, "amenity=nightclub": .nightlife,
        "amenity=biergarten": .nightlife,
        "amenity=bank": .bank, "amenity=atm": .atm, "amenity=bureau_de_change": .bank,
        "amenity=pharmacy": .pharmacy, "amenity=hospital": .hospital, "amenity=clinic": .hospital,
        "amenity=school": .school, "amenity=kindergarten": .school,
        "amenity=university": .university, "amenity=college": .university, "amenity=library": .library,
        "amenity=fuel": .gasStation, "amenity=charging_station": .evCharger,
        "amenity=parking": .parking, "amenity=car_rental": .carRental,
        "amenity=police": .police, "amenity=fire_station": .fireStation,
        "amenity=post_office": .postOffice, "amenity=post_box": .mailbox, "amenity=toilets": .restroom,
        "amenity=cinema": .movieTheater, "amenity=theatre": .theater, "amenity=marketplace": .foodMarket,
        "amenity=bus_station": .publicTransport, "amenity=ferry_terminal": .publicTransport,
        "amenity=veterinary": .animalService, "amenity=conference_centre": .conventionCenter,
        "amenity=place_of_worship": .placeOfWorship,
        "tourism=hotel": .hotel, "tourism=hostel": .hotel, "tourism=motel": .hotel,
        "tourism=guest_house": .hotel, "tourism=apartment": .hotel, "tourism=chalet": .hotel,
        "tourism=museum": .museum, "tourism=gallery": .museum, "tourism=zoo": .zoo,
        "tourism=aquarium": .aquarium, "tourism=theme_park": .amusementPark,
        "tourism=camp_site": .campground, "tourism=caravan_site": .rvPark,
        "tourism=attraction": .landmark, "tourism=viewpoint": .viewpoint, "tourism=artwork": .artwork,
        "tourism=information": .touristInformation,
    ])
}

