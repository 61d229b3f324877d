/// The parts of an address that its one-line form is made of (`AddressLine.line(of:)`), each
/// a named field: what a result prints of an address, read from an index without a dictionary
/// and without decoding the address's other parts.
public struct AddressParts: Sendable, Equatable {
    /// A part of an address line, named by what follows `addr:` in its OSM key.
    public enum Part: Int, CaseIterable, Sendable {
        case street, place, housenumber, postcode, city, country, blockNumber, full, province, quarter, neighbourhood

        /// The OSM key's part after `addr:` ("block_number" for `blockNumber`).
        public var key: String {
            switch self {
            case .blockNumber: "block_number"
            default: String(describing: self)
            }
        }
    }

    /// Each part's value by `Part.rawValue`; empty until a part is set, so that a spot without
    /// an address (most results) costs no allocation.
    private var values: [String?] = []

    /// No parts.
    public init() {}

    /// The line's parts of `address` (keyed by what follows `addr:`, as `Spot.address`); its
    /// other parts are left out.
    public init(_ address: [String: String]) {
        for part in Part.allCases { self[part] = address[part.key] }
    }

    /// The value of `part`, or nil.
    public subscript(part: Part) -> String? {
        get { values.isEmpty ? nil : values[part.rawValue] }
        set {
            if values.isEmpty {
                guard newValue != nil else { return }
                values = Array(repeating: nil, count: Part.allCases.count)
            }
            values[part.rawValue] = newValue
        }
    }

    /// Whether no part has a value.
    public var isEmpty: Bool { values.allSatisfy { $0 == nil } }

    /// Equal when every part is: parts set and cleared again equal parts never set.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        Part.allCases.allSatisfy { lhs[$0] == rhs[$0] }
    }
}
