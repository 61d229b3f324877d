/// The strings decoded last, by number, found again by a scan: the few streets, postcodes and
/// cities that one neighbourhood's results share, each decoded once. It keeps the first 32.
struct RecentStrings {
    private var strings: [(number: UInt32, string: String)] = []

    /// String `number`, decoded by `decode` unless it is among those kept.
    mutating func string(
        _ number: UInt32, decoding decode: (UInt32) throws(IndexError) -> String
    ) throws(IndexError) -> String {
        if let known = strings.first(where: { $0.number == number }) { return known.string }
        let string = try decode(number)
        if strings.count < 32 { strings.append((number, string)) }
        return string
    }
}
