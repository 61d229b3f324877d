import SpotIndex
import Spots

/// A count in an older and a newer index.
public protocol CountChanging {
    /// The count in the older index.
    var before: Int { get }
    /// The count in the newer index.
    var after: Int { get }
}

extension CountChanging {
    /// `after - before`.
    public var change: Int { after - before }
    /// The change as a fraction of `before` (-0.25 for a quarter fewer); nil when `before` is 0.
    public var relativeChange: Double? { before == 0 ? nil : Double(change) / Double(before) }

    /// Whether the count fell by more than `maxDrop`, a fraction of `before`.
    public func fell(byMoreThan maxDrop: Double) -> Bool {
        guard let relativeChange else { return false }
        return -relativeChange > maxDrop
    }
}

/// How the total number of spots changed between two indexes.
public struct CountChange: CountChanging, Equatable, Sendable {
    /// The count in the older index.
    public let before: Int
    /// The count in the newer index.
    public let after: Int
}

/// How one category's count changed between two indexes.
public struct CategoryChange: CategoryRow, CountChanging, Equatable, Sendable {
    /// The category; nil for spots without one.
    public let category: Category?
    /// Its spots in the older index.
    public let before: Int
    /// Its spots in the newer index.
    public let after: Int
}

/// How the spots of one result type changed in number between two indexes.
public struct ResultTypeChange: CountChanging, Equatable, Sendable {
    /// The result type.
    public let resultType: ResultType
    /// Its spots in the older index.
    public let before: Int
    /// Its spots in the newer index.
    public let after: Int
}

/// One spot that changed between two indexes, by its own OSM reference: with its name and
/// category (the newer ones; the older for a removed spot), and what it was before.
public struct SpotChange: Equatable, Sendable {
    /// What changed.
    public enum Kind: String, CaseIterable, Sendable {
        case added, removed, moved, renamed, recategorized
    }

    public let kind: Kind
    public let ref: OSMRef
    public let name: String?
    public let category: Category?
    /// How far a moved spot moved, in metres.
    public let metres: Double?
    /// A renamed spot's name before.
    public let nameBefore: String?
    /// A recategorized spot's category before.
    public let categoryBefore: Category?
}

/// The spots of two indexes matched by their own OSM reference (type and id; references merged
/// into another spot are not matched): those added, removed, moved, renamed and recategorized.
public struct ReferenceChanges: Equatable, Sendable {
    /// A spot whose reference is in both indexes has moved when its coordinates lie more than
    /// this many metres apart (great-circle): 1 m, far above the 1.1 cm step of the fixed-point
    /// coordinates, so that a nudge of a few centimetres is not a move, and far below the size
    /// of any place.
    public static let movedThreshold = 1.0

    /// Every change, by kind (`SpotChange.Kind` order), then reference. A spot both moved and
    /// renamed is in both.
    public let changes: [SpotChange]

    /// The changes of `kind`, in reference order.
    public func changes(_ kind: SpotChange.Kind) -> [SpotChange] { changes.filter { $0.kind == kind } }
    /// References only in the newer index.
    public var added: Int { changes(.added).count }
    /// References only in the older index.
    public var removed: Int { changes(.removed).count }
    /// References in both whose spot moved by more than `movedThreshold`.
    public var moved: Int { changes(.moved).count }

    /// The changes from `before` to `after`, walking both in reference order.
    public init(before: SpotIndexReader, after: SpotIndexReader) throws {
        let old = try Self.spots(before)
        let new = try Self.spots(after)
        var found: [SpotChange.Kind: [SpotChange]] = [:]
        func add(_ kind: SpotChange.Kind, _ spot: Entry, metres: Double? = nil, was: Entry? = nil) {
            found[kind, default: []].append(
                SpotChange(
                    kind: kind, ref: spot.ref, name: spot.name, category: spot.category, metres: metres,
                    nameBefore: kind == .renamed ? was?.name : nil,
                    categoryBefore: kind == .recategorized ? was?.category : nil))
        }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && old[i].ref < new[j].ref) {
                add(.removed, old[i])
                i += 1
            } else if i == old.count || new[j].ref < old[i].ref {
                add(.added, new[j])
                j += 1
            } else {
                let metres = old[i].coordinate.distance(to: new[j].coordinate)
                if metres > Self.movedThreshold { add(.moved, new[j], metres: metres) }
                if old[i].name != new[j].name { add(.renamed, new[j], was: old[i]) }
                if old[i].category != new[j].category { add(.recategorized, new[j], was: old[i]) }
                i += 1
                j += 1
            }
        }
        changes = SpotChange.Kind.allCases.flatMap { found[$0] ?? [] }
    }

    /// A spot as the changes compare it.
    private typealias Entry = (ref: OSMRef, coordinate: Coordinate, name: String?, category: Category?)

    /// Each spot's reference, coordinate, name and category, in reference order.
    private static func spots(_ index: SpotIndexReader) throws -> [Entry] {
        var spots: [Entry] = []
        spots.reserveCapacity(index.count)
        try index.forEachSpotInReferenceOrder { spot in
            spots.append(
                (
                    try index.ref(at: spot), try index.coordinate(at: spot), try index.name(at: spot),
                    try index.kind(at: spot).category
                ))
            return true
        }
        return spots
    }
}

/// What changed from an older index to a newer one: per category, per result type, and spot by
/// spot.
public struct ReportDiff: Equatable, Sendable {
    /// The older index.
    public let against: IndexSummary
    /// All spots before and after.
    public let total: CountChange
    /// Spots added, removed and moved, by OSM reference.
    public let references: ReferenceChanges
    /// Every category of either index: by count after (descending), then count before
    /// (descending), then name.
    public let categories: [CategoryChange]
    /// Every result type of either index, in `ResultType` order.
    public let resultTypes: [ResultTypeChange]
    /// The largest fall of a category, as a fraction of its count before, that gives no warning.
    public let maxDrop: Double

    /// The categories whose count fell by more than `maxDrop`, in `categories` order.
    public var warnings: [CategoryChange] { categories.filter { $0.fell(byMoreThan: maxDrop) } }

    /// One line per warning, as every format words it: "cafe fell from 90 to 0 spots (-100.0%),
    /// more than the 20.0% allowed".
    public var warningMessages: [String] { warnings.map { Figures.warning($0, maxDrop: maxDrop) } }

    /// The change from `before` to `after`; `maxDrop` is a fraction from 0 to 1.
    public init(before: CoverageReport, after: CoverageReport, references: ReferenceChanges, maxDrop: Double) {
        precondition((0...1).contains(maxDrop), "maxDrop must be a fraction from 0 to 1")
        against = before.index
        total = CountChange(before: before.total, after: after.total)
        self.references = references
        self.maxDrop = maxDrop
        let old = Self.counts(before.categories, by: \.category)
        let new = Self.counts(after.categories, by: \.category)
        categories = Set(old.keys).union(new.keys)
            .map { CategoryChange(category: $0, before: old[$0] ?? 0, after: new[$0] ?? 0) }
            .sorted { ($0.after, $0.before, $1.name) > ($1.after, $1.before, $0.name) }
        let oldTypes = Self.counts(before.resultTypes, by: \.resultType)
        let newTypes = Self.counts(after.resultTypes, by: \.resultType)
        resultTypes = ResultType.allCases.filter { oldTypes[$0] != nil || newTypes[$0] != nil }
            .map { ResultTypeChange(resultType: $0, before: oldTypes[$0] ?? 0, after: newTypes[$0] ?? 0) }
    }

    /// The spots of each of `rows`, by its `key`.
    private static func counts<Row: CoverageRow, Key: Hashable>(_ rows: [Row], by key: KeyPath<Row, Key>) -> [Key: Int]
    {
        Dictionary(uniqueKeysWithValues: rows.map { ($0[keyPath: key], $0.coverage.count) })
    }

    /// Whether nothing changed: the same references, none moved, every category and result type
    /// the same size.
    public var isEmpty: Bool {
        references.added == 0 && references.removed == 0 && references.moved == 0
            && categories.allSatisfy { $0.change == 0 } && resultTypes.allSatisfy { $0.change == 0 }
    }
}

extension OSMRef {
    /// The object's page on openstreetmap.org: `https://www.openstreetmap.org/node/123`.
    public var osmURL: String { "https://www.openstreetmap.org/\(type.name)/\(id)" }
}
