import OSMGeometry

/// Node locations by id in two sections of a state file: the entries (`SparseNodeLayout.Entry`,
/// by id) and their runs. A base file holds every node's (NENT, NRUN); a state's overlay holds
/// the nodes changed since the base (ONEN, ONRU), a deleted one at latitude `deleted`. Looked up
/// in place, each block checked when first read.
public struct NodeTable {
    /// The latitude that marks a node deleted in an overlay: no coordinate has it.
    public static let deleted = Int32.min
    /// The sections of a base's table and of an overlay's: entries, runs, and the fence (the
    /// full id of every `fenceStride`-th entry, so that a lookup reads one page of entries, not
    /// the pages a binary search over all of them would).
    public static let base = (entries: "NENT", runs: "NRUN", fence: "NFEN")
    public static let overlay = (entries: "ONEN", runs: "ONRU", fence: "OFEN")
    /// Entries between two fence posts: as many as a page holds.
    static let fenceStride = StateLayout.blockSize / MemoryLayout<SparseNodeLayout.Entry>.stride

    private let runs: UnsafeBufferPointer<SparseNodeLayout.Run>
    private let fence: UnsafeBufferPointer<Int64>
    private let entries: CheckedSection

    /// The table in `file`'s sections `names`.
    public init(_ file: StateFile, _ names: (entries: String, runs: String, fence: String)) throws(StateError) {
        entries = try file.section(names.entries)
        runs = try file.section(names.runs).table(of: SparseNodeLayout.Run.self)
        fence = try file.section(names.fence).table(of: Int64.self)
        guard entries.count % MemoryLayout<SparseNodeLayout.Entry>.stride == 0 else {
            throw entries.damage("its length is not a whole number of entries")
        }
        // Every entry's id needs a run: the first starts at entry 0.
        guard entries.count == 0 || runs.first?.start == 0 else {
            throw entries.damage("its entries have no run of ids")
        }
    }

    /// Nodes in the table (deleted ones of an overlay too).
    public var count: Int { entries.count / MemoryLayout<SparseNodeLayout.Entry>.stride }

    /// The coordinates the table has for node `id` (latitude `deleted` for a deletion), or nil.
    public func location(of id: Int64) throws(StateError) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        guard var range = SparseNodeLayout.entryRange(of: id, runs: runs, entryCount: count) else { return nil }
        // The entries between the fence posts around `id`.
        var lower = 0
        var upper = fence.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if fence[middle] <= id { lower = middle + 1 } else { upper = middle }
        }
        let groupEnd = min(count, lower * Self.fenceStride)
        range = range.clamped(to: min(max(0, lower - 1) * Self.fenceStride, groupEnd)..<groupEnd)
        let low = UInt32(truncatingIfNeeded: id)
        let end = range.upperBound
        while range.lowerBound < range.upperBound {
            let middle = (range.lowerBound + range.upperBound) / 2
            let entry = try entries.load(SparseNodeLayout.Entry.self, at: middle)
            range = entry.low < low ? middle + 1..<range.upperBound : range.lowerBound..<middle
        }
        guard range.lowerBound < end else { return nil }
        let found = try entries.load(SparseNodeLayout.Entry.self, at: range.lowerBound)
        return found.low == low ? (found.latitudeE7, found.longitudeE7) : nil
    }

    /// Calls `body` with every node of the table, in id order, a megabyte of entries resident
    /// at a time.
    public func forEachNode(_ body: (_ id: Int64, _ latitudeE7: Int32, _ longitudeE7: Int32) throws -> Void) throws {
        var index = 0
        var run = 0
        try entries.forEachChunk(ofEntries: MemoryLayout<SparseNodeLayout.Entry>.stride) { block in
            for entry in block.assumingMemoryBound(to: SparseNodeLayout.Entry.self) {
                while run + 1 < runs.count && runs[run + 1].start <= index { run += 1 }
                try body(Int64(runs[run].high) << 32 | Int64(entry.low), entry.latitudeE7, entry.longitudeE7)
                index += 1
            }
        }
    }

    /// Writes nodes given in increasing id order as a table's two sections.
    public struct Writer {
        private var runs: [SparseNodeLayout.Run] = []
        private var batch: [SparseNodeLayout.Entry] = []
        private var count = 0
        private var lastID = Int64.min
        private var fence: [Int64] = []
        private let writer: StateWriter
        private let names: (entries: String, runs: String, fence: String)

        /// Starts the entries' section of `names` in `writer`.
        public init(_ writer: StateWriter, _ names: (entries: String, runs: String, fence: String)) throws {
            self.writer = writer
            self.names = names
            try writer.beginSection(names.entries)
            batch.reserveCapacity(1 << 14)
        }

        /// Appends node `id`, which must be greater than every id before it.
        public mutating func append(id: Int64, latitudeE7: Int32, longitudeE7: Int32) throws {
            precondition(id > lastID, "NodeTable.Writer: node ids out of order")
            lastID = id
            let high = Int32(truncatingIfNeeded: id >> 32)
            if runs.last?.high != high { runs.append(SparseNodeLayout.Run(high: high, start: count)) }
            if count % NodeTable.fenceStride == 0 { fence.append(id) }
            batch.append(
                SparseNodeLayout.Entry(
                    low: UInt32(truncatingIfNeeded: id), latitudeE7: latitudeE7, longitudeE7: longitudeE7))
            count += 1
            if batch.count == batch.capacity {
                try writer.write(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }

        /// Ends the entries' section and writes the runs' and the fence's.
        public mutating func finish() throws {
            try writer.write(batch)
            try writer.endSection()
            try writer.writeSection(names.runs, runs)
            try writer.writeSection(names.fence, fence)
        }
    }
}
