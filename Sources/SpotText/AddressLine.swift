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

    /// The line, or nil when the address has none of its parts.
    public let line: String?
    /// The parts (keys after `addr:`) the line is made of.
    private let used: Set<String>
    private let address: [String: String]

    /// The line of `address`, keyed by what follows `addr:` (`Spot.address`).
    public init(_ address: [String: String]) {
        self.address = address
        let country = address["country"]?.uppercased() ?? ""
        let parts: [(keys: [String], value: String)]
        if country == "JP" || (address["street"] == nil && address["block_number"] != nil) {
            parts = Self.japaneseParts(address)
        } else {
            parts = Self.parts(address, country: country)
        }
        let usable = parts.filter { !$0.value.isEmpty }
        if !usable.isEmpty {
            line = usable.map(\.value).joined(separator: ", ")
            used = Set(usable.flatMap(\.keys))
        } else if let full = address["full"] {
            line = full
            used = ["full"]
        } else {
            line = nil
            used = []
        }
    }

    /// The address as the export's CSV column writes it: `addr:full` when given, else the line,
    /// then the country and every other part as `key: value`, in key order.
    public var listing: String {
        if let full = address["full"] { return full }
        let others = address.filter { !used.contains($0.key) && $0.key != "country" }.sorted { $0.key < $1.key }
        return ([line, address["country"]].compactMap { $0 } + others.map { "\($0.key): \($0.value)" })
            .joined(separator: ", ")
    }

    /// The street and locality parts of a non-Japanese address, each with the keys it may hold.
    private static func parts(_ address: [String: String], country: String) -> [(keys: [String], value: String)] {
        let streetKey = address["street"] != nil ? "street" : "place"
        let street = [address[streetKey], address["housenumber"]].compactMap { $0 }
        let locality = [address["postcode"], address["city"]].compactMap { $0 }
        let numberFirst = numberFirst.contains(country)
        let cityFirst = cityFirst.contains(country)
        return [
            ([streetKey, "housenumber"], (numberFirst ? Array(street.reversed()) : street).joined(separator: " ")),
            (["postcode", "city"], (cityFirst ? Array(locality.reversed()) : locality).joined(separator: " ")),
        ]
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
