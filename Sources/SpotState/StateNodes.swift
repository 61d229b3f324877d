import OSMGeometry

/// Every node's location in a state file: sections NENT (`SparseNodeLayout.Entry`s, by id) and
/// NRUN (its runs). Looked up in place, each block checked when first read.
public struct StateNodes {
    private let runs: UnsafeBufferPointer<SparseNodeLayout.Run>
    private let entries: CheckedSection

    /// The nodes of `file`.
    public init(_ file: StateFile) throws(StateError) {
        entries = try file.section("NENT")
        runs = try file.section("NRUN").table(of: SparseNodeLayout.Run.self)
        guard entries.count % MemoryLayout<SparseNodeLayout.Entry>.stride == 0 else {
            throw entries.damage("its length is not a whole number of entries")
        }
    }

    /// Nodes stored.
    public var count: Int { entries.count / MemoryLayout<SparseNodeLayout.Entry>.stride }

    /// The coordinates of node `id`, or nil when the state has none.
    public func location(of id: Int64) throws(StateError) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        guard var range = SparseNodeLayout.entryRange(of: id, runs: runs, entryCount: count) else { return nil }
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

    /// Calls `body` with every node, in id order, a block of entries resident at a time.
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

    /// Writes nodes given in increasing id order as sections NENT and NRUN.
    public struct Writer {
        private var runs: [SparseNodeLayout.Run] = []
        private var batch: [SparseNodeLayout.Entry] = []
        private var count = 0
        private var lastID = Int64.min
        private let writer: StateWriter

        /// Starts section NENT in `writer`.
        public init(_ writer: StateWriter) throws {
            self.writer = writer
            try writer.beginSection("NENT")
            batch.reserveCapacity(1 << 14)
        }

        /// Appends node `id`, which must be greater than every id before it.
        public mutating func append(id: Int64, latitudeE7: Int32, longitudeE7: Int32) throws {
            precondition(id > lastID, "StateNodes.Writer: node ids out of order")
            lastID = id
            let high = Int32(truncatingIfNeeded: id >> 32)
            if runs.last?.high != high { runs.append(SparseNodeLayout.Run(high: high, start: count)) }
            batch.append(
                SparseNodeLayout.Entry(
                    low: UInt32(truncatingIfNeeded: id), latitudeE7: latitudeE7, longitudeE7: longitudeE7))
            count += 1
            if batch.count == batch.capacity {
                try writer.write(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }

        /// Ends NENT and writes NRUN.
        public mutating func finish() throws {
            try writer.write(batch)
            try writer.endSection()
            try writer.beginSection("NRUN")
            try writer.write(runs)
            try writer.endSection()
        }
    }
}
