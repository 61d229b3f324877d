/// The layout that POST, CDET and CMEM share (FORMAT.md): a block size B, where the first entry
/// of every block of B entries starts, then the entries, varint-coded and read in order from
/// the start of a block. Opening checks that the block offsets fit; each offset is checked as
/// the entries are read from it (a `VarintReader` never reads past the entries).
struct BlockedEntries {
    /// Entries per block.
    let blockSize: Int
    /// The entries.
    let entries: SectionBytes
    private let blockStarts: RecordTable

    /// The blocks of `section` whose block size is the 4 bytes at `offset`, followed by the
    /// block offsets, for `count` entries.
    init(_ section: SectionBytes, blockSizeAt offset: Int, entryCount count: Int) throws(IndexError) {
        let blockSize = section.count >= offset + 4 ? Int(try section.uint32(at: offset)) : 0
        let blocks = blockSize < 1 ? -1 : (count + blockSize - 1) / blockSize
        let offsetsStart = offset + 4
        guard blocks >= 0, offsetsStart + 4 * blocks <= section.count else {
            throw section.corrupt("bad block size, or its block offsets do not fit")
        }
        self.blockSize = blockSize
        blockStarts = try RecordTable(
            try section.subrange(from: offsetsStart, to: offsetsStart + 4 * blocks), recordSize: 4)
        entries = try section.subrange(from: offsetsStart + 4 * blocks)
    }

    /// A reader of the entries from the start of the block that holds entry `entry`, and that
    /// block's first entry number; `entry` must be below the entry count.
    func entries(fromBlockOf entry: Int) -> (reader: VarintReader, first: Int) {
        let block = entry / blockSize
        let start = Int(blockStarts.field(at: 0, of: block) as UInt32)
        return (entries.varints(from: start), block * blockSize)
    }
}
