/// A string table (STRS, TOKN) split into the parts FORMAT.md names. Its fields can be changed
/// and `encoded` again to make hostile tables.
struct RawStringTable: BlockedSection {
    /// A code and the two symbols it stands for.
    struct Pair: Equatable {
        var code, left, right: UInt8
    }

    /// One string's entry: the bytes it shares with the string before, its length and its coded bytes.
    struct Entry: BlockedEntry {
        var shared: Int
        var length: Int
        var coded: [UInt8]
        var encoded: [UInt8] { varint(shared) + varint(length) + coded }

        init(shared: Int, length: Int, coded: [UInt8]) {
            self.shared = shared
            self.length = length
            self.coded = coded
        }

        init(reading cursor: inout ByteCursor) throws {
            shared = try cursor.varint()
            length = try cursor.varint()
            coded = try cursor.take(length)
        }
    }

    var count: UInt32
    var blockSize: UInt32
    var pairCount: UInt32
    var pairs: [Pair]
    var padding: [UInt8]
    var blockOffsets: [UInt32]
    var entryBytes: [UInt8]

    /// Splits a valid table's section into its parts.
    init(_ section: [UInt8]) throws {
        var cursor = ByteCursor(section)
        count = try cursor.word()
        blockSize = try cursor.word()
        pairCount = try cursor.word()
        guard blockSize >= 1, pairCount <= 256 else {
            throw FormatViolation("block size \(blockSize), \(pairCount) pairs")
        }
        pairs = try (0..<Int(pairCount)).map { _ in
            let pair = try cursor.take(3)
            return Pair(code: pair[0], left: pair[1], right: pair[2])
        }
        padding = try cursor.take((4 - cursor.position % 4) % 4)
        (blockOffsets, entryBytes) = try Self.readBlocks(count: count, blockSize: blockSize, from: &cursor)
    }

    /// The table of `strings` (sorted, distinct) in blocks of `blockSize`, front-coded and
    /// without codes, so that every byte stands for itself.
    init(plain strings: [[UInt8]], blockSize: Int) {
        self.blockSize = UInt32(blockSize)
        count = 0
        pairCount = 0
        pairs = []
        padding = []
        blockOffsets = []
        entryBytes = []
        setEntries(
            strings.indices.map { index in
                let shared =
                    index % blockSize == 0 ? 0 : zip(strings[index - 1], strings[index]).prefix { $0 == $1 }.count
                return Entry(
                    shared: shared, length: strings[index].count - shared, coded: Array(strings[index][shared...]))
            })
    }

    /// The section these parts make: the header, the pairs, zero padding, offsets and entries.
    var encoded: [UInt8] {
        var bytes = le32(count, blockSize, pairCount) + pairs.flatMap { [$0.code, $0.left, $0.right] }
        bytes += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        return bytes + encodedBlocks
    }

    /// The entries, read one after another from the start: exactly `count` of them, filling the
    /// entry bytes.
    func entries() throws -> [Entry] { try offsetEntries().map(\.entry) }

    /// Where each entry starts, in bytes from the start of the entries.
    func entryOffsets() throws -> [UInt32] { try offsetEntries().map { UInt32($0.offset) } }

    /// Appends pairs, keeping the entries.
    mutating func appendPairs(_ more: [Pair]) {
        pairs += more
        pairCount = UInt32(pairs.count)
    }

    /// What each code stands for, by the rules: a pair may use plain bytes and earlier codes only,
    /// defines a new code, never itself, and stands for at most 64 bytes.
    func expansions() throws -> [UInt8: [UInt8]] {
        var expansions: [UInt8: [UInt8]] = [:]
        let laterCodes = Set(pairs.map(\.code))
        for (number, pair) in pairs.enumerated() {
            guard expansions[pair.code] == nil else {
                throw FormatViolation("pair \(number) defines code \(pair.code) again")
            }
            for symbol in [pair.left, pair.right] where expansions[symbol] == nil && laterCodes.contains(symbol) {
                throw FormatViolation("pair \(number) uses \(symbol), a code defined later or by itself")
            }
            let expansion = (expansions[pair.left] ?? [pair.left]) + (expansions[pair.right] ?? [pair.right])
            guard expansion.count <= 64 else {
                throw FormatViolation("code \(pair.code) stands for \(expansion.count) bytes")
            }
            expansions[pair.code] = expansion
        }
        return expansions
    }

    /// The strings, decoded: each entry's shared prefix of the string before it (none at a block's
    /// start), then its coded bytes with each code replaced by what it stands for.
    func strings() throws -> [[UInt8]] {
        let expansions = try expansions()
        var previous: [UInt8] = []
        return try entries().enumerated().map { index, entry in
            let limit = index % Int(blockSize) == 0 ? 0 : previous.count
            guard entry.shared <= limit else {
                throw FormatViolation("string \(index) shares \(entry.shared) bytes of \(limit)")
            }
            previous = Array(previous.prefix(entry.shared)) + entry.coded.flatMap { expansions[$0] ?? [$0] }
            return previous
        }
    }
}
