import SpotIndex
import Spots

/// A query plan for the spots of a box: which of the index's two walks reads them more cheaply
/// (SpotIndexReader+Spatial.swift). Both give the same spots.
///
/// The walk of the tree reads every spot of the leaves it reaches: the tree's share of the box
/// (by area, against the root's box) estimates how many. The walk of the allowed kinds' lists
/// reads only spots of those kinds, wherever they are, then sorts them. A whole-world box with
/// a rare category is the case the lists are for.
enum BoxPlan: Equatable {
    /// Walk the tree, making room for about `expected` spots.
    case tree(expected: Int)
    /// Walk the lists of the kinds `allowed` allows (one flag per kind number).
    case kindLists(allowed: [Bool])

    /// The cheaper walk for the spots of `index` in `box` numbered in `range` whose kinds
    /// `allowed` allows (all when nil).
    static func choose(
        in box: GeoBox, kinds allowed: [Bool]?, among range: Range<Int>, of index: SpotIndexReader
    ) throws(IndexError) -> BoxPlan {
        var estimate = estimatedSpots(in: box, of: index) * range.count / max(1, index.count)
        guard let allowed else { return .tree(expected: estimate) }
        var listed = 0
        for kind in index.kinds.indices where allowed[kind] { listed += try index.kindList(ofKind: kind).remaining }
        // A spot from a list costs a rank, two reads at random places (REFS, then SPOT) and a
        // share of the sort: measured, about as much as 32 spots read in the tree's order, which
        // streams through SPOT. The lists hold spots of any number.
        if listed * 32 < estimate { return .kindLists(allowed: allowed) }
        estimate = min(estimate, listed * range.count / max(1, index.count))
        return .tree(expected: estimate)
    }

    /// About how many spots of `index` lie in `box` (not crossing the antimeridian): the spots in
    /// proportion to the share of the tree's root box that it covers.
    static func estimatedSpots(in box: GeoBox, of index: SpotIndexReader) -> Int {
        guard let root = index.tree.bounds else { return 0 }
        func overlap(_ low: Int32, _ high: Int32, _ rootLow: Int32, _ rootHigh: Int32) -> Double {
            let span = Double(rootHigh) - Double(rootLow)
            guard span > 0 else { return low <= rootLow && high >= rootHigh ? 1 : 0 }
            return max(0, min(Double(high), Double(rootHigh)) - max(Double(low), Double(rootLow))) / span
        }
        let share =
            overlap(box.westE7, box.eastE7, root.westE7, root.eastE7)
            * overlap(box.southE7, box.northE7, root.southE7, root.northE7)
        return Int(share * Double(index.count))
    }
}

extension SpotSearch {
    /// The spots in `box` (not crossing the antimeridian) that `kinds` allows (all when nil),
    /// shown as themselves at `shownAt` when given, numbered in `range`: read by the cheaper
    /// walk (`BoxPlan`), in spot-number order.
    func spots(
        in box: GeoBox, kinds allowed: [Bool]?, shownAt zoom: Int?, among range: Range<Int>
    ) throws(IndexError) -> [SpotInBox] {
        let range = range.clamped(to: 0..<index.count)
        switch try BoxPlan.choose(in: box, kinds: allowed, among: range, of: index) {
        case .tree(let expected):
            return try index.spotsByTree(in: box, kinds: allowed, shownAt: zoom, among: range, expected: expected)
        case .kindLists(let allowed):
            return try index.spotsByKindLists(in: box, kinds: allowed, shownAt: zoom, among: range)
        }
    }
}
