import Spots

/// One packed R-tree of an index, read where it lies in the file: TREE over the spots, or the
/// tree of the clusters made at one zoom in CTRE. As flatbush keeps `search` and `neighbors` on
/// one structure, this view answers both questions a map asks of a tree: what lies in a box
/// (`leaves(meeting:)`, depth first) and what lies nearest a point (`nearest`, best first).
///
/// The items are numbered from 0 (spot numbers; a zoom's clusters from its first id) and are
/// points stored elsewhere (SPOT, CLUS); the tree holds only the boxes above them, in
/// flatbush's layout (FORMAT.md, "TREE"): level 0 has a box per `nodeSize` consecutive items,
/// each level above a box per `nodeSize` boxes below, up to one root; levels lowest first, 16
/// bytes a box. A box's position is its place among all the boxes in that order: the key of
/// what an index stores per box beside the tree (SVIS, the lowest bytes of CTRE).
///
/// A view borrows the bytes of its reader and is valid while the reader lives.
public struct PackedTreeView {
    /// Children per node.
    public let nodeSize: Int
    /// How many items the tree is over.
    public let itemCount: Int
    /// Box counts of the levels above the items, lowest first (the last is the root); none
    /// when there are no items.
    public let levelCounts: [Int]
    /// Where each level starts among the boxes, then the box count.
    private let levelStarts: [Int]
    /// How many items lie under one box of each level (at most; saturated at `Int.max`).
    private let spans: [Int]
    /// The boxes, 16 bytes each: a box position below `boxCount` is a record of this table.
    private let boxes: RecordTable

    /// The tree over `itemCount` items whose levels hold `levelCounts` boxes, stored in `boxes`
    /// (whose length the caller has checked: one record per box).
    init(boxes: RecordTable, levelCounts: [Int], itemCount: Int, nodeSize: Int) {
        let starts = levelCounts.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }
        precondition(
            boxes.recordSize == IndexLayout.boxSize && boxes.count == starts[starts.count - 1],
            "the boxes must fill their levels")
        self.boxes = boxes
        self.levelCounts = levelCounts
        self.itemCount = itemCount
        self.nodeSize = nodeSize
        levelStarts = starts
        spans = levelCounts.indices.reduce(into: [Int]()) { spans, _ in
            let (span, overflow) = (spans.last ?? 1).multipliedReportingOverflow(by: nodeSize)
            spans.append(overflow ? .max : span)
        }
    }

    /// How many boxes the tree has.
    public var boxCount: Int { levelStarts[levelStarts.count - 1] }

    /// Box `node` of level `level` (0 is the level just above the items).
    public func box(level: Int, node: Int) -> GeoBox {
        precondition(
            levelCounts.indices.contains(level) && (0..<levelCounts[level]).contains(node), "tree box out of range")
        return box(at: levelStarts[level] + node)
    }

    /// The root's box, holding every item; nil when there are none.
    public var bounds: GeoBox? {
        levelCounts.isEmpty ? nil : box(at: boxCount - 1)
    }

    @inline(__always)
    private func box(at position: Int) -> GeoBox {
        GeoBox(
            westE7: boxes.field(at: 0, of: position), southE7: boxes.field(at: 4, of: position),
            eastE7: boxes.field(at: 8, of: position), northE7: boxes.field(at: 12, of: position))
    }

    /// The spots' tree, checked against the spot count: the TREE section (FORMAT.md) holds the
    /// node size, the level count, each level's box count, then the boxes, in 4-byte words.
    init(treeSection tree: SectionBytes, spotCount: Int) throws(IndexError) {
        func corrupt(_ message: String) -> IndexError { tree.corrupt(message) }
        try tree.requireWholeRecords(of: 4)
        guard tree.count >= 8 else { throw corrupt("too short") }
        let nodeSize = Int(try tree.uint32(at: 0))
        let levels = Int(try tree.uint32(at: 4))
        guard nodeSize >= 2, levels <= 32, tree.count >= 8 + 4 * levels else {
            throw corrupt("bad node size or level count")
        }
        var expected = spotCount
        var counts: [Int] = []
        for level in 0..<levels {
            let boxes = Int(try tree.uint32(at: 8 + 4 * level))
            guard boxes == (expected + nodeSize - 1) / nodeSize, boxes > 0 else {
                throw corrupt("level \(level) has \(boxes) boxes")
            }
            counts.append(boxes)
            expected = boxes
        }
        guard counts.last.map({ $0 == 1 }) ?? (spotCount == 0) else { throw corrupt("the tree has no single root") }
        let boxStart = 8 + 4 * levels + (levels % 2 == 1 ? 4 : 0)
        guard tree.count == boxStart + counts.reduce(0, +) * IndexLayout.boxSize else {
            throw corrupt("length does not match its levels")
        }
        self.init(
            boxes: try RecordTable(try tree.subrange(from: boxStart), recordSize: IndexLayout.boxSize),
            levelCounts: counts, itemCount: spotCount, nodeSize: nodeSize)
    }

    // MARK: Search

    /// The items of each box of level 0 that meets `box` (edges included, not crossing the
    /// antimeridian), leaf by leaf, depth first, so that items come in ascending order; each item
    /// at most once. Only items in `items` are given, and no box whose position `skip` names is
    /// entered: a box whose points are all hidden, say. An item given may itself lie outside
    /// `box` (the tree knows boxes, not the items' points): the caller tests its point.
    ///
    /// An iterator rather than a callback, so that a caller's hot loop over the items keeps its
    /// arrays local (a closure writing them through its captures checks their uniqueness on every
    /// write: a tenth more instructions for a whole-world viewport).
    public func leaves(
        meeting box: GeoBox, among items: Range<Int>? = nil,
        skipping skip: @escaping (_ position: Int) -> Bool = { _ in false }
    ) -> Leaves {
        precondition(!box.crossesAntimeridian, "split a box that crosses the antimeridian first")
        return Leaves(tree: self, box: box, items: items?.clamped(to: 0..<itemCount) ?? 0..<itemCount, skip: skip)
    }

    /// The leaves of a tree that meet a box (`leaves(meeting:among:skipping:)`).
    public struct Leaves: Sequence, IteratorProtocol {
        private let tree: PackedTreeView
        private let box: GeoBox
        private let items: Range<Int>
        private let skip: (Int) -> Bool
        /// The boxes of each level with items in `items`.
        private let nodes: [ClosedRange<Int>]
        /// A stack of boxes to visit, children pushed last first so that the first pops first.
        private var pending: [(level: Int, node: Int)]

        fileprivate init(tree: PackedTreeView, box: GeoBox, items: Range<Int>, skip: @escaping (Int) -> Bool) {
            self.tree = tree
            self.box = box
            self.items = items
            self.skip = skip
            guard let top = tree.levelCounts.indices.last, !items.isEmpty else {
                (nodes, pending) = ([], [])
                return
            }
            nodes = tree.spans.map { span in items.lowerBound / span...(items.upperBound - 1) / span }
            pending = [(top, 0)]
        }

        /// The items of the next leaf that meets the box, or nil after the last.
        @inline(__always)
        public mutating func next() -> Range<Int>? {
            let nodeSize = tree.nodeSize
            while let (level, node) = pending.popLast() {
                let position = tree.levelStarts[level] &+ node
                let boxes = tree.boxes
                let (west, south): (Int32, Int32) = (boxes.field(at: 0, of: position), boxes.field(at: 4, of: position))
                let (east, north): (Int32, Int32) = (
                    boxes.field(at: 8, of: position), boxes.field(at: 12, of: position)
                )
                guard west <= box.eastE7, south <= box.northE7, east >= box.westE7, north >= box.southE7 else {
                    continue
                }
                guard nodes[level].contains(node), !skip(position) else { continue }
                let first = node &* nodeSize
                guard level == 0 else {
                    for child in (first..<Swift.min(first &+ nodeSize, tree.levelCounts[level &- 1])).reversed() {
                        pending.append((level &- 1, child))
                    }
                    continue
                }
                return Swift.max(first, items.lowerBound)..<Swift.min(first &+ nodeSize, items.upperBound)
            }
            return nil
        }
    }

    // MARK: Nearest

    /// Calls `leaf` with the items of boxes of level 0, nearest box first, while any box left is
    /// no farther from `origin` than the bound (great-circle metres): the distance beyond which
    /// no item is wanted, `bound` at first and then what `leaf` returns, which may shrink as it
    /// finds items (the farthest of the best found so far, once there are enough). Boxes outside
    /// `region` are not entered. `leaf` also gets the distance bound of `origin`, to skip items
    /// cheaply before measuring them.
    ///
    /// A box enters the queue with a cheap lower bound (the distance along the meridian alone)
    /// and gets the exact bound of its box (`BoxDistance`) only when it reaches the head of the
    /// queue; the walk ends when the nearest box left is farther than the bound.
    public func nearest<E: Error>(
        to origin: Coordinate, in region: GeoBox?, within bound: Double,
        _ leaf: (_ items: Range<Int>, _ distance: BoxDistance) throws(E) -> Double
    ) throws(E) {
        guard let top = levelCounts.indices.last else { return }
        let distance = BoxDistance(origin)
        var farthest = bound
        var queue = Heap<QueuedBox>()
        queue.push(QueuedBox(distance: 0, exact: true, level: top, node: 0))
        while let entry = queue.pop() {
            if entry.distance > farthest { break }
            if !entry.exact {
                let exact = distance.minimum(to: box(level: entry.level, node: entry.node))
                guard exact <= farthest else { continue }
                queue.push(QueuedBox(distance: exact, exact: true, level: entry.level, node: entry.node))
                continue
            }
            let first = entry.node * nodeSize
            guard entry.level > 0 else {
                farthest = try leaf(first..<min(first + nodeSize, itemCount), distance)
                continue
            }
            let level = entry.level - 1
            for child in first..<min(first + nodeSize, levelCounts[level]) {
                let childBox = box(at: levelStarts[level] + child)
                if let region, !region.intersects(childBox) { continue }
                let lower = distance.alongMeridian(childBox.southE7, childBox.northE7)
                if lower <= farthest { queue.push(QueuedBox(distance: lower, exact: false, level: level, node: child)) }
            }
        }
    }
}

extension PackedTreeView {
    /// One flag per box of level 0 (the items `leaf * nodeSize` up to `nodeSize` more): whether
    /// the box lies within `distance` great-circle metres of `origin` and meets `region`. A
    /// walk over items in any order (the postings of a word, say) tests an item's leaf with no
    /// read of its point; the tree walk reads only the boxes within the distance, and stops with
    /// nil once more than `limit` boxes are (then the flags would turn few items away).
    public func leafFlags(within distance: Double, of origin: Coordinate, in region: GeoBox?, limit: Int) -> [Bool]? {
        var flags = [Bool](repeating: false, count: levelCounts.first ?? 0)
        var flagged = 0
        nearest(to: origin, in: region, within: distance) { items, _ in
            flags[items.lowerBound / nodeSize] = true
            flagged += 1
            return flagged > limit ? -1 : distance
        }
        return flagged > limit ? nil : flags
    }
}

/// A box of a tree waiting in the best-first queue of `PackedTreeView.nearest`, nearest (lower
/// bound) first.
struct QueuedBox: Comparable {
    /// A lower bound of the distance to anything in the box: the cheap bound along the meridian,
    /// or the exact bound.
    let distance: Double
    /// Whether `distance` is the exact bound of the box.
    let exact: Bool
    /// The box's level and its number in the level.
    let level: Int, node: Int

    static func < (a: QueuedBox, b: QueuedBox) -> Bool { a.distance < b.distance }
    static func == (a: QueuedBox, b: QueuedBox) -> Bool { a.distance == b.distance }
}
