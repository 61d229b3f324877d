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

/// The spots of two indexes matched by their own OSM reference (type and id; references merged
/// into another spot are not matched).
public struct ReferenceChanges: Equatable, Sendable {
    /// A spot whose reference is in both indexes has moved when its coordinates lie more than
    /// this many metres apart (great-circle): 1 m, far above the 1.1 cm step of the fixed-point
    /// coordinates, so that a nudge of a few centimetres is not a move, and far below the size
    /// of any place.
    public static let movedThreshold = 1.0

    /// References only in the newer index.
    public let added: Int
    /// References only in the older index.
    public let removed: Int
    /// References in both whose spot moved by more than `movedThreshold`.
    public let moved: Int

    /// The changes from `before` to `after`, walking both in reference order.
    public init(before: SpotIndexReader, after: SpotIndexReader) throws {
        let old = try Self.positions(before)
        let new = try Self.positions(after)
        var added = 0
        var removed = 0
        var moved = 0
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && old[i].ref < new[j].ref) {
                removed += 1
                i += 1
            } else if i == old.count || new[j].ref < old[i].ref {
                added += 1
                j += 1
            } else {
                if old[i].coordinate.distance(to: new[j].coordinate) > Self.movedThreshold { moved += 1 }
                i += 1
                j += 1
            }
        }
        (self.added, self.removed, self.moved) = (added, removed, moved)
    }

    /// Each spot's reference and coordinate, in reference order.
    private static func positions(_ index: SpotIndexReader) throws -> [(ref: OSMRef, coordinate: Coordinate)] {
        var positions: [(ref: OSMRef, coordinate: Coordinate)] = []
        positions.reserveCapacity(index.count)
        try index.forEachSpotInReferenceOrder { spot in
            positions.append((try index.ref(at: spot), try index.coordinate(at: spot)))
            return true
        }
        return positions
    }
}

/// What changed from an older index to a newer one: per category, and spot by spot.
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
        let counts = { (report: CoverageReport) in
            Dictionary(uniqueKeysWithValues: report.categories.map { ($0.category, $0.coverage.count) })
        }
        let old = counts(before)
        let new = counts(after)
        categories = Set(old.keys).union(new.keys)
            .map { CategoryChange(category: $0, before: old[$0] ?? 0, after: new[$0] ?? 0) }
            .sorted { ($0.after, $0.before, $1.name) > ($1.after, $1.before, $0.name) }
    }

    /// Whether nothing changed: the same references, none moved, every category the same size.
    public var isEmpty: Bool {
        references.added == 0 && references.removed == 0 && references.moved == 0
            && categories.allSatisfy { $0.change == 0 }
    }
}
