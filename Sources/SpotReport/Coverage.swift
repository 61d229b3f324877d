import Spots

/// An attribute whose completeness a report measures: whether a spot has it.
public enum SpotAttribute: String, CaseIterable, Hashable, Sendable {
    /// The `name` tag.
    case name
    /// Any `addr:*` tag.
    case address
    /// The `phone` tag.
    case phone
    /// The `website` tag.
    case website
    /// The `opening_hours` tag.
    case openingHours = "opening_hours"
    /// Any `name:xx` tag (a name in a given language).
    case localizedNames = "localized_names"

    /// The attribute as a column heading: "opening hours".
    public var title: String { rawValue.replacingOccurrences(of: "_", with: " ") }

    /// The attribute that a tag with key `key` gives a spot, as `Spot.setAttribute` files it:
    /// "name", any "addr:*", "phone", "website", "opening_hours", any "name:xx"; nil for others.
    public init?(key: String) {
        if key == "name" {
            self = .name
        } else if Spot.languageCode(ofNameKey: key) != nil {
            self = .localizedNames
        } else if key.hasPrefix("addr:") {
            self = .address
        } else {
            switch Spot.Detail(rawValue: key) {
            case .phone?: self = .phone
            case .website?: self = .website
            case .openingHours?: self = .openingHours
            default: return nil
            }
        }
    }
}

/// The attributes one spot has: a bit per `SpotAttribute`.
struct SpotAttributeSet {
    private var bits: UInt8 = 0

    /// No attributes.
    init() {}

    mutating func insert(_ attribute: SpotAttribute) {
        bits |= 1 << SpotAttribute.allCases.firstIndex(of: attribute)!
    }

    func contains(_ attribute: SpotAttribute) -> Bool {
        bits & 1 << SpotAttribute.allCases.firstIndex(of: attribute)! != 0
    }
}

/// How many spots a group holds, and how many of them have each attribute.
public struct Coverage: Equatable, Sendable {
    /// The number of spots.
    public private(set) var count = 0
    private var present: [SpotAttribute: Int] = [:]

    /// An empty tally.
    public init() {}

    /// Counts a spot with `attributes`.
    mutating func add(_ attributes: SpotAttributeSet) {
        count += 1
        for attribute in SpotAttribute.allCases where attributes.contains(attribute) {
            present[attribute, default: 0] += 1
        }
    }

    /// How many spots have `attribute`.
    public func count(with attribute: SpotAttribute) -> Int { present[attribute] ?? 0 }

    /// The fraction of spots that have `attribute`: 0 for an empty group.
    public func share(with attribute: SpotAttribute) -> Double { fraction(count(with: attribute), of: count) }
}

/// `part / whole`, or 0 when `whole` is 0.
func fraction(_ part: Int, of whole: Int) -> Double {
    whole == 0 ? 0 : Double(part) / Double(whole)
}

/// Which kind of category a row is about: one of MapKit's, a Spots extension, or none.
public enum CategoryGroup: String, CaseIterable, Sendable {
    /// A MapKit `MKPointOfInterestCategory`.
    case mapKit = "mapkit"
    /// A Spots extension category, which MapKit lacks.
    case spotsExtension = "extension"
    /// No category (spots kept by `--keep-all` whose value maps to none).
    case none

    /// The group of `category`.
    public init(_ category: Category?) {
        guard let category else {
            self = .none
            return
        }
        self = category.isMapKit ? .mapKit : .spotsExtension
    }

    /// How reports show the group: "MapKit", "extension", "none".
    public var title: String {
        switch self {
        case .mapKit: "MapKit"
        case .spotsExtension: "extension"
        case .none: "none"
        }
    }
}

/// Something reported per category: gives its display name and group.
public protocol CategoryRow {
    /// The category; nil for spots without one.
    var category: Category? { get }
}

extension CategoryRow {
    /// The category's name, or "(none)" for spots without one.
    public var name: String { category?.rawValue ?? "(none)" }
    /// MapKit, extension or none.
    public var group: CategoryGroup { CategoryGroup(category) }
}

/// A group of spots a report gives coverage figures for: a category, or a result type.
public protocol CoverageRow {
    /// Its spots and attributes.
    var coverage: Coverage { get }
}

/// The spots of one category and their attribute completeness.
public struct CategoryCoverage: CategoryRow, CoverageRow, Equatable, Sendable {
    /// The category; nil for spots without one.
    public let category: Category?
    /// Its spots and attributes.
    public let coverage: Coverage
}

/// The spots of one result type (point of interest, physical feature, address) and their
/// attribute completeness.
public struct ResultTypeCoverage: CoverageRow, Equatable, Sendable {
    /// The result type.
    public let resultType: ResultType
    /// Its spots and attributes.
    public let coverage: Coverage
}

/// A key with a count: an unmapped tag (`amenity=embassy`), a language code (`en`).
public struct Tally: Equatable, Sendable {
    /// What is counted.
    public let key: String
    /// How many.
    public let count: Int

    /// `counts` as tallies, most frequent first, ties by key.
    public static func ranked(_ counts: [String: Int]) -> [Tally] {
        counts.map { Tally(key: $0.key, count: $0.value) }.sorted { ($0.count, $1.key) > ($1.count, $0.key) }
    }
}

/// Records a build stage dropped (or merged) for one reason, from the index metadata.
public struct DroppedCount: Equatable, Sendable {
    /// The stage: "read", "select", "categorize", "dedupe".
    public let stage: String
    /// Why: "bad_coordinates", "excluded", "unmapped", or a dedupe rule ("exact_name").
    public let reason: String
    /// How many records.
    public let count: Int
}
