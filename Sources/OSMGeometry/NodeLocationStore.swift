/// The location of every node read, for the ways that name them, in at most 12 bytes a node.
///
/// Nodes are appended as they are read. `finish()` then chooses the layout by id density:
/// - sparse (the usual case for an extract: ids spread over billions): entries of the low 32 bits
///   of the id and the two coordinates (12 bytes), sorted by id, with a short table of where
///   each value of the high 32 bits starts; a lookup is two binary searches;
/// - dense, when the ids fill at least two thirds of their range: the two coordinates (8 bytes)
///   at index id − smallest id, an absent node marked by `Int32.min`; a lookup is one read.
///
/// Both live in `SpillBuffer`s, which move into a memory-mapped temporary file beyond
/// `memoryLimit`. Nodes in id order (as extracts list them) are appended with no sorting; other
/// orders (hand-edited files, several inputs) are sorted once by `finish()`, and of two
/// entries for one id the later one wins.
public final class NodeLocationStore {
    typealias Entry = SparseNodeLayout.Entry
    typealias Run = SparseNodeLayout.Run

    /// A node's coordinates in the dense layout: 8 bytes.
    struct Location: BitwiseCopyable {
        var latitudeE7: Int32
        var longitudeE7: Int32
    }

    private let memoryLimit: Int
    private var entries: SpillBuffer
    private var runs: [Run] = []
    private var lastID = Int64.min
    /// Whether every id so far was greater than the one before (no sorting, no repeats).
    private var isSorted = true
    /// The dense layout once chosen, and the id at its index 0.
    private var dense: SpillBuffer?
    private var denseBase: Int64 = 0
    private var finished = false

    /// An empty store whose layouts spill to a temporary file beyond `memoryLimit` bytes each.
    public init(memoryLimit: Int = 64 << 20) {
        self.memoryLimit = memoryLimit
        entries = SpillBuffer(memoryLimit: memoryLimit)
    }

    /// Nodes stored.
    public private(set) var count = 0

    /// Whether `finish()` chose the dense layout.
    public var isDense: Bool { dense != nil }

    /// Whether the store's bytes live in a memory-mapped temporary file.
    public var isSpilled: Bool { dense?.isSpilled ?? entries.isSpilled }

    /// Bytes the store's layout takes.
    public var byteCount: Int { dense?.count ?? (entries.count + runs.count * MemoryLayout<Run>.stride) }

    /// Stores node `id` at the given fixed-point coordinates. Only before `finish()`.
    public func append(id: Int64, latitudeE7: Int32, longitudeE7: Int32) {
        precondition(!finished, "NodeLocationStore.append after finish()")
        if id <= lastID { isSorted = false }
        lastID = max(lastID, id)
        let high = Int32(truncatingIfNeeded: id >> 32)
        if runs.last?.high != high { runs.append(Run(high: high, start: count)) }
        entries.append(Entry(low: UInt32(truncatingIfNeeded: id), latitudeE7: latitudeE7, longitudeE7: longitudeE7))
        count += 1
    }

    /// Ends appending: sorts when needed and chooses the layout by density.
    public func finish() {
        guard !finished else { return }
        finished = true
        if !isSorted { sortEntries() }
        guard count > 0 else { return }
        let first = id(at: 0)
        let span = Double(id(at: count - 1)) - Double(first) + 1
        guard span * 8 <= Double(count) * 12 else { return }
        let layout = SpillBuffer(memoryLimit: memoryLimit)
        layout.resize(
            to: Int(span) * MemoryLayout<Location>.stride, fill: Location(latitudeE7: .min, longitudeE7: .min))
        let locations = layout.base!.assumingMemoryBound(to: Location.self)
        for index in 0..<count {
            let entry = entry(at: index)
            locations[Int(id(at: index) - first)] = Location(
                latitudeE7: entry.latitudeE7, longitudeE7: entry.longitudeE7)
        }
        entries.release()
        runs = []
        dense = layout
        denseBase = first
    }

    /// The coordinates of node `id`, or nil when it was not stored. Only after `finish()`.
    public func location(of id: Int64) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        precondition(finished, "NodeLocationStore.location before finish()")
        if let dense {
            let offset = id &- denseBase
            guard offset >= 0, offset < dense.count / MemoryLayout<Location>.stride else { return nil }
            let location = dense.base!.assumingMemoryBound(to: Location.self)[Int(offset)]
            return location.latitudeE7 == .min ? nil : (location.latitudeE7, location.longitudeE7)
        }
        return withSparseLayout { $0.location(of: id) }
    }

    /// Calls `body` with every stored node, in id order, one entry per id (the later of two
    /// for one id). Only after `finish()`.
    public func forEachNode(_ body: (_ id: Int64, _ latitudeE7: Int32, _ longitudeE7: Int32) throws -> Void) rethrows {
        precondition(finished, "NodeLocationStore.forEachNode before finish()")
        if let dense {
            let locations = UnsafeBufferPointer(
                start: dense.base?.assumingMemoryBound(to: Location.self),
                count: dense.count / MemoryLayout<Location>.stride)
            for (offset, location) in locations.enumerated() where location.latitudeE7 != .min {
                try body(denseBase + Int64(offset), location.latitudeE7, location.longitudeE7)
            }
            return
        }
        try withSparseLayout { layout in try layout.forEachNode(body) }
    }

    /// The sparse layout's runs and entries as a `SparseNodeLayout`.
    private func withSparseLayout<Result>(_ body: (SparseNodeLayout) throws -> Result) rethrows -> Result {
        try runs.withUnsafeBufferPointer { runs in
            try body(
                SparseNodeLayout(
                    runs: runs,
                    entries: UnsafeBufferPointer(start: entries.base?.assumingMemoryBound(to: Entry.self), count: count)
                ))
        }
    }

    private func entry(at index: Int) -> Entry {
        entries.base!.assumingMemoryBound(to: Entry.self)[index]
    }

    /// The full id of entry `index` (sorted layout: its run is found by binary search).
    private func id(at index: Int) -> Int64 {
        withSparseLayout { $0.id(at: index) }
    }

    /// Sorts the entries by id, the later of two entries for one id kept, and rebuilds the runs.
    /// Takes 32 bytes a node while it runs (an input out of order is rare, and small).
    private func sortEntries() {
        var nodes: [(id: Int64, order: Int, entry: Entry)] = []
        nodes.reserveCapacity(count)
        var run = 0
        for index in 0..<count {
            while run + 1 < runs.count && runs[run + 1].start <= index { run += 1 }
            nodes.append((Int64(runs[run].high) << 32 | Int64(entry(at: index).low), index, entry(at: index)))
        }
        nodes.sort { ($0.id, $0.order) < ($1.id, $1.order) }
        entries.release()
        runs = []
        count = 0
        for (position, node) in nodes.enumerated()
        where position + 1 == nodes.count || nodes[position + 1].id != node.id {
            let high = Int32(truncatingIfNeeded: node.id >> 32)
            if runs.last?.high != high { runs.append(Run(high: high, start: count)) }
            entries.append(node.entry)
            count += 1
        }
    }
}
