/// The POST section split into its parts: token count, block size, block offsets, entries.
struct RawPostings: BlockedSection {
    /// One token's entry: the byte lengths it states, and the bytes of its two rank lists.
    struct Entry: BlockedEntry {
        var startingLength: Int
        var othersLength: Int
        var starting: [UInt8]
        var others: [UInt8]
        var encoded: [UInt8] { varint(startingLength) + varint(othersLength) + starting + others }

        /// The entry of a token whose name-starting spots have `starting` ranks, and the others `others`.
        init(starting: [Int], others: [Int]) {
            self.init(startingBytes: rankList(starting), othersBytes: rankList(others))
        }

        /// An entry of these list bytes, stating their lengths.
        init(startingBytes: [UInt8], othersBytes: [UInt8]) {
            self.init(
                startingLength: startingBytes.count, othersLength: othersBytes.count, starting: startingBytes,
                others: othersBytes)
        }

        init(startingLength: Int, othersLength: Int, starting: [UInt8], others: [UInt8]) {
            self.startingLength = startingLength
            self.othersLength = othersLength
            self.starting = starting
            self.others = others
        }

        init(reading cursor: inout ByteCursor) throws {
            startingLength = try cursor.varint()
            othersLength = try cursor.varint()
            starting = try cursor.take(startingLength)
            others = try cursor.take(othersLength)
        }

        /// The two rank lists, decoded.
        func lists() throws -> (starting: [Int], others: [Int]) {
            (try decodeRankList(starting), try decodeRankList(others))
        }
    }

    var count: UInt32
    var blockSize: UInt32
    var blockOffsets: [UInt32]
    var entryBytes: [UInt8]

    /// Splits a valid section into its parts.
    init(_ section: [UInt8]) throws {
        var cursor = ByteCursor(section)
        count = try cursor.word()
        blockSize = try cursor.word()
        (blockOffsets, entryBytes) = try Self.readBlocks(count: count, blockSize: blockSize, from: &cursor)
    }

    /// The section of `entries` in blocks of `blockSize`, its block offsets where each block's
    /// first entry starts.
    init(entries: [Entry], blockSize: Int = 16) {
        count = 0
        self.blockSize = UInt32(blockSize)
        blockOffsets = []
        entryBytes = []
        setEntries(entries)
    }

    /// The section these parts make: the header, offsets and entries.
    var encoded: [UInt8] { le32(count, blockSize) + encodedBlocks }

    /// The entries with where each starts, read one after another: exactly `count`, filling the
    /// entry bytes.
    func entries() throws -> [(offset: Int, entry: Entry)] { try offsetEntries() }
}
