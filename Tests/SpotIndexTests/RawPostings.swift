/// The POST section split into its parts: token count, block size, block offsets, entries.
struct RawPostings: BlockedSection {
    /// One group of a token's entry: its key, the byte length it states, and its rank list's bytes.
    struct Group: Equatable {
        var key: Int
        var length: Int
        var ranks: [UInt8]
        var encoded: [UInt8] { varint(key) + varint(length) + ranks }

        /// A group of these rank list bytes, stating their length.
        init(key: Int, ranks: [UInt8]) {
            self.init(key: key, length: ranks.count, ranks: ranks)
        }

        init(key: Int, length: Int, ranks: [UInt8]) {
            self.key = key
            self.length = length
            self.ranks = ranks
        }

        /// The rank list, decoded.
        func decodedRanks() throws -> [Int] { try decodeRankList(ranks) }
    }

    /// One token's entry: the group count it states, and its groups.
    struct Entry: BlockedEntry {
        var groupCount: Int
        var groups: [Group]
        var encoded: [UInt8] { varint(groupCount) + groups.flatMap(\.encoded) }

        /// The entry of a token whose groups have these keys and ranks.
        init(groups: [(key: Int, ranks: [Int])]) {
            self.init(groups: groups.map { Group(key: $0.key, ranks: rankList($0.ranks)) })
        }

        /// An entry of these groups, stating their count.
        init(groups: [Group]) {
            groupCount = groups.count
            self.groups = groups
        }

        init(reading cursor: inout ByteCursor) throws {
            groupCount = try cursor.varint()
            groups = []
            for _ in 0..<groupCount {
                let key = try cursor.varint()
                let length = try cursor.varint()
                groups.append(Group(key: key, length: length, ranks: try cursor.take(length)))
            }
        }

        /// The groups' keys and rank lists, decoded.
        func decodedGroups() throws -> [(key: Int, ranks: [Int])] {
            try groups.map { ($0.key, try $0.decodedRanks()) }
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
