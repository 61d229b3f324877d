import SpotIndex
import Spots

/// What changed between two indexes, spot by spot, by OSM object: spots added, removed, moved
/// (the same object at another point) and modified (the same object and point, other fields).
public struct SpotChanges: Sendable, Equatable {
    /// Spots of objects the old index did not have.
    public var added = 0
    /// Spots of objects the new index does not have.
    public var removed = 0
    /// Spots whose point changed.
    public var moved = 0
    /// Spots whose point stayed and something else changed.
    public var modified = 0

    /// The changes from `old` to `new`.
    public init(from old: SpotIndexReader, to new: SpotIndexReader) throws(IndexError) {
        var before: [OSMRef: Spot] = [:]
        before.reserveCapacity(old.count)
        for number in 0..<old.count { before[try old.ref(at: number)] = try old.spot(at: number) }
        for number in 0..<new.count {
            let spot = try new.spot(at: number)
            guard let earlier = before.removeValue(forKey: try new.ref(at: number)) else {
                added += 1
                continue
            }
            if earlier.coordinate != spot.coordinate {
                moved += 1
            } else if earlier != spot {
                modified += 1
            }
        }
        removed = before.count
    }

    /// "3 added, 1 removed, 2 moved, 5 modified", or "no spot changed".
    public var summary: String {
        let parts = [(added, "added"), (removed, "removed"), (moved, "moved"), (modified, "modified")]
            .filter { $0.0 > 0 }.map { "\(NumberText.grouped($0.0)) \($0.1)" }
        return parts.isEmpty ? "no spot changed" : parts.joined(separator: ", ")
    }
}
