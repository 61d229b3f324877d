/// Points of the plane sorted into square cells, for "every point within r of (x, y)" with r at
/// most the cells' side: the 3 × 3 cells around a point hold every answer.
///
/// A grid rather than a k-d tree (supercluster's kdbush): the radius is fixed for a whole pass,
/// so cells as wide as the radius answer each query from nine cells, and building is a counting
/// sort, linear in the points (a k-d tree sorts). Only cells that hold points exist: a hash table
/// (open addressing, grown with the cells) maps a cell to its run of points, so a grid of 10^5
/// cells a side costs no more than its points. Within a cell, points keep their order.
///
/// Points that a query finds no longer wanted (taken into a group) are dropped from their cells
/// as the query passes, so that at low zooms, where a few cells hold every point, each point is
/// visited a few times rather than once per group formed around it.
struct NeighbourGrid {
    private let side: Double
    /// Per slot of the hash table: a cell's key, or `empty`.
    private var slotKeys = [Int64](repeating: empty, count: 16)
    /// Per slot: the cell's number.
    private var slotCells = [Int32](repeating: 0, count: 16)
    /// 64 less the number of bits of a slot.
    private var slotShift: UInt64 = 60
    /// Where each cell's points start in `points`; one more entry than cells.
    private var cellStarts: [Int32] = [0]
    /// Where each cell's points still wanted end in `points`.
    private var cellEnds: [Int32] = []
    /// Point numbers, cell after cell, ascending within a cell.
    private var points: [Int32] = []
    private static let empty = Int64.min

    /// A grid of cells `side` wide over the points (`xs[i]`, `ys[i]`), which lie in [0, 1].
    init(xs: [Double], ys: [Double], side: Double) {
        self.side = side
        var cellOfPoint = [Int32](repeating: 0, count: xs.count)
        var counts: [Int32] = []
        // Points near each other in order (spots in the tree's order) often share a cell: the
        // last cell is tried before the hash table.
        var last: (key: Int64, cell: Int)?
        for point in xs.indices {
            let key = Self.key(Self.cell(xs[point], side), Self.cell(ys[point], side))
            let cell: Int
            if let last, last.key == key {
                cell = last.cell
            } else {
                cell = self.cell(key) ?? insert(key, cell: counts.count)
                last = (key, cell)
            }
            if cell == counts.count { counts.append(0) }
            cellOfPoint[point] = Int32(cell)
            counts[cell] += 1
        }
        cellStarts.reserveCapacity(counts.count + 1)
        for count in counts { cellStarts.append(cellStarts.last! + count) }
        cellEnds = Array(cellStarts.dropFirst())
        var next = cellStarts
        points = [Int32](repeating: 0, count: xs.count)
        for point in xs.indices {
            let cell = Int(cellOfPoint[point])
            points[Int(next[cell])] = Int32(point)
            next[cell] += 1
        }
    }

    /// Calls `body` with each point of the 3 × 3 cells around (x, y) that is still `wanted`: a
    /// superset of such points within `side` of it, for the caller to measure. A point not
    /// wanted is dropped from its cell for good.
    mutating func forEachCandidate(nearX x: Double, y: Double, wanted: (Int) -> Bool, _ body: (Int) -> Void) {
        let column = Self.cell(x, side)
        let row = Self.cell(y, side)
        for cellRow in row - 1...row + 1 {
            for cellColumn in column - 1...column + 1 {
                guard let cell = cell(Self.key(cellColumn, cellRow)) else { continue }
                var kept = Int(cellStarts[cell])
                for position in Int(cellStarts[cell])..<Int(cellEnds[cell]) {
                    let point = Int(points[position])
                    guard wanted(point) else { continue }
                    points[kept] = Int32(point)
                    kept += 1
                    body(point)
                }
                cellEnds[cell] = Int32(kept)
            }
        }
    }

    /// The number of the cell `key`, or nil when no point lies in it.
    private func cell(_ key: Int64) -> Int? {
        var slot = Self.slot(of: key, shift: slotShift)
        while slotKeys[slot] != Self.empty {
            if slotKeys[slot] == key { return Int(slotCells[slot]) }
            slot = (slot + 1) & (slotKeys.count - 1)
        }
        return nil
    }

    /// Adds cell `key` as number `cell`, doubling the table when it is half full; returns `cell`.
    private mutating func insert(_ key: Int64, cell: Int) -> Int {
        if 2 * (cell + 1) > slotKeys.count {
            let (keys, cells) = (slotKeys, slotCells)
            slotKeys = [Int64](repeating: Self.empty, count: 2 * keys.count)
            slotCells = [Int32](repeating: 0, count: 2 * keys.count)
            slotShift -= 1
            for (known, number) in zip(keys, cells) where known != Self.empty { place(known, number) }
        }
        place(key, Int32(cell))
        return cell
    }

    private mutating func place(_ key: Int64, _ cell: Int32) {
        var slot = Self.slot(of: key, shift: slotShift)
        while slotKeys[slot] != Self.empty { slot = (slot + 1) & (slotKeys.count - 1) }
        slotKeys[slot] = key
        slotCells[slot] = cell
    }

    /// The first slot to probe for `key`: Fibonacci hashing.
    private static func slot(of key: Int64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The column or row of `coordinate`, which is not negative: truncation is rounding down.
    private static func cell(_ coordinate: Double, _ side: Double) -> Int64 {
        Int64(coordinate / side)
    }

    private static func key(_ column: Int64, _ row: Int64) -> Int64 {
        row << 32 | (column & 0xFFFF_FFFF)
    }
}
