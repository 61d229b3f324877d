import Spots

/// The levels of a packed R-tree (flatbush's layout) over items in order: each node of a level
/// stands for `nodeSize` consecutive entries of the level below (the last for fewer), up to a
/// single root. TREE packs the spots' boxes this way, CTRE each zoom's clusters, and SVIS the
/// lowest zoom at which each node's spots are shown. `PackedTreeView` reads the boxes back.
package enum PackedTree {
    /// The levels above `items`, lowest first: `merge` makes a node of a run of entries. None
    /// for no items; one level of one node for one item.
    package static func levels<T>(over items: [T], nodeSize: Int, merge: (ArraySlice<T>) -> T) -> [[T]] {
        var levels: [[T]] = []
        var below = items
        while below.count > 1 || (levels.isEmpty && below.count == 1) {
            let level = stride(from: 0, to: below.count, by: nodeSize).map {
                merge(below[$0..<min($0 + nodeSize, below.count)])
            }
            levels.append(level)
            below = level
        }
        return levels
    }

    /// The box levels above points: each box the smallest holding the points or boxes below it.
    package static func boxLevels(over points: [Coordinate], nodeSize: Int) -> [[GeoBox]] {
        levels(over: points.map(GeoBox.init), nodeSize: nodeSize) { boxes in
            boxes.dropFirst().reduce(boxes[boxes.startIndex]) { $0.union($1) }
        }
    }

    /// The box counts of the levels above `count` items.
    package static func levelCounts(items count: Int, nodeSize: Int) -> [Int] {
        var counts: [Int] = []
        var below = count
        while below > 1 || (counts.isEmpty && below == 1) {
            below = (below + nodeSize - 1) / nodeSize
            counts.append(below)
        }
        return counts
    }
}
