import SpotText
import Spots
import Testing

@Suite("Address line")
struct AddressLineTests {
    @Test("empty values: a segment of an empty value alone is empty, one beside another keeps the space")
    func emptyValues() {
        #expect(AddressLine(["street": ""]).line == nil)
        #expect(AddressLine(["street": "", "full": "Somewhere 1"]).line == "Somewhere 1")
        #expect(AddressLine(["full": ""]).line == "")
        #expect(AddressLine(["street": "", "housenumber": "5"]).line == " 5")
        #expect(AddressLine(["street": "", "postcode": "00100"]).line == "00100")
        #expect(AddressLine(["street": "A", "postcode": "", "city": "B"]).line == "A,  B")
        #expect(AddressLine.Pieces(AddressParts()).isEmpty && AddressLine.line(of: AddressParts()) == nil)
    }

    @Test("a line's pieces, in order, are the line")
    func pieces() {
        let parts = AddressParts(["street": "Quai Jean-Charles Rey", "housenumber": "42", "postcode": "98000"])
        var pieces: [String] = []
        AddressLine.Pieces(parts).forEachPiece { pieces.append($0) }
        #expect(pieces == ["Quai Jean-Charles Rey", " ", "42", ", ", "98000"])
        #expect(pieces.joined() == AddressLine.line(of: parts))
    }

    @Test("street and house number, then postcode and city")
    func numberAfterStreet() {
        let address = ["street": "Mannerheimintie", "housenumber": "22", "postcode": "00100", "city": "Helsinki"]
        #expect(AddressLine(address).line == "Mannerheimintie 22, 00100 Helsinki")
        #expect(AddressLine(address.merging(["country": "FI"]) { $1 }).line == "Mannerheimintie 22, 00100 Helsinki")
        #expect(
            AddressLine(["street": "Obere Landstraße", "housenumber": "3", "country": "DE"]).line
                == "Obere Landstraße 3")
    }

    @Test(
        "the house number first where the country writes it so, the city before the postcode in English-speaking ones")
    func numberFirst() {
        let street = ["street": "East Fort Avenue", "housenumber": "871", "postcode": "21230", "city": "Baltimore"]
        #expect(AddressLine(street.merging(["country": "US"]) { $1 }).line == "871 East Fort Avenue, Baltimore 21230")
        #expect(AddressLine(street.merging(["country": "gb"]) { $1 }).line == "871 East Fort Avenue, Baltimore 21230")
        let paris = [
            "street": "Rue de Rivoli", "housenumber": "99", "postcode": "75001", "city": "Paris", "country": "FR",
        ]
        #expect(AddressLine(paris).line == "99 Rue de Rivoli, 75001 Paris")
        for country in ["IE", "AU", "NZ", "CA"] {
            #expect(
                AddressLine(["street": "Main Street", "housenumber": "1", "country": country]).line == "1 Main Street")
        }
    }

    @Test("Japanese addresses from the largest unit down, Japanese script joined without spaces")
    func japanese() {
        let address = [
            "postcode": "100-0005", "province": "東京都", "city": "千代田区", "quarter": "丸の内", "neighbourhood": "一丁目",
            "block_number": "9", "housenumber": "1", "country": "JP",
        ]
        #expect(AddressLine(address).line == "100-0005 東京都千代田区丸の内一丁目9-1")
        // Without addr:country, a block number and no street make an address Japanese.
        #expect(
            AddressLine(["city": "Chiyoda", "quarter": "Marunouchi", "block_number": "9"]).line
                == "Chiyoda Marunouchi 9")
    }

    @Test("place stands in for street; addr:full when no part is there; nil for no address")
    func fallbacks() {
        #expect(
            AddressLine(["place": "Old Town", "housenumber": "3", "city": "Tallinn"]).line == "Old Town 3, Tallinn")
        #expect(AddressLine(["full": "1 Infinite Loop, Cupertino"]).line == "1 Infinite Loop, Cupertino")
        #expect(AddressLine(["unit": "2"]).line == nil)
        #expect(AddressLine([:]).line == nil)
        #expect(
            Spot(
                ref: OSMRef(.node, 1), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: "amenity",
                kind: "cafe", category: nil, address: ["street": "Main", "housenumber": "1"]
            ).addressLine == "Main 1")
    }
}

@Suite("Address listing (the export's CSV column)")
struct AddressListingTests {
    @Test("addr:full wins over every other part")
    func fullWins() {
        #expect(
            AddressLine(["full": "1 Infinite Loop, Cupertino", "street": "Other", "city": "X", "unit": "2"]).listing
                == "1 Infinite Loop, Cupertino")
        #expect(AddressLine(["full": ""]).listing == "")
    }

    @Test("street and housenumber, then postcode and city, then country")
    func groups() {
        let address = [
            "street": "Mannerheimintie", "housenumber": "5", "postcode": "00100", "city": "Helsinki", "country": "FI",
        ]
        #expect(AddressLine(address).listing == "Mannerheimintie 5, 00100 Helsinki, FI")
        #expect(
            AddressLine(["city": "Helsinki", "street": "Aleksanterinkatu"]).listing == "Aleksanterinkatu, Helsinki")
        #expect(AddressLine(["housenumber": "5", "country": "FI"]).listing == "5, FI")
        #expect(AddressLine(["postcode": "00100"]).listing == "00100")
    }

    @Test("place stands in for street when there is no street, and is another part beside one")
    func place() {
        #expect(
            AddressLine(["place": "Old Town", "housenumber": "3", "city": "Tallinn"]).listing == "Old Town 3, Tallinn")
        #expect(AddressLine(["place": "Hamlet"]).listing == "Hamlet")
        #expect(
            AddressLine(["street": "Main", "housenumber": "1", "place": "Estate"]).listing == "Main 1, place: Estate")
    }

    @Test("other parts follow as key: value, sorted by key")
    func otherParts() {
        let address = ["unit": "2", "floor": "3", "street": "Main", "door": "B", "city": "Town"]
        #expect(AddressLine(address).listing == "Main, Town, door: B, floor: 3, unit: 2")
        #expect(AddressLine(["state": "CA", "county": "X"]).listing == "county: X, state: CA")
        #expect(AddressLine([:]).listing == "")
    }
}
