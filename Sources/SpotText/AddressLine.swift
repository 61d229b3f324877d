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
    /// A Japanese address's units, largest first, before its block and house number.
    static let japaneseUnits: [AddressParts.Part] = [.province, .city, .quarter, .neighbourhood]

    /// The line, or nil when the address has none of its parts.
    public let line: String?
    private let address: [String: String]

    /// The line of `address`, keyed by what follows `addr:` (`Spot.address`).
    public init(_ address: [String: String]) {
        self.address = address
        line = Self.line(of: AddressParts(address))
    }

    /// The line that `parts` make, or nil when they make none: its segments joined by a comma,
    /// else `addr:full` (`Pieces` joined).
    public static func line(of parts: AddressParts) -> String? {
        let pieces = Pieces(parts)
        guard !pieces.isEmpty else { return nil }
        var line = ""
        pieces.forEachPiece { line += $0 }
        return line
    }

    /// The texts an address line is made of, in order, not joined: what `line(of:)` joins, and
    /// what a writer may copy where the line goes, piece by piece, with no line made between
    /// (a search answer's JSON).
    public struct Pieces {
        private let first: Segment
        private let second: Segment
        private let full: String?

        /// The pieces of the line of `parts`.
        public init(_ parts: AddressParts) {
            if parts.isEmpty {
                (first, second, full) = (Segment(nil, nil), Segment(nil, nil), nil)
            } else {
                (first, second) = AddressLine.segments(of: parts, style: Style(parts))
                full = parts[.full]
            }
        }

        /// Whether the parts make no line.
        public var isEmpty: Bool { first.isEmpty && second.isEmpty && full == nil }

        /// Gives `body` the line's texts in order: the segments and the comma between them, else
        /// `addr:full`.
        public func forEachPiece(_ body: (String) -> Void) {
            guard !first.isEmpty || !second.isEmpty else {
                full.map(body)
                return
            }
            first.forEachPiece(body)
            if !first.isEmpty && !second.isEmpty { body(", ") }
            second.forEachPiece(body)
        }
    }

    /// One segment of a line: its values in the order written, joined by a space where both are.
    struct Segment {
        let first: String?
        let second: String?

        init(_ first: String?, _ second: String?) {
            self.first = first
            self.second = second
        }

        /// Whether its text is empty.
        var isEmpty: Bool {
            switch (first, second) {
            case (_?, _?): false
            case (let only?, nil), (nil, let only?): only.isEmpty
            case (nil, nil): true
            }
        }

        /// Gives `body` its texts in order.
        func forEachPiece(_ body: (String) -> Void) {
            first.map(body)
            if first != nil && second != nil { body(" ") }
            second.map(body)
        }
    }

    /// The address as the export's CSV column writes it: `addr:full` when given, else the line,
    /// then the country and every other part as `key: value`, in key order.
    public var listing: String {
        if let full = address["full"] { return full }
        let parts = AddressParts(address)
        let style = Style(parts)
        let (first, second) = Self.segments(of: parts, style: style)
        let (firstParts, secondParts) = Self.segmentParts(of: parts, style: style)
        let used = Set((first.isEmpty ? [] : firstParts) + (second.isEmpty ? [] : secondParts)).map(\.key)
        let others = address.filter { !used.contains($0.key) && $0.key != "country" }.sorted { $0.key < $1.key }
        return ([line, address["country"]].compactMap { $0 } + others.map { "\($0.key): \($0.value)" })
            .joined(separator: ", ")
    }

    /// How the country an address names writes it.
    private struct Style {
        /// Units from the largest down, as in Japan (`addr:country` JP, or a block number and no
        /// street).
        let isJapanese: Bool
        /// The house number before the street.
        let numberFirst: Bool
        /// The city before the postcode.
        let cityFirst: Bool

        init(_ parts: AddressParts) {
            let country = parts[.country]?.uppercased()
            isJapanese = country == "JP" || (parts[.street] == nil && parts[.blockNumber] != nil)
            switch country {
            case "US", "GB", "IE", "AU", "NZ", "CA": (numberFirst, cityFirst) = (true, true)
            case "FR": (numberFirst, cityFirst) = (true, false)
            default: (numberFirst, cityFirst) = (false, false)
            }
        }
    }

    /// The line's two segments, empty where they have no parts: the street (or place) and
    /// house number, then the postcode and city; a Japanese address's all in the first.
    private static func segments(of parts: AddressParts, style: Style) -> (first: Segment, second: Segment) {
        if style.isJapanese { return (Segment(japaneseText(of: parts), nil), Segment(nil, nil)) }
        return (
            segment(parts[parts[.street] != nil ? .street : .place], parts[.housenumber], swapped: style.numberFirst),
            segment(parts[.postcode], parts[.city], swapped: style.cityFirst)
        )
    }

    /// The parts that each of the two `segments(of:style:)` may hold.
    private static func segmentParts(
        of parts: AddressParts, style: Style
    ) -> (first: [AddressParts.Part], second: [AddressParts.Part]) {
        if style.isJapanese { return ([.postcode, .blockNumber, .housenumber] + japaneseUnits, []) }
        return ([parts[.street] != nil ? .street : .place, .housenumber], [.postcode, .city])
    }

    /// The segment of `first` and `second`, in the other order when `swapped`.
    private static func segment(_ first: String?, _ second: String?, swapped: Bool) -> Segment {
        swapped ? Segment(second, first) : Segment(first, second)
    }

    /// A Japanese address's one segment: postcode, then its units, block and house number.
    private static func japaneseText(of parts: AddressParts) -> String {
        let number = [parts[.blockNumber], parts[.housenumber]].compactMap { $0 }.joined(separator: "-")
        let units = (japaneseUnits.compactMap { parts[$0] } + [number]).filter { !$0.isEmpty }
        var text = parts[.postcode].map { $0 + " " } ?? ""
        for (position, unit) in units.enumerated() {
            let joinsTight =
                position > 0 && (units[position - 1].unicodeScalars.last.map(SearchText.isCJK) ?? false)
                && (unit.unicodeScalars.first.map { SearchText.isCJK($0) || $0.properties.numericType != nil } ?? false)
            text += (position == 0 || joinsTight ? "" : " ") + unit
        }
        return text
    }
}

extension Spot {
    /// The address on one line (`AddressLine`), or nil.
    public var addressLine: String? { AddressLine(address).line }
}
