import Spots

/// The levels of a packed R-tree (flatbush's layout) over items in order: each node of a level
/// stands for `nodeSize` consecutive entries of the level below (the last for fewer), up to a
/// single root. TREE packs the spots' boxes this way, CTRE each zoom's clusters, and SVIS the
/// lowest zoom at which each node's spots are shown.
enum PackedTree {
    /// The levels above `items`, lowest first: `merge` makes a node of a run of entries. None
    /// for no items; one level of one node for one item.
    static func levels<T>(over items: [T], nodeSize: Int, merge: (ArraySlice<T>) -> T) -> [[T]] {
        var levels: [[T]] = []
        var below = items
        while below.count > 1 || (levels.isEmpty && below.count == 1) {
            let level = stride(from: 0, to: below.count, by: nodeSize).map { merge(below[$0..<min($0 + nodeSize, below.count)]) }
            levels.append(level)
            below = level
        }
        return levels
    }

    /// The box counts of the levels above `count` items.
    static func levelCounts(items count: Int, nodeSize: Int) -> [Int] {
        var counts: [Int] = []
        var below = count
        while below > 1 || (counts.isEmpty && below == 1) {
            below = (below + nodeSize - 1) / nodeSize
            counts.append(below)
        }
        return counts
    }
}

/// A box in degrees × 10^7, as the trees store it.
struct TreeBoxValue {
    var west, south, east, north: Int32

    /// The box of one point.
    init(_ coordinate: Coordinate) {
        (west, south, east, north) = (coordinate.longitudeE7, coordinate.latitudeE7, coordinate.longitudeE7, coordinate.latitudeE7)
    }

    /// The box enclosing `boxes` (at least one).
    init(enclosing boxes: ArraySlice<TreeBoxValue>) {
        self = boxes.first!
        for box in boxes.dropFirst() {
            (west, south) = (min(west, box.west), min(south, box.south))
            (east, north) = (max(east, box.east), max(north, box.north))
        }
    }

    /// Appends the four edges: west, south, east, north.
    func write(to writer: inout ByteWriter) {
        for value in [west, south, east, north] { writer.append(value) }
    }
}
