/// A string table (STRS, TOKN; FORMAT.md, "String tables"): distinct strings sorted by their
/// bytes, in blocks; within a block each string is the length of the prefix it shares with the
/// one before and the rest of it, byte-pair coded (`BytePairCode`).
///
/// String *i* is decoded from the start of its block, so a lookup decodes at most a block's
/// worth of short strings; sorted order lets a prefix search binary-search the blocks.
struct StringTable {
    let count: Int
    /// Strings per block (the last may hold fewer).
    let blockSize: Int
    private let blockOffsets: RecordTable
    private let entries: SectionBytes
    /// What each byte value of the coded text stands for (itself, or a code's expansion):
    /// byte *b* stands for `expansionBytes[expansionStarts[b]..<expansionStarts[b + 1]]`.
    private let expansionBytes: [UInt8]
    private let expansionStarts: [Int]

    /// Checks the table's header, pair table and block offsets' extent.
    init(_ section: SectionBytes) throws(IndexError) {
        func corrupt(_ message: String) -> IndexError { section.corrupt(message) }
        guard section.count >= 12 else { throw corrupt("too short") }
        count = Int(try section.uint32(at: 0))
        blockSize = Int(try section.uint32(at: 4))
        let pairCount = Int(try section.uint32(at: 8))
        guard blockSize >= 1, pairCount <= 256 else { throw corrupt("bad block size or pair count") }
        let pairsEnd = 12 + 3 * pairCount
        let offsetsStart = (pairsEnd + 3) / 4 * 4
        let blocks = count / blockSize + (count % blockSize == 0 ? 0 : 1)
        guard count <= section.count, offsetsStart + 4 * blocks <= section.count else {
            throw corrupt("\(count) strings do not fit in \(section.count) bytes")
        }
        // Each pair may use plain bytes and earlier codes only: its expansion is then the two
        // expansions before it in the flat table, and no table can make decoding recurse.
        func symbol(_ offset: Int) throws(IndexError) -> Int { Int(try section.load(UInt8.self, at: offset)) }
        let pairs = try (0..<pairCount).map { (pair) throws(IndexError) in
            (code: try symbol(12 + 3 * pair), left: try symbol(13 + 3 * pair), right: try symbol(14 + 3 * pair))
        }
        var isCode = [Bool](repeating: false, count: 256)
        for pair in pairs {
            guard !isCode[pair.code] else { throw corrupt("code \(pair.code) is defined twice") }
            isCode[pair.code] = true
        }
        var isDefined = [Bool](repeating: false, count: 256)
        var lengths = [Int](repeating: 1, count: 256)
        for pair in pairs {
            let undefined = isCode[pair.left] && !isDefined[pair.left] ? pair.left : pair.right
            guard !isCode[undefined] || isDefined[undefined] else {
                throw corrupt("code \(pair.code) uses code \(undefined) before it is defined")
            }
            lengths[pair.code] = lengths[pair.left] + lengths[pair.right]
            guard lengths[pair.code] <= IndexLayout.maxCodeExpansion else {
                throw corrupt("code \(pair.code) stands for too long a text")
            }
            isDefined[pair.code] = true
        }
        var starts = [Int](repeating: 0, count: 257)
        for byte in 0..<256 { starts[byte + 1] = starts[byte] + lengths[byte] }
        var bytes = [UInt8](repeating: 0, count: starts[256])
        for byte in 0..<256 where !isCode[byte] { bytes[starts[byte]] = UInt8(byte) }
        // Copied in place, pair by pair: each expansion is its two halves' expansions, written before.
        bytes.withUnsafeMutableBufferPointer { expansions in
            for pair in pairs {
                var next = starts[pair.code]
                for half in starts[pair.left]..<starts[pair.left + 1] {
                    expansions[next] = expansions[half]
                    next += 1
                }
                for half in starts[pair.right]..<starts[pair.right + 1] {
                    expansions[next] = expansions[half]
                    next += 1
                }
            }
        }
        expansionBytes = bytes
        expansionStarts = starts
        let offsets = try section.subrange(from: offsetsStart, to: offsetsStart + 4 * blocks)
        blockOffsets = try RecordTable(offsets, recordSize: 4)
        entries = try section.subrange(from: offsetsStart + 4 * blocks)
    }

    /// The bytes of string `index`.
    func bytes(_ index: Int) throws(IndexError) -> [UInt8] {
        try decode(index) { capacity, fill in
            // `Array(unsafeUninitializedCapacity: 0)` writes the count into the standard library's
            // one shared empty array, a data race between threads that ThreadSanitizer reports.
            guard capacity > 0 else { return [] }
            return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in initialized = fill(buffer) }
        }
    }

    /// String `index`, decoded straight into the string's storage (invalid UTF-8 repaired, as
    /// `String(decoding:as:)` repairs it).
    func string(_ index: Int) throws(IndexError) -> String {
        try decode(index) { capacity, fill in
            guard capacity > 0 else { return "" }
            return String(unsafeUninitializedCapacity: capacity, initializingUTF8With: fill)
        }
    }

    /// Decodes string `index` through `make`, which is given a capacity and the function that
    /// fills a buffer of that capacity and returns how many of its bytes are the string.
    ///
    /// The strings before it in its block matter only for the prefixes they pass on, so their
    /// entries' headers are read first, and each is decoded only as far as the strings after it
    /// keep of it (a block of names often shares little).
    private func decode<Result>(
        _ index: Int, _ make: (_ capacity: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Result
    ) throws(IndexError) -> Result {
        guard index >= 0 && index < count else { throw corrupt("string \(index) of \(count) is out of bounds") }
        let target = index % blockSize
        var position = try start(ofBlock: index / blockSize)
        return try withUnsafeTemporaryAllocation(of: EntryHeader.self, capacity: target + 1) {
            headers throws(IndexError) in
            var previousLength = 0
            for entry in 0...target {
                let header = try self.header(at: position, previousLength: previousLength)
                headers.initializeElement(at: entry, to: header)
                previousLength = header.shared + header.decodedLength
                position = header.coded.upperBound
            }
            // What each string must pass on: the target all of itself, a string before it the
            // prefix that the next string shares and must itself pass on.
            var kept = Int.max
            for entry in stride(from: target, through: 0, by: -1) {
                headers[entry].kept = kept
                kept = min(kept, headers[entry].shared)
            }
            // Every string is built in place over the one before: it keeps that string's prefix.
            var capacity = 0
            for entry in 0...target { capacity = max(capacity, headers[entry].keptLength) }
            return make(capacity) { buffer in
                for entry in 0...target {
                    let header = headers[entry]
                    expand(header, into: buffer, from: min(header.shared, header.keptLength), to: header.keptLength)
                }
                return headers[target].keptLength
            }
        }
    }

    /// An entry of a block: how much it shares with the string before, where its coded rest is,
    /// and how long the rest is decoded.
    private struct EntryHeader {
        var shared: Int
        var coded: Range<Int>
        var decodedLength: Int
        /// How much of the decoded string the strings after it need (`Int.max`: all).
        var kept = Int.max
        /// The length of the string as far as it is kept.
        var keptLength: Int { min(shared + decodedLength, kept) }
    }

    /// Reads the header of the entry at `position`, which follows a string of `previousLength` bytes.
    private func header(at position: Int, previousLength: Int) throws(IndexError) -> EntryHeader {
        let (shared, coded) = try sharedAndCoded(at: position)
        guard shared <= previousLength else { throw corrupt("a string's entry shares too long a prefix") }
        let decodedLength = expansionStarts.withUnsafeBufferPointer { starts in
            entries.bytes(in: coded).reduce(0) { $0 + starts[Int($1) + 1] - starts[Int($1)] }
        }
        return EntryHeader(shared: shared, coded: coded, decodedLength: decodedLength)
    }

    /// How much the entry at `position` shares with the string before it and where its coded
    /// rest is: what passing over an entry needs, without its decoded length.
    func sharedAndCoded(at position: Int) throws(IndexError) -> (shared: Int, coded: Range<Int>) {
        var varints = entries.varints(from: position)
        guard let shared = varints.next(), let length = varints.next(), Int(length) <= entries.count - varints.position
        else { throw corrupt("a string's entry runs past the table") }
        return (Int(shared), varints.position..<varints.position + Int(length))
    }

    /// Writes the decoded rest of `entry` into `buffer` from `start` (where it follows the shared
    /// prefix) up to `end`; `start` and `end` are at most the entry's length.
    private func expand(
        _ entry: EntryHeader, into buffer: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int
    ) {
        guard start < end else { return }
        expansionBytes.withUnsafeBufferPointer { expansions in
            expansionStarts.withUnsafeBufferPointer { starts in
                // Bytes of the decoded rest to skip: those that `start` says are already there.
                var skip = start - entry.shared
                var next = start
                for symbol in entries.bytes(in: entry.coded) {
                    var from = starts[Int(symbol)]
                    let to = starts[Int(symbol) + 1]
                    if skip >= to - from {
                        skip -= to - from
                        continue
                    }
                    from += skip
                    skip = 0
                    while from < to && next < end {
                        buffer[next] = expansions[from]
                        next += 1
                        from += 1
                    }
                    if next == end { return }
                }
            }
        }
    }

    /// The number of the string equal to `string`, or nil when the table does not hold it.
    func index(of string: [UInt8]) throws(IndexError) -> Int? {
        let range = try range(withPrefix: string)
        guard let first = range.first, try bytes(first) == string else { return nil }
        return first
    }

    /// The numbers of `strings` (nil for each the table does not hold), found by one cursor
    /// that moves forward through them in sorted order: strings that lie near one another (keys
    /// that share a prefix) cost a few steps each, not a search each.
    func indices(of strings: [[UInt8]]) throws(IndexError) -> [Int?] {
        var found = [Int?](repeating: nil, count: strings.count)
        let order = strings.indices.sorted { strings[$0].lexicographicallyPrecedes(strings[$1]) }
        guard let first = order.first else { return found }
        var cursor = try Cursor(self, atLeast: strings[first])
        for position in order {
            try cursor.advance(toAtLeast: strings[position])
            if !cursor.isAtEnd && cursor.bytes == strings[position] { found[position] = cursor.number }
        }
        return found
    }

    /// The numbers of the strings that start with `prefix`: a range, since strings are sorted.
    func range(withPrefix prefix: [UInt8]) throws(IndexError) -> Range<Int> {
        var cursor = try Cursor(self, atLeast: prefix)
        let first = cursor.number
        if !cursor.isAtEnd && cursor.bytes.starts(with: prefix) { try cursor.skip(sharing: prefix.count) }
        return first..<cursor.number
    }

    /// The number of the last block whose first string sorts before `key`, searched from block
    /// `lowest` on (`lowest` when none after it does). With `galloping`, the blocks are tried at
    /// `lowest` + 1, 2, 4… before the binary search, so that a search that lands near where it
    /// starts (a skip over a few blocks) decodes a few first strings, not the logarithm of all.
    func lastBlock(before key: [UInt8], from lowest: Int, galloping: Bool) throws(IndexError) -> Int {
        var low = lowest
        var high = blockOffsets.count
        if galloping {
            var step = 1
            while lowest + step < high, try firstString(ofBlock: lowest + step, precedes: key) {
                low = lowest + step + 1
                step *= 2
            }
            high = min(high, lowest + step)
        }
        while low < high {
            let middle = (low + high) / 2
            if try firstString(ofBlock: middle, precedes: key) { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, lowest)
    }

    /// Whether the first string of block `block` sorts before `key`: compared as it is decoded,
    /// up to the first byte that differs.
    private func firstString(ofBlock block: Int, precedes key: [UInt8]) throws(IndexError) -> Bool {
        let header = try header(at: try start(ofBlock: block), previousLength: 0)
        return expansionBytes.withUnsafeBufferPointer { expansions in
            expansionStarts.withUnsafeBufferPointer { starts in
                var compared = 0
                for symbol in entries.bytes(in: header.coded) {
                    for byte in expansions[starts[Int(symbol)]..<starts[Int(symbol) + 1]] {
                        guard compared < key.count else { return false }
                        if byte != key[compared] { return byte < key[compared] }
                        compared += 1
                    }
                }
                return compared < key.count
            }
        }
    }

    /// Where block `block`'s first entry starts in `entries`.
    func start(ofBlock block: Int) throws(IndexError) -> Int {
        let offset = Int(blockOffsets.field(at: 0, of: block) as UInt32)
        guard offset <= entries.count else { throw corrupt("block \(block) starts past the end") }
        return offset
    }

    /// Decodes the entry at `position` into `string`, which holds the string before it in its
    /// block (empty at a block's start) at least as far as the entry shares it, and moves
    /// `position` to the next entry. `previousLength` is the length of the string before.
    func advance(
        _ position: inout Int, _ string: inout [UInt8], previousLength: Int? = nil
    ) throws(IndexError) {
        let header = try header(at: position, previousLength: previousLength ?? string.count)
        string.removeLast(string.count - header.shared)
        string.reserveCapacity(header.shared + header.decodedLength)
        expansionBytes.withUnsafeBufferPointer { expansions in
            expansionStarts.withUnsafeBufferPointer { starts in
                // Byte by byte: an expansion is a few bytes, too short to be worth a copy's call.
                for symbol in entries.bytes(in: header.coded) {
                    for byte in starts[Int(symbol)]..<starts[Int(symbol) + 1] { string.append(expansions[byte]) }
                }
            }
        }
        position = header.coded.upperBound
    }

    func corrupt(_ message: String) -> IndexError { entries.corrupt(message) }
}
