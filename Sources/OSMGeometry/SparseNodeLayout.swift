/// Node locations sorted by id, 12 bytes a node: each entry the low 32 bits of its id and its two
/// coordinates, with a short table of runs saying where each value of the high 32 bits starts
/// (extracts' ids spread over billions, but few high halves). A lookup is two binary searches.
///
/// A view over buffers someone else owns: `NodeLocationStore`'s memory while a build reads, or
/// the mapped sections of an index's state file. Invariants (the owner's to keep): entries sorted
/// by full id with no id twice; runs sorted by `high`, each starting where the entries of its
/// high half start, the first at 0.
public struct SparseNodeLayout {
    /// One node: the low 32 bits of its id and its coordinates.
    public struct Entry: BitwiseCopyable {
        /// The id's low 32 bits.
        public var low: UInt32
        /// Degrees × 10^7.
        public var latitudeE7: Int32
        /// Degrees × 10^7.
        public var longitudeE7: Int32

        /// An entry for a node whose id ends in `low`.
        public init(low: UInt32, latitudeE7: Int32, longitudeE7: Int32) {
            self.low = low
            self.latitudeE7 = latitudeE7
            self.longitudeE7 = longitudeE7
        }
    }

    /// Where the entries whose ids have one value of the high 32 bits start.
    public struct Run: BitwiseCopyable {
        /// The ids' high 32 bits.
        public var high: Int32
        /// The first entry's position (an Int: 8 bytes, with the padding 16 in all).
        public var start: Int

        /// A run of `high` starting at entry `start`.
        public init(high: Int32, start: Int) {
            self.high = high
            self.start = start
        }
    }

    /// The runs, by `high`.
    public let runs: UnsafeBufferPointer<Run>
    /// The entries, by id.
    public let entries: UnsafeBufferPointer<Entry>

    /// A view of `runs` and `entries`, which must keep the invariants above.
    public init(runs: UnsafeBufferPointer<Run>, entries: UnsafeBufferPointer<Entry>) {
        self.runs = runs
        self.entries = entries
    }

    /// The coordinates of node `id`, or nil when it is not stored.
    public func location(of id: Int64) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        guard var range = Self.entryRange(of: id, runs: runs, entryCount: entries.count) else { return nil }
        let low = UInt32(truncatingIfNeeded: id)
        let end = range.upperBound
        while range.lowerBound < range.upperBound {
            let middle = (range.lowerBound + range.upperBound) / 2
            range = entries[middle].low < low ? middle + 1..<range.upperBound : range.lowerBound..<middle
        }
        guard range.lowerBound < end else { return nil }
        let found = entries[range.lowerBound]
        return found.low == low ? (found.latitudeE7, found.longitudeE7) : nil
    }

    /// The entries that hold ids with `id`'s high 32 bits (its run), among `entryCount`; nil
    /// when no run has them. The first step of a lookup, for readers whose entries are not one
    /// buffer to search.
    public static func entryRange(
        of id: Int64, runs: UnsafeBufferPointer<Run>, entryCount: Int
    ) -> Range<Int>? {
        let high = Int32(truncatingIfNeeded: id >> 32)
        // The run of `high`: the last run starting at or below it.
        var lower = 0
        var upper = runs.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if runs[middle].high <= high { lower = middle + 1 } else { upper = middle }
        }
        guard lower > 0, runs[lower - 1].high == high else { return nil }
        let end = min(lower < runs.count ? runs[lower].start : entryCount, entryCount)
        let start = min(max(0, runs[lower - 1].start), end)
        return start..<end
    }

    /// The full id of entry `index`: its run is found by binary search.
    public func id(at index: Int) -> Int64 {
        var lower = 0
        var upper = runs.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if runs[middle].start <= index { lower = middle + 1 } else { upper = middle }
        }
        return Int64(runs[max(lower - 1, 0)].high) << 32 | Int64(entries[index].low)
    }

    /// Calls `body` with every node, in id order.
    public func forEachNode(_ body: (_ id: Int64, _ latitudeE7: Int32, _ longitudeE7: Int32) throws -> Void) rethrows {
        var run = 0
        for (index, entry) in entries.enumerated() {
            while run + 1 < runs.count && runs[run + 1].start <= index { run += 1 }
            try body(Int64(runs[run].high) << 32 | Int64(entry.low), entry.latitudeE7, entry.longitudeE7)
        }
    }
}
