import Spots

/// A spot's address written on one line, as the country it names writes addresses (docs/search.md,
/// "Addresses"): `line` is a result's `address_line`, `listing` the export's CSV column.
///
/// - The street (or, without one, `addr:place`) and the house number, then the postcode and
///   the city: "Mannerheimintie 22, 00100 Helsinki".
/// - Where `addr:country` names a country that writes the number first (US, GB, IE, FR, AU,
///   NZ, CA), "871 East Fort Avenue"; where it also writes the city before the postcode (all
///   of them but France), "Baltimore 21230", "London SW1A 1AA".
/// - In Japan (`addr:country` JP, or an address of `addr:block_number` and no street) the
///   units from the largest down: postcode, `addr:province`, `addr:city`, `addr:quarter`,
///   `addr:neighbourhood`, then block and house number as "9-1"; Japanese script is joined
///   without spaces.
/// - Without any of these parts, `addr:full`.
public struct AddressLine {
    /// Countries whose addresses put the house number before the street.
    static let numberFirst: Set<String> = ["US", "GB", "IE", "FR", "AU", "NZ", "CA"]
    /// Countries whose addresses put the city before the postcode.
    static let cityFirst: Set<String> = ["US", "GB", "IE", "AU", "NZ", "CA"]
    /// A Japanese address's units, largest first, before its block and house number.
    static let japaneseUnits = ["province", "city", "quarter", "neighbourhood"]

    /// Every part (key after `addr:`) a line may be made of: an address's other parts change
    /// its `line` in no way, so a reader may decode these alone.
    public static let lineParts =
        ["street", "place", "housenumber", "postcode", "country", "block_number", "full"]
        + japaneseUnits

    /// The line, or nil when the address has none of its parts.
    public let line: String?
    private let address: [String: String]

    /// The line of `address`, keyed by what follows `addr:` (`Spot.address`).
    public init(_ address: [String: String]) {
        self.address = address
        line = Self.line(Self.parts(address)) ?? address["full"]
    }

    /// The address as the export's CSV column writes it: `addr:full` when given, else the line,
    /// then the country and every other part as `key: value`, in key order.
    public var listing: String {
        if let full = address["full"] { return full }
        let used = Set(Self.parts(address).filter { !$0.value.isEmpty }.flatMap(\.keys))
        let others = address.filter { !used.contains($0.key) && $0.key != "country" }.sorted { $0.key < $1.key }
        return ([line, address["country"]].compactMap { $0 } + others.map { "\($0.key): \($0.value)" })
            .joined(separator: ", ")
    }

    /// The parts that are not empty, joined; nil when all are.
    private static func line(_ parts: [(keys: [String], value: String)]) -> String? {
        var line = ""
        for part in parts where !part.value.isEmpty {
            if !line.isEmpty { line += ", " }
            line += part.value
        }
        return line.isEmpty ? nil : line
    }

    /// The parts of the line of `address`, each with the keys it may hold: a Japanese address's
    /// one part, or another's street and locality.
    private static func parts(_ address: [String: String]) -> [(keys: [String], value: String)] {
        guard !address.isEmpty else { return [] }
        let country = address["country"]?.uppercased() ?? ""
        if country == "JP" || (address["street"] == nil && address["block_number"] != nil) {
            return japaneseParts(address)
        }
        return parts(address, country: country)
    }

    /// The street and locality parts of a non-Japanese address, each with the keys it may hold.
    private static func parts(_ address: [String: String], country: String) -> [(keys: [String], value: String)] {
        let hasStreet = address["street"] != nil
        let street = joined(
            address[hasStreet ? "street" : "place"], address["housenumber"], swapped: numberFirst.contains(country))
        let locality = joined(address["postcode"], address["city"], swapped: cityFirst.contains(country))
        return [(hasStreet ? streetKeys : placeKeys, street), (localityKeys, locality)]
    }

    /// The keys of a street part, of a place part (without a street) and of a locality part.
    private static let streetKeys = ["street", "housenumber"]
    private static let placeKeys = ["place", "housenumber"]
    private static let localityKeys = ["postcode", "city"]

    /// `first` and `second`, those present, joined by a space, in the other order when `swapped`.
    private static func joined(_ first: String?, _ second: String?, swapped: Bool) -> String {
        switch (first, second) {
        case (let first?, let second?): swapped ? second + " " + first : first + " " + second
        case (let only?, nil), (nil, let only?): only
        case (nil, nil): ""
        }
    }

    /// A Japanese address's one part: postcode, then its units, block and house number.
    private static func japaneseParts(_ address: [String: String]) -> [(keys: [String], value: String)] {
        let number = ["block_number", "housenumber"].compactMap { address[$0] }.joined(separator: "-")
        let units = (japaneseUnits.compactMap { address[$0] } + [number]).filter { !$0.isEmpty }
        var text = address["postcode"].map { $0 + " " } ?? ""
        for (position, unit) in units.enumerated() {
            let joinsTight =
                position > 0 && (units[position - 1].unicodeScalars.last.map(SearchText.isCJK) ?? false)
                && (unit.unicodeScalars.first.map { SearchText.isCJK($0) || $0.properties.numericType != nil } ?? false)
            text += (position == 0 || joinsTight ? "" : " ") + unit
        }
        return [(["postcode", "block_number", "housenumber"] + japaneseUnits, text)]
    }
}

extension Spot {
    /// The address on one line (`AddressLine`), or nil.
    public var addressLine: String? { AddressLine(address).line }
}
