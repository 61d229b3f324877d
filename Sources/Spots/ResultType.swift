/// What kind of thing a spot is, as MKLocalSearch's result types tell them apart: a place
/// people go to (`amenity=cafe`, `shop=bakery`), a feature of the land or water
/// (`natural=peak`, `waterway=waterfall`), or a numbered address with no place of its own.
///
/// The build gives each selecting key its type (the category file's `result_types`, points of
/// interest where it names none); address points are their own kind (`SelectingTag.address`).
public enum ResultType: String, CaseIterable, Hashable, Sendable {
    case pointOfInterest, physicalFeature, address

    /// The short name `--result-types` and the HTTP API take: "poi", "physical", "address".
    public var shortName: String {
        switch self {
        case .pointOfInterest: "poi"
        case .physicalFeature: "physical"
        case .address: "address"
        }
    }

    /// The type a short name or a raw value names ("poi", "pointOfInterest"), or nil.
    public init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.shortName == name || $0.rawValue == name }) else {
            return nil
        }
        self = type
    }
}

/// A set of result types, as MapKit's `MKLocalSearch.ResultType` option set: which types a
/// search answers with.
public struct ResultTypes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    /// The set of these raw bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The set of one type.
    public init(_ type: ResultType) {
        self.init(rawValue: 1 << UInt8(ResultType.allCases.firstIndex(of: type)!))
    }

    /// Places people go to.
    public static let pointOfInterest = ResultTypes(.pointOfInterest)
    /// Features of the land and water.
    public static let physicalFeature = ResultTypes(.physicalFeature)
    /// Address points.
    public static let address = ResultTypes(.address)
    /// Every type.
    public static let all: ResultTypes = [.pointOfInterest, .physicalFeature, .address]

    /// Whether the set holds `type`.
    public func contains(_ type: ResultType) -> Bool { contains(ResultTypes(type)) }

    /// The set a comma-separated list of names gives ("poi,physical"), or nil when a name is
    /// unknown or the list is empty.
    public init?(list: String) {
        var types: ResultTypes = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let type = ResultType(name: String(name)) else { return nil }
            types.insert(ResultTypes(type))
        }
        guard !types.isEmpty else { return nil }
        self = types
    }
}
