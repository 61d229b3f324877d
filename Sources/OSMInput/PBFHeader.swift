/// What a PBF file's `HeaderBlock` says a reader needs, and when its data was current.
struct PBFHeader {
    /// The features a reader must have (`required_features`).
    var requiredFeatures: [String] = []
    /// When the data was current, in seconds since 1970 (`osmosis_replication_timestamp`), as
    /// Overpass's `osm_base` says it in XML.
    var replicationTimestamp: Int64?

    /// The features Spots reads. Anything else required (`HistoricalInformation`, say) is
    /// refused by name; optional features (`Sort.Type_then_ID`, `LocationsOnWays`) need nothing.
    static let readFeatures: Set = ["OsmSchema-V0.6", "DenseNodes"]

    /// The header in `block`, a `HeaderBlock` message.
    init(_ block: UnsafeRawBufferPointer) throws(PBFError) {
        var reader = WireReader(block)
        while let field = try reader.field() {
            switch field.number {
            case 4: requiredFeatures.append(String(decoding: try reader.bytes(of: field), as: UTF8.self))
            case 32: replicationTimestamp = Int64(bitPattern: try reader.varint(of: field))
            default: try reader.skip(field)
            }
        }
    }

    /// Refuses a header that requires a feature Spots does not read.
    func checkFeatures() throws(PBFError) {
        let missing = requiredFeatures.filter { !Self.readFeatures.contains($0) }
        guard missing.isEmpty else {
            let read = Self.readFeatures.sorted().joined(separator: " and ")
            throw .invalid(
                "the file requires \(missing.joined(separator: ", ")), which Spots does not read (it reads \(read))")
        }
    }
}

/// A time as OSM XML writes it, "2021-04-21T20:21:46Z", from seconds since 1970; nil outside the
/// years 1 to 9999, which that form cannot hold.
func iso8601(seconds: Int64) -> String? {
    let (days, second) = (seconds.floorDivided(by: 86_400), seconds.floorModulo(86_400))
    // Howard Hinnant's civil_from_days: the proleptic Gregorian date of a day count.
    let shifted = days + 719_468
    let era = shifted.floorDivided(by: 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    guard (1...9999).contains(year) else { return nil }
    func digits(_ value: Int64, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
    return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(second / 3600, 2)):"
        + "\(digits(second / 60 % 60, 2)):\(digits(second % 60, 2))Z"
}

extension Int64 {
    /// The quotient rounded down (towards minus infinity).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of `floorDivided(by:)`, from 0 to `divisor - 1`.
    fileprivate func floorModulo(_ divisor: Int64) -> Int64 {
        self - floorDivided(by: divisor) * divisor
    }
}
