/// A string table (STRS, TOKN; FORMAT.md, "String tables"): distinct strings sorted by their
/// bytes, in blocks; within a block each string is the length of the prefix it shares with the
/// one before and the rest of it, byte-pair coded (`BytePairCode`).
///
/// String *i* is decoded from the start of its block, so a lookup decodes at most a block's
/// worth of short strings; sorted order lets a prefix search binary-search the blocks.
struct StringTable {
    let count: Int
    private let blockSize: Int
    private let blockOffsets: UnsafeRawBufferPointer
    private let entries: UnsafeRawBufferPointer
    /// What each byte value of the coded text stands for: itself, or a code's expansion.
    private let expansions: [[UInt8]]
    private let file: String
    private let name: String

    /// Checks the table's header, pair table and block offsets' extent.
    init(_ section: UnsafeRawBufferPointer, file: String, section name: String) throws(IndexError) {
        self.file = file
        self.name = name
        func corrupt(_ message: String) -> IndexError { IndexError(.corrupt, file: file, section: name, message) }
        guard section.count >= 12 else { throw corrupt("too short") }
        count = Int(section.load(0) as UInt32)
        blockSize = Int(section.load(4) as UInt32)
        let pairCount = Int(section.load(8) as UInt32)
        guard blockSize >= 1, pairCount <= 256 else { throw corrupt("bad block size or pair count") }
        let pairsEnd = 12 + 3 * pairCount
        let offsetsStart = (pairsEnd + 3) / 4 * 4
        let blocks = count / blockSize + (count % blockSize == 0 ? 0 : 1)
        guard count <= section.count, offsetsStart + 4 * blocks <= section.count else {
            throw corrupt("\(count) strings do not fit in \(section.count) bytes")
        }
        var expansions: [[UInt8]] = (0...255).map { [UInt8($0)] }
        var isCode = [Bool](repeating: false, count: 256)
        for pair in 0..<pairCount {
            let code = Int(section[12 + 3 * pair])
            let left = Int(section[13 + 3 * pair])
            let right = Int(section[14 + 3 * pair])
            guard !isCode[code], code != left, code != right else { throw corrupt("code \(code) is defined twice or by itself") }
            let expansion = expansions[left] + expansions[right]
            guard expansion.count <= BytePairCode.maxExpansion else { throw corrupt("code \(code) stands for too long a text") }
            expansions[code] = expansion
            isCode[code] = true
        }
        self.expansions = expansions
        blockOffsets = UnsafeRawBufferPointer(rebasing: section[offsetsStart..<offsetsStart + 4 * blocks])
        entries = UnsafeRawBufferPointer(rebasing: section[(offsetsStart + 4 * blocks)...])
    }

    /// The bytes of string `index`.
    func bytes(_ index: Int) throws(IndexError) -> [UInt8] {
        guard index >= 0 && index < count else { throw corrupt("string \(index) of \(count) is out of bounds") }
        var reader = try reader(atBlock: index / blockSize)
        for _ in 0..<index % blockSize { try reader.skip() }
        return try reader.next()
    }

    /// String `index`.
    func string(_ index: Int) throws(IndexError) -> String {
        String(decoding: try bytes(index), as: UTF8.self)
    }

    /// The numbers of the strings that start with `prefix`: a range, since strings are sorted.
    func range(withPrefix prefix: [UInt8]) throws(IndexError) -> Range<Int> {
        // The last block whose first string sorts before the prefix holds the range's start.
        var low = 0
        var high = blockOffsets.count / 4
        while low < high {
            let middle = (low + high) / 2
            var reader = try reader(atBlock: middle)
            if try reader.next().lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        var index = max(low - 1, 0) * blockSize
        var reader = EntryReader(table: self, position: 0)
        var start: Int?
        while index < count {
            if index % blockSize == 0 { reader = try self.reader(atBlock: index / blockSize) }
            let string = try reader.next()
            if start == nil && !string.lexicographicallyPrecedes(prefix) { start = index }
            if start != nil && !string.starts(with: prefix) { break }
            index += 1
        }
        return (start ?? index)..<index
    }

    private func reader(atBlock block: Int) throws(IndexError) -> EntryReader {
        let offset = Int(blockOffsets.load(4 * block) as UInt32)
        guard offset <= entries.count else { throw corrupt("block \(block) starts past the end") }
        return EntryReader(table: self, position: offset)
    }

    private func corrupt(_ message: String) -> IndexError { IndexError(.corrupt, file: file, section: name, message) }

    /// Decodes a block's strings one after another.
    private struct EntryReader {
        let table: StringTable
        var position: Int
        var previous: [UInt8] = []

        init(table: StringTable, position: Int) {
            self.table = table
            self.position = position
        }

        mutating func next() throws(IndexError) -> [UInt8] {
            var varints = VarintReader(table.entries, from: position)
            guard let shared = varints.next(), let length = varints.next(), Int(shared) <= previous.count,
                Int(length) <= table.entries.count - varints.position
            else { throw table.corrupt("a string's entry runs past the table or shares too long a prefix") }
            var string = Array(previous[..<Int(shared)])
            for offset in varints.position..<varints.position + Int(length) {
                string.append(contentsOf: table.expansions[Int(table.entries[offset])])
            }
            position = varints.position + Int(length)
            previous = string
            return string
        }

        mutating func skip() throws(IndexError) { _ = try next() }
    }
}

/// Reads unsigned LEB128 varints (FORMAT.md) from bytes, never past their end.
struct VarintReader {
    let bytes: UnsafeRawBufferPointer
    /// Where the next varint starts.
    private(set) var position: Int
    let end: Int

    /// A reader of `bytes` from `position` to `end` (the end of `bytes` when nil).
    init(_ bytes: UnsafeRawBufferPointer, from position: Int, to end: Int? = nil) {
        self.bytes = bytes
        self.position = position
        self.end = min(end ?? bytes.count, bytes.count)
    }

    /// Whether every byte up to the end has been read.
    var isAtEnd: Bool { position >= end }

    /// The next varint, or nil when it runs past the end or does not fit 32 bits.
    mutating func next() -> UInt32? {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while position < end, shift < 32 {
            let byte = bytes[position]
            position += 1
            value |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
