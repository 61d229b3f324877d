/// Every way's node list, kept compactly for the multipolygon relations that come after the ways
/// in OSM XML and may name any of them.
///
/// One pass cannot know which untagged ways a later relation will need, and a multipolygon's
/// rings are often joined from open ways, so keeping only closed ways would not do: every way's
/// list is kept, as zigzag varints of the differences between successive node ids (neighbouring
/// nodes of a way usually have near ids: 2 to 4 bytes a reference rather than 8), plus 16 bytes
/// of id and offset a way. Ways in id order are stored with no sorting; `finish()` sorts others.
public struct WayNodeStore {
    private var ids: [Int64] = []
    private var starts: [Int] = []
    private var bytes: [UInt8] = []
    private var isSorted = true
    /// The positions of `ids` in id order, when ways came out of order.
    private var order: [Int]?

    /// An empty store.
    public init() {}

    /// Ways stored.
    public var count: Int { ids.count }

    /// Bytes the store takes.
    public var byteCount: Int { bytes.count + ids.count * 16 }

    /// Stores way `id` with its node references.
    public mutating func append(id: Int64, nodes: UnsafeBufferPointer<Int64>) {
        if let last = ids.last, id <= last { isSorted = false }
        ids.append(id)
        starts.append(bytes.count)
        Self.encode(nodes, into: &bytes)
    }

    /// Appends `nodes` to `bytes` as zigzag varints of the differences between successive ids
    /// (from 0 for the first): the form every way's list is kept in, here and in state files.
    public static func encode(_ nodes: some Sequence<Int64>, into bytes: inout [UInt8]) {
        var previous: Int64 = 0
        for node in nodes {
            let delta = node &- previous
            var zigzag = UInt64(bitPattern: (delta << 1) ^ (delta >> 63))
            while zigzag >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
                zigzag >>= 7
            }
            bytes.append(UInt8(zigzag))
            previous = node
        }
    }

    /// The node ids `encode` wrote into `bytes`, the whole of it; nil when `bytes` ends inside a
    /// varint or one runs over 10 bytes (damaged bytes, read from a file).
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> [Int64]? {
        var nodes: [Int64] = []
        var previous: Int64 = 0
        var offset = 0
        while offset < bytes.count {
            var zigzag: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard offset < bytes.count, shift < 70 else { return nil }
                let byte = bytes[offset]
                offset += 1
                zigzag |= UInt64(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            previous = previous &+ (Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
            nodes.append(previous)
        }
        return nodes
    }

    /// Ends appending; sorts an order of the ways when they came out of id order (the later of two
    /// ways with one id wins).
    public mutating func finish() {
        guard !isSorted, order == nil else { return }
        order = ids.indices.sorted { (ids[$0], $0) < (ids[$1], $1) }
    }

    /// The node references of way `id`, or nil when it was not stored.
    public func nodes(of id: Int64) -> [Int64]? {
        var lower = 0
        var upper = ids.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if position(middle).id <= id { lower = middle + 1 } else { upper = middle }
        }
        guard lower > 0 else { return nil }
        let (found, index) = position(lower - 1)
        guard found == id else { return nil }
        return nodes(at: index)
    }

    /// Calls `body` with every way stored and its node references, in id order, one list per id
    /// (the later of two for one id). Only after `finish()`.
    public func forEachWay(_ body: (_ id: Int64, _ nodes: [Int64]) throws -> Void) rethrows {
        for rank in ids.indices {
            let (id, index) = position(rank)
            guard rank + 1 == ids.count || position(rank + 1).id != id else { continue }
            try body(id, nodes(at: index))
        }
    }

    /// The node references of the way stored at `index`.
    private func nodes(at index: Int) -> [Int64] {
        let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
        return bytes[starts[index]..<end].withUnsafeBytes { Self.decode($0)! }
    }

    /// The id and storage index of the way at `rank` in id order.
    private func position(_ rank: Int) -> (id: Int64, index: Int) {
        let index = order?[rank] ?? rank
        return (ids[index], index)
    }
}
