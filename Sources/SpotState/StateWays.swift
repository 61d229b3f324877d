import OSMGeometry

/// Every way's node list in a state file: section WIDS (each way's id and the end of its list
/// in WREF, 16 bytes, by id) and WREF (the lists, as `WayNodeStore.encode` writes them).
public struct StateWays {
    /// One way: its id and where its list ends in WREF (it starts where the one before ends).
    struct Entry: BitwiseCopyable {
        var id: Int64
        var end: UInt64
    }

    private let ids: CheckedSection
    private let references: CheckedSection

    /// The ways of `file`.
    public init(_ file: StateFile) throws(StateError) {
        ids = try file.section("WIDS")
        references = try file.section("WREF")
        guard ids.count % MemoryLayout<Entry>.stride == 0 else {
            throw ids.damage("its length is not a whole number of entries")
        }
    }

    /// Ways stored.
    public var count: Int { ids.count / MemoryLayout<Entry>.stride }

    /// The node references of way `id`, or nil when the state has none.
    public func nodes(of id: Int64) throws(StateError) -> [Int64]? {
        var lower = 0
        var upper = count
        while lower < upper {
            let middle = (lower + upper) / 2
            if try ids.load(Entry.self, at: middle).id < id { lower = middle + 1 } else { upper = middle }
        }
        guard lower < count, try ids.load(Entry.self, at: lower).id == id else { return nil }
        return try nodes(at: lower)
    }

    /// Calls `body` with every way and its node references, in id order.
    public func forEachWay(_ body: (_ id: Int64, _ nodes: [Int64]) throws -> Void) throws {
        for index in 0..<count { try body(try ids.load(Entry.self, at: index).id, try nodes(at: index)) }
    }

    private func nodes(at index: Int) throws(StateError) -> [Int64] {
        let start = index == 0 ? 0 : Int(clamping: try ids.load(Entry.self, at: index - 1).end)
        let end = Int(clamping: try ids.load(Entry.self, at: index).end)
        guard start <= end else { throw ids.damage("way lists out of order") }
        guard let nodes = WayNodeStore.decode(try references.bytes(start..<end)) else {
            throw references.damage("a way's node list ends inside a number")
        }
        return nodes
    }

    /// Writes ways given in increasing id order as sections WREF and WIDS.
    public struct Writer {
        private var entries: [Entry] = []
        private var bytes: [UInt8] = []
        private var end = 0
        private let writer: StateWriter

        /// Starts section WREF in `writer`.
        public init(_ writer: StateWriter) throws {
            self.writer = writer
            try writer.beginSection("WREF")
        }

        /// Appends way `id`, which must be greater than every id before it, with its nodes.
        public mutating func append(id: Int64, nodes: some Sequence<Int64>) throws {
            precondition(entries.last.map { $0.id < id } ?? true, "StateWays.Writer: way ids out of order")
            WayNodeStore.encode(nodes, into: &bytes)
            entries.append(Entry(id: id, end: UInt64(end + bytes.count)))
            if bytes.count >= 1 << 20 {
                end += bytes.count
                try writer.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }

        /// Ends WREF and writes WIDS.
        public mutating func finish() throws {
            try writer.write(bytes)
            try writer.endSection()
            try writer.beginSection("WIDS")
            try writer.write(entries)
            try writer.endSection()
        }
    }
}
