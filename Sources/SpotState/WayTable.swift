import OSMGeometry

/// Way node lists by id in two sections of a state file: the ids (each way's id and the end of
/// its list, 16 bytes, by id) and the lists (as `WayNodeStore.encode` writes them). A base file
/// holds every way's (WIDS, WREF); a state's overlay holds the ways changed since the base
/// (OWID, OWRF), a deleted one with an empty list and the top bit of its end set.
public struct WayTable {
    /// The sections of a base's table and of an overlay's: ids, lists, and the fence (the id of
    /// every `fenceStride`-th way, so that a lookup reads one page of ids).
    public static let base = (ids: "WIDS", lists: "WREF", fence: "WFEN")
    public static let overlay = (ids: "OWID", lists: "OWRF", fence: "OWFN")
    /// Ways between two fence posts: as many as a page of ids holds.
    static let fenceStride = StateLayout.blockSize / MemoryLayout<Entry>.stride
    /// The bit of an entry's end that marks a deleted way.
    static let deletedBit: UInt64 = 1 << 63

    /// One way: its id and where its list ends (it starts where the one before ends).
    struct Entry: BitwiseCopyable {
        var id: Int64
        var end: UInt64
    }

    private let ids: CheckedSection
    private let lists: CheckedSection
    private let fence: UnsafeBufferPointer<Int64>

    /// The table in `file`'s sections `names`.
    public init(_ file: StateFile, _ names: (ids: String, lists: String, fence: String)) throws(StateError) {
        ids = try file.section(names.ids)
        lists = try file.section(names.lists)
        fence = try file.section(names.fence).table(of: Int64.self)
        guard ids.count % MemoryLayout<Entry>.stride == 0 else {
            throw ids.damage("its length is not a whole number of entries")
        }
    }

    /// Ways in the table (deleted ones of an overlay too).
    public var count: Int { ids.count / MemoryLayout<Entry>.stride }

    /// What the table has for way `id`: nil when nothing, `.some(nil)` for a deletion, else the
    /// way's node references.
    public func nodes(of id: Int64) throws(StateError) -> [Int64]?? {
        var lower = 0
        var upper = fence.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if fence[middle] <= id { lower = middle + 1 } else { upper = middle }
        }
        // The ways between the fence posts around `id`.
        upper = min(count, lower * Self.fenceStride)
        lower = max(0, lower - 1) * Self.fenceStride
        while lower < upper {
            let middle = (lower + upper) / 2
            if try ids.load(Entry.self, at: middle).id < id { lower = middle + 1 } else { upper = middle }
        }
        guard lower < count, try ids.load(Entry.self, at: lower).id == id else { return nil }
        return .some(try nodes(at: lower))
    }

    /// Calls `body` with every way of the table and its node references (nil: deleted), in id
    /// order.
    public func forEachWay(_ body: (_ id: Int64, _ nodes: [Int64]?) throws -> Void) throws {
        for index in 0..<count { try body(try ids.load(Entry.self, at: index).id, try nodes(at: index)) }
    }

    /// The node references of the way at `index`; nil when it is marked deleted.
    private func nodes(at index: Int) throws(StateError) -> [Int64]? {
        let start = index == 0 ? 0 : Int(clamping: try ids.load(Entry.self, at: index - 1).end & ~Self.deletedBit)
        let entry = try ids.load(Entry.self, at: index)
        guard entry.end & Self.deletedBit == 0 else { return nil }
        let end = Int(clamping: entry.end)
        guard start <= end else { throw ids.damage("way lists out of order") }
        guard let nodes = WayNodeStore.decode(try lists.bytes(start..<end)) else {
            throw lists.damage("a way's node list ends inside a number")
        }
        return nodes
    }

    /// Writes ways given in increasing id order as a table's two sections.
    public struct Writer {
        private var entries: [Entry] = []
        private var bytes: [UInt8] = []
        private var end = 0
        private var fence: [Int64] = []
        private let writer: StateWriter
        private let names: (ids: String, lists: String, fence: String)

        /// Starts the lists' section of `names` in `writer`.
        public init(_ writer: StateWriter, _ names: (ids: String, lists: String, fence: String)) throws {
            self.writer = writer
            self.names = names
            try writer.beginSection(names.lists)
        }

        /// Appends way `id`, which must be greater than every id before it, with its nodes
        /// (nil: a deletion, in an overlay).
        public mutating func append(id: Int64, nodes: [Int64]?) throws {
            precondition(entries.last.map { $0.id < id } ?? true, "WayTable.Writer: way ids out of order")
            if entries.count % WayTable.fenceStride == 0 { fence.append(id) }
            if let nodes { WayNodeStore.encode(nodes, into: &bytes) }
            entries.append(Entry(id: id, end: UInt64(end + bytes.count) | (nodes == nil ? WayTable.deletedBit : 0)))
            if bytes.count >= 1 << 20 {
                end += bytes.count
                try writer.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }

        /// Ends the lists' section and writes the ids' and the fence's.
        public mutating func finish() throws {
            try writer.write(bytes)
            try writer.endSection()
            try writer.writeSection(names.ids, entries)
            try writer.writeSection(names.fence, fence)
        }
    }
}
