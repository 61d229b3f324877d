/// An entry of a section laid out in blocks (a string table's string, a POST token's lists),
/// read and written as FORMAT.md lays it out.
protocol BlockedEntry: Equatable {
    /// The entry's bytes.
    var encoded: [UInt8] { get }

    /// Reads one entry at `cursor`.
    init(reading cursor: inout ByteCursor) throws
}

/// The part the string tables (STRS, TOKN) and POST share: `count` entries one after another in
/// `entryBytes`, in blocks of `blockSize`, and where each block's first entry starts. Its fields
/// can be changed and encoded again to make hostile sections.
protocol BlockedSection {
    associatedtype Entry: BlockedEntry

    var count: UInt32 { get set }
    var blockSize: UInt32 { get set }
    var blockOffsets: [UInt32] { get set }
    var entryBytes: [UInt8] { get set }
}

extension BlockedSection {
    /// The block offsets of `count` entries in blocks of `blockSize`, then the entry bytes: the
    /// rest of the section after `cursor`.
    static func readBlocks(
        count: UInt32, blockSize: UInt32, from cursor: inout ByteCursor
    ) throws -> (offsets: [UInt32], entryBytes: [UInt8]) {
        guard blockSize >= 1 else { throw FormatViolation("block size 0") }
        let blocks = (Int(count) + Int(blockSize) - 1) / Int(blockSize)
        let offsets = try (0..<blocks).map { _ in try cursor.word() }
        return (offsets, try cursor.take(cursor.end - cursor.position))
    }

    /// The block offsets and the entries, encoded: the end of the section.
    var encodedBlocks: [UInt8] { le32(blockOffsets) + entryBytes }

    /// The entries with where each starts in the entry bytes, read one after another from the
    /// start: exactly `count` of them, filling the entry bytes.
    func offsetEntries() throws -> [(offset: Int, entry: Entry)] {
        var cursor = ByteCursor(entryBytes)
        let entries = try (0..<Int(count)).map { _ in
            let offset = cursor.position
            return (offset, try Entry(reading: &cursor))
        }
        guard cursor.isAtEnd else {
            throw FormatViolation("\(entryBytes.count - cursor.position) bytes after the last entry")
        }
        return entries
    }

    /// Replaces the entries, and the block offsets with where each block's first entry starts.
    mutating func setEntries(_ entries: [Entry]) {
        count = UInt32(entries.count)
        entryBytes = []
        blockOffsets = []
        for (index, entry) in entries.enumerated() {
            if index % Int(blockSize) == 0 { blockOffsets.append(UInt32(entryBytes.count)) }
            entryBytes += entry.encoded
        }
    }
}
