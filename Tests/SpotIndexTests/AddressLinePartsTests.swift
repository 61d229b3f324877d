import SpotIndex
import SpotTestSupport
import SpotText
import Spots
import Testing

/// The reader decodes only the name and the parts an address line is made of (`label(at:)`),
/// and those give the name and the line that the whole spot gives.
@Suite("Address line parts")
struct AddressLinePartsTests {
    /// Spots with addresses of every form `AddressLine` knows, and parts it does not use.
    static let written: [[String: String]] = [
        [:], ["unit": "3", "floor": "2"], ["full": "Somewhere 1"], ["full": "Somewhere 1", "street": "Main St"],
        ["street": "Mannerheimintie", "housenumber": "22", "postcode": "00100", "city": "Helsinki"],
        [
            "street": "East Fort Avenue", "housenumber": "871", "city": "Baltimore", "postcode": "21230",
            "country": "us",
        ],
        ["place": "Kallio", "housenumber": "5", "unit": "B", "country": "FR"],
        ["block_number": "9", "housenumber": "1", "city": "姫路市", "province": "兵庫県", "postcode": "670-0012"],
        ["country": "JP", "quarter": "本町", "neighbourhood": "68", "street": "大手前通り", "floor": "3"],
        ["postcode": "00100"], ["country": "GB"], ["housenumber": "7 B, sisäpiha", "street:name": "x"],
    ]

    @Test("the parts give the line of the whole address, for written and random addresses")
    func partsGiveTheLine() throws {
        var factory = SpotFactory(seed: 41)
        var spots = factory.uniqueSpots(300)
        for (position, address) in Self.written.enumerated() { spots[position].address = address }
        let index = try openIndex(of: spots)
        var withParts = 0
        for number in 0..<index.count {
            let label = try index.label(at: number)
            let spot = try index.spot(at: number)
            #expect(label.name == spot.name)
            #expect(label.addressParts == AddressParts(spot.address))
            #expect(label.addressLine == spot.addressLine)
            if !label.addressParts.isEmpty { withParts += 1 }
        }
        let lineKeys = Set(AddressParts.Part.allCases.map(\.key))
        let expected = spots.filter { !Set($0.address.keys).isDisjoint(with: lineKeys) }.count
        #expect(withParts == expected)
        #expect(expected > 100, "enough spots have parts of a line")
    }

    @Test("the label's display name is the one the whole spot gives, in any language")
    func displayNames() throws {
        var factory = SpotFactory(seed: 43)
        var spots = factory.uniqueSpots(300)
        for position in stride(from: 0, to: spots.count, by: 3) { spots[position].name = nil }
        let index = try openIndex(of: spots)
        var shown: Set<String> = []
        for language in [nil, "en", "fi", "ja", "xx"] {
            for number in 0..<index.count {
                let spot = try index.spot(at: number)
                let label = try index.label(at: number, language: language)
                #expect(label.displayName == spot.displayName(language: language), "\(spot.ref) \(language ?? "-")")
                if let key = label.displayName?.key { shown.insert(key) }
            }
        }
        #expect(shown.isSuperset(of: ["name", "name:en", "name:fi", "name:ja", "brand", "operator"]))
    }
}
