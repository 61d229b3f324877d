import SeededRandom
import CZlib
import Foundation
import SpotIndex
import Spots


/// Random spots and metadata covering the awkward corners of the format.
struct SpotFactory {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Pieces that random strings are made of: quotes, backslashes, control characters, line breaks,
    /// NUL, emoji, CJK, right-to-left text. No combining marks, so that no two distinct random strings
    /// are canonically equivalent.
    static let fragments = [
        "a", "Café", "\"", "'", "\\", "\n", "\r\n", "\r", "\t", "\u{0001}", "\u{001F}", "\u{007F}", "\u{0000}", ",",
        ";", "=", ":", " ", "日本語", "姫路城", "🏳️‍🌈", "👍🏽", "😀", "مقهى", "Ωμέγα", "\u{2028}", "\u{FEFF}", "{}", "[]",
        "null", "0", "-1",
    ]
    static let languages = ["ja", "zh-Hant", "en", "fi", "sv", "de_CH", "ar", "ko-Latn", "fil", "zh_pinyin"]
    static let addressKeys = ["street", "housenumber", "city", "postcode", "country", "full", "place", "unit", "floor", "street:name", "ä"]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func string(maxPieces: Int = 4) -> String {
        (0..<int(0...maxPieces)).map { _ in Self.fragments.randomElement(using: &random)! }.joined()
    }

    /// A random id, often at the edges: of `SpotIndexWriter.storableIDs` when `storable` (a spot's
    /// own id, which a SPOT record packs into 46 bits), else of Int64 (a merged reference, which
    /// MERG stores in 8 bytes).
    mutating func id(storable: Bool = true) -> Int64 {
        let bounds = storable ? SpotIndexWriter.storableIDs : Int64.min...Int64.max
        return switch int(0...5) {
        case 0: [bounds.lowerBound, bounds.upperBound, 0, -1, 1, Int64(UInt32.max) + 1].randomElement(using: &random)!
        case 1: Int64.random(in: bounds, using: &random)
        case 2: -Int64.random(in: 1...1_000_000, using: &random)
        default: Int64.random(in: 1...12_000_000_000, using: &random)
        }
    }

    mutating func ref(storable: Bool = true) -> OSMRef { OSMRef(OSMType.allCases.randomElement(using: &random)!, id(storable: storable)) }

    mutating func coordinate() -> Coordinate {
        let latitudes: [Int32] = [900_000_000, -900_000_000, 0, 1, -1]
        let longitudes: [Int32] = [1_800_000_000, -1_800_000_000, 0, 1, -1]
        let lat = chance(25) ? latitudes.randomElement(using: &random)! : Int32.random(in: -900_000_000...900_000_000, using: &random)
        let lon = chance(25) ? longitudes.randomElement(using: &random)! : Int32.random(in: -1_800_000_000...1_800_000_000, using: &random)
        return Coordinate(latitudeE7: lat, longitudeE7: lon)!
    }

    mutating func spot() -> Spot {
        var spot = Spot(
            ref: ref(), coordinate: coordinate(),
            tagKey: chance(80) ? ["amenity", "tourism"].randomElement(using: &random)! : string(),
            kind: chance(70) ? ["cafe", "hotel", "fast_food", "bench", ""].randomElement(using: &random)! : string(),
            category: chance(20) ? nil : Category.allCases.randomElement(using: &random)!)
        if chance(80) { spot.name = string() }
        for _ in 0..<int(0...3) { spot.names[Self.languages.randomElement(using: &random)!] = string() }
        for _ in 0..<int(0...4) { spot.address[Self.addressKeys.randomElement(using: &random)!] = string() }
        for _ in 0..<int(0...3) { spot.details[Spot.Detail.allCases.randomElement(using: &random)!] = string(maxPieces: 6) }
        if chance(15) { spot.otherNames[Spot.otherNameKeys.sorted().randomElement(using: &random)!] = string() }
        if chance(30) { spot.merged = (0..<int(1...4)).map { _ in ref(storable: false) } }
        return spot
    }

    /// `count` random spots whose references, own and merged, are all distinct and not in
    /// `excluding`: the index maps every reference to one spot, so a reference must name one.
    mutating func uniqueSpots(_ count: Int, excluding: Set<OSMRef> = []) -> [Spot] {
        var used = excluding
        return (0..<count).map { _ in
            var spot = spot()
            while used.contains(spot.ref) { spot.ref = ref() }
            used.insert(spot.ref)
            spot.merged = spot.merged.map { merged in
                var merged = merged
                while used.contains(merged) { merged = ref(storable: false) }
                used.insert(merged)
                return merged
            }
            return spot
        }
    }

    /// Random category words, folded as the build folds them (`SearchText.words`), each naming 1 to 3 categories.
    mutating func categoryWords() -> [String: [Category]] {
        var words: [String: [Category]] = [:]
        for _ in 0..<int(0...6) {
            guard let word = SearchText.words(string(maxPieces: 3)).first else { continue }
            words[word] = (0..<int(1...3)).map { _ in Category.allCases.randomElement(using: &random)! }
        }
        return words
    }

    mutating func metadata(count: Int) -> IndexMetadata {
        IndexMetadata(
            generator: "spots 0.1.0 " + string(), buildTime: chance(50) ? "2021-04-01T00:00:00Z" : nil,
            inputs: (0..<int(0...3)).map { _ in IndexMetadata.Input(name: string() + ".osm.gz", bytes: int(0...Int(Int32.max))) },
            bbox: count == 0 ? nil : .world,
            statistics: ["nodes": int(0...1_000_000), "deleted_elements": int(0...10), "spots": count, "xml_bytes": Int(UInt32.max) * 3])
    }
}

/// A file in a fresh temporary directory, removed when `body` returns.
func withTemporaryFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SpotIndexTests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("test.spots")
    try Data(bytes).write(to: url)
    return try body(url.path)
}

/// One scratch file, rewritten for each of many damaged variants: `body` gets a function that
/// replaces the file's contents and returns its path.
func withScratchFile<T>(_ body: ((_ bytes: [UInt8]) throws -> String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SpotIndexTests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("scratch.spots").path
    return try body { bytes in
        // Plain POSIX calls: thousands of variants are written, and Foundation's writes cost more.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return path
    }
}

/// The error opening `bytes` as an index throws, or nil when it opens.
func openingError(_ bytes: [UInt8]) throws -> IndexError? {
    try withTemporaryFile(bytes) { path -> IndexError? in
        do throws(IndexError) {
            _ = try SpotIndexReader(path: path)
            return nil
        } catch {
            return error
        }
    }
}

/// The IndexError `body` throws reading the index `bytes` (which must open), or nil when it
/// throws none; any other error is rethrown.
func readingError(_ bytes: [UInt8], _ body: (SpotIndexReader) throws -> Void) throws -> IndexError? {
    try withoutActuallyEscaping(body) { body in try readingErrors(bytes, [body])[0] }
}

/// The IndexError each of `bodies` throws reading the index `bytes` (which must open, once), or
/// nil for those that throw none; any other error is rethrown.
func readingErrors(_ bytes: [UInt8], _ bodies: [(SpotIndexReader) throws -> Void]) throws -> [IndexError?] {
    try withTemporaryFile(bytes) { path -> [IndexError?] in
        let reader = try SpotIndexReader(path: path)
        return try bodies.map { body -> IndexError? in
            do {
                try body(reader)
                return nil
            } catch let error as IndexError {
                return error
            }
        }
    }
}

/// The section table as the format describes it, read independently of SpotIndexReader.
struct RawSection {
    var name: String
    var entryOffset: Int
    var offset: Int
    var length: Int
    var checksum: UInt32
    var range: Range<Int> { offset..<offset + length }
}

extension Array where Element == UInt8 {
    func load<T: FixedWidthInteger>(_ type: T.Type = T.self, at offset: Int) -> T {
        var value: T = 0
        for i in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(truncatingIfNeeded: self[offset + i]) }
        return value
    }

    mutating func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        for i in 0..<MemoryLayout<T>.size { self[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }

    var rawSections: [RawSection] {
        let count = Int(load(UInt32.self, at: 12))
        return (0..<count).map { entry in
            let base = 32 + 32 * entry
            let tag = self[base..<base + 4]
            return RawSection(
                name: String(decoding: tag, as: UTF8.self), entryOffset: base, offset: Int(load(UInt64.self, at: base + 8)),
                length: Int(load(UInt64.self, at: base + 16)), checksum: load(UInt32.self, at: base + 24))
        }
    }

    func section(_ name: String) -> RawSection { rawSections.first { $0.name == name }! }

    /// The bytes of section `name`.
    func contents(of name: String) -> [UInt8] { Array(self[section(name).range]) }
}

/// zlib's CRC-32 of `bytes`, continuing from `crc`: the reference the format names.
func zlibCRC32<C: Collection>(_ bytes: C, continuing crc: UInt32 = 0) -> UInt32 where C.Element == UInt8 {
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { buffer in
        UInt32(truncatingIfNeeded: crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
    }
}

extension Array where Element == UInt8 {
    /// Recomputes the header checksum (bytes 0..<24, then the section table) with zlib, so that a
    /// patched header passes the checksum and the reader has to find what else is wrong.
    mutating func resealHeader() {
        let count = Int(load(UInt32.self, at: 12))
        let tableEnd = Swift.min(self.count, 32 + 32 * count)
        let crc = zlibCRC32(self[32..<Swift.max(32, tableEnd)], continuing: zlibCRC32(self[0..<24]))
        store(crc, at: 24)
    }

    /// Recomputes a section's recorded checksum with zlib, then reseals the header.
    mutating func resealSection(_ name: String) {
        let section = section(name)
        store(zlibCRC32(self[section.range]), at: section.entryOffset + 24)
        resealHeader()
    }
}

/// What `categoryWords()` gives back for words written as `words`: each list sorted by name.
func storedCategoryWords(_ words: [String: [Category]]) -> [String: [Category]] {
    words.mapValues { $0.sorted { $0.rawValue < $1.rawValue } }
}

// MARK: Encodings, written from FORMAT.md independently of the writer

/// Little-endian 32-bit words.
func le32(_ values: [UInt32]) -> [UInt8] { values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } } }

/// Little-endian 32-bit words.
func le32(_ values: UInt32...) -> [UInt8] { le32(values) }

/// `value` as an unsigned LEB128 varint.
func varint(_ value: Int) -> [UInt8] {
    precondition(value >= 0 && value <= Int(UInt32.max))
    var bytes: [UInt8] = []
    var rest = value
    repeat {
        bytes.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
        rest >>= 7
    } while rest > 0
    return bytes
}

/// Strictly ascending `ranks` as a rank list: the count, the first rank, then each gap less 1.
func rankList(_ ranks: [Int]) -> [UInt8] {
    var previous = -1
    return varint(ranks.count) + ranks.flatMap { rank in
        defer { previous = rank }
        return varint(rank - previous - 1)
    }
}

/// A departure from FORMAT.md found by the tests' own decoder.
struct FormatViolation: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads the encodings of FORMAT.md from bytes, never past `end`, throwing `FormatViolation`
/// where they are broken.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], from position: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = position
        self.end = end ?? bytes.count
    }

    var isAtEnd: Bool { position == end }

    /// An unsigned LEB128 varint of at most 32 bits.
    mutating func varint() throws -> Int {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            guard position < end else { throw FormatViolation("a varint at \(position) runs past \(end)") }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 {
                guard value <= UInt64(UInt32.max) else { throw FormatViolation("a varint at \(position) is over 32 bits") }
                return Int(value)
            }
        }
        throw FormatViolation("a varint at \(position) is longer than 5 bytes")
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= end - position else { throw FormatViolation("\(count) bytes at \(position) run past \(end)") }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// A little-endian 32-bit word.
    mutating func word() throws -> UInt32 { try take(4).load(at: 0) }
}

/// Decodes a rank list that fills `bytes` exactly; its ranks ascend strictly by construction.
func decodeRankList(_ bytes: [UInt8]) throws -> [Int] {
    var cursor = ByteCursor(bytes)
    let count = try cursor.varint()
    var ranks: [Int] = []
    var previous = -1
    for _ in 0..<count {
        previous += try cursor.varint() + 1
        ranks.append(previous)
    }
    guard cursor.isAtEnd else { throw FormatViolation("a rank list of \(count) ranks has \(bytes.count - cursor.position) bytes left over") }
    return ranks
}

/// A string table (STRS, TOKN) split into the parts FORMAT.md names. Its fields can be changed
/// and `encoded` again to make hostile tables.
struct RawStringTable {
    /// A code and the two symbols it stands for.
    struct Pair: Equatable {
        var code, left, right: UInt8
    }

    /// One string's entry: the bytes it shares with the string before, its length and its coded bytes.
    struct Entry: Equatable {
        var shared: Int
        var length: Int
        var coded: [UInt8]
        var encoded: [UInt8] { varint(shared) + varint(length) + coded }
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
        guard blockSize >= 1, pairCount <= 256 else { throw FormatViolation("block size \(blockSize), \(pairCount) pairs") }
        pairs = try (0..<Int(pairCount)).map { _ in
            let pair = try cursor.take(3)
            return Pair(code: pair[0], left: pair[1], right: pair[2])
        }
        padding = try cursor.take((4 - cursor.position % 4) % 4)
        let blocks = (Int(count) + Int(blockSize) - 1) / Int(blockSize)
        blockOffsets = try (0..<blocks).map { _ in try cursor.word() }
        entryBytes = try cursor.take(section.count - cursor.position)
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
        setEntries(strings.indices.map { index in
            let shared = index % blockSize == 0 ? 0 : zip(strings[index - 1], strings[index]).prefix { $0 == $1 }.count
            return Entry(shared: shared, length: strings[index].count - shared, coded: Array(strings[index][shared...]))
        })
    }

    /// The section these parts make: the header, the pairs, zero padding, offsets and entries.
    var encoded: [UInt8] {
        var bytes = le32(count, blockSize, pairCount) + pairs.flatMap { [$0.code, $0.left, $0.right] }
        bytes += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        return bytes + le32(blockOffsets) + entryBytes
    }

    /// The entries, read one after another from the start: exactly `count` of them, filling the
    /// entry bytes.
    func entries() throws -> [Entry] {
        var cursor = ByteCursor(entryBytes)
        let entries = try (0..<Int(count)).map { _ in
            let shared = try cursor.varint()
            let length = try cursor.varint()
            return Entry(shared: shared, length: length, coded: try cursor.take(length))
        }
        guard cursor.isAtEnd else { throw FormatViolation("\(entryBytes.count - cursor.position) bytes after the last entry") }
        return entries
    }

    /// Where each entry starts, in bytes from the start of the entries.
    func entryOffsets() throws -> [UInt32] {
        var offset = 0
        return try entries().map { entry in
            defer { offset += entry.encoded.count }
            return UInt32(offset)
        }
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
            guard expansions[pair.code] == nil else { throw FormatViolation("pair \(number) defines code \(pair.code) again") }
            for symbol in [pair.left, pair.right] where expansions[symbol] == nil && laterCodes.contains(symbol) {
                throw FormatViolation("pair \(number) uses \(symbol), a code defined later or by itself")
            }
            let expansion = (expansions[pair.left] ?? [pair.left]) + (expansions[pair.right] ?? [pair.right])
            guard expansion.count <= 64 else { throw FormatViolation("code \(pair.code) stands for \(expansion.count) bytes") }
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
            guard entry.shared <= limit else { throw FormatViolation("string \(index) shares \(entry.shared) bytes of \(limit)") }
            previous = Array(previous.prefix(entry.shared)) + entry.coded.flatMap { expansions[$0] ?? [$0] }
            return previous
        }
    }
}

/// The POST section split into its parts: token count, block size, block offsets, entries.
struct RawPostings {
    /// One token's entry: the byte lengths it states, and the bytes of its two rank lists.
    struct Entry: Equatable {
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
            self.init(startingLength: startingBytes.count, othersLength: othersBytes.count, starting: startingBytes, others: othersBytes)
        }

        init(startingLength: Int, othersLength: Int, starting: [UInt8], others: [UInt8]) {
            self.startingLength = startingLength
            self.othersLength = othersLength
            self.starting = starting
            self.others = others
        }

        /// The two rank lists, decoded.
        func lists() throws -> (starting: [Int], others: [Int]) { (try decodeRankList(starting), try decodeRankList(others)) }
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
        guard blockSize >= 1 else { throw FormatViolation("block size 0") }
        let blocks = (Int(count) + Int(blockSize) - 1) / Int(blockSize)
        blockOffsets = try (0..<blocks).map { _ in try cursor.word() }
        entryBytes = try cursor.take(section.count - cursor.position)
    }

    /// The section of `entries` in blocks of `blockSize`, its block offsets where each block's
    /// first entry starts.
    init(entries: [Entry], blockSize: Int = 16) {
        count = UInt32(entries.count)
        self.blockSize = UInt32(blockSize)
        blockOffsets = []
        entryBytes = []
        for (index, entry) in entries.enumerated() {
            if index % blockSize == 0 { blockOffsets.append(UInt32(entryBytes.count)) }
            entryBytes += entry.encoded
        }
    }

    var encoded: [UInt8] { le32([count, blockSize] + blockOffsets) + entryBytes }

    /// The entries, read one after another: exactly `count`, filling the entry bytes.
    func entries() throws -> [(offset: Int, entry: Entry)] {
        var cursor = ByteCursor(entryBytes)
        let entries = try (0..<Int(count)).map { _ in
            let offset = cursor.position
            let startingLength = try cursor.varint()
            let othersLength = try cursor.varint()
            let entry = Entry(
                startingLength: startingLength, othersLength: othersLength, starting: try cursor.take(startingLength),
                others: try cursor.take(othersLength))
            return (offset, entry)
        }
        guard cursor.isAtEnd else { throw FormatViolation("\(entryBytes.count - cursor.position) bytes after the last entry") }
        return entries
    }
}

/// The KLST section split into its parts: kind count, list ends, the lists' bytes.
struct RawKindLists {
    var count: UInt32
    var ends: [UInt32]
    var listBytes: [UInt8]

    /// Splits a section into its parts, as its count word says.
    init(_ section: [UInt8]) throws {
        var cursor = ByteCursor(section)
        count = try cursor.word()
        ends = try (0..<Int(count)).map { _ in try cursor.word() }
        listBytes = try cursor.take(section.count - cursor.position)
    }

    /// The section of the rank lists `lists`, one per kind.
    init(lists: [[Int]]) {
        self.init(listBytes: lists.map(rankList))
    }

    /// The section of these encoded lists, one per kind, the ends where each one ends.
    init(listBytes lists: [[UInt8]]) {
        count = UInt32(lists.count)
        listBytes = lists.flatMap { $0 }
        var end = 0
        ends = lists.map { list in
            end += list.count
            return UInt32(end)
        }
    }

    var encoded: [UInt8] { le32([count] + ends) + listBytes }

    /// Each kind's list of ranks: the ends ascend, the last is the lists' length, each list is
    /// one rank list filling its bytes.
    func lists() throws -> [[Int]] {
        guard Int(ends.last ?? 0) == listBytes.count else { throw FormatViolation("the last end is not the lists' length") }
        var start = 0
        return try ends.map { end in
            guard Int(end) >= start else { throw FormatViolation("a list ends at \(end), before its start \(start)") }
            defer { start = Int(end) }
            return try decodeRankList(Array(listBytes[start..<Int(end)]))
        }
    }
}

// MARK: Whole files

/// The sections of an index decoded straight from the bytes as the format lays them out,
/// independently of SpotIndexReader, to check the writer's layout and to aim damage precisely.
struct RawIndex {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// One 20-byte SPOT record.
    struct SpotRecord: Equatable {
        var latitudeE7: Int32, longitudeE7: Int32, attributes: UInt32, kind: UInt16
        /// The reference's low 16 bits and high 32 bits.
        var referenceLow: UInt16, referenceHigh: UInt32

        /// The 48-bit reference, id × 4 + type, sign-extended from bit 47.
        var packedReference: Int64 {
            let unsigned = (Int64(referenceHigh) << 16) + Int64(referenceLow)
            return unsigned >= (1 << 47) ? unsigned - (1 << 48) : unsigned
        }
        var id: Int64 { packedReference >> 2 }
        var typeCode: UInt8 { UInt8(packedReference & 3) }
        var ref: OSMRef? { OSMType(rawValue: typeCode).map { OSMRef($0, id) } }
    }

    /// One 16-byte MERG record.
    struct RefRecord: Equatable {
        var id: Int64, type: UInt8, reserved: [UInt8], spot: UInt32
        var ref: OSMRef? { OSMType(rawValue: type).map { OSMRef($0, id) } }
    }

    /// One 12-byte KIND record: string indices of key, value and category (or UInt32.max).
    struct KindRecord: Equatable {
        var key: UInt32, value: UInt32, category: UInt32
    }

    /// The TREE section: node size, box counts by level, and the boxes as [minLon, minLat, maxLon, maxLat].
    struct Tree {
        var nodeSize: Int
        var levelCounts: [Int]
        var padding: [UInt8]
        var boxes: [[[Int32]]]
    }

    func section(_ name: String) -> RawSection { bytes.section(name) }

    /// The bytes of section `name`.
    func contents(_ name: String) -> [UInt8] { bytes.contents(of: name) }

    /// A string table (STRS or TOKN), split into its parts.
    func stringTable(_ name: String) throws -> RawStringTable { try RawStringTable(contents(name)) }

    /// A string table's strings, decoded.
    func strings(_ name: String) throws -> [[UInt8]] { try stringTable(name).strings() }

    /// The POST section, split into its parts.
    func postingSection() throws -> RawPostings { try RawPostings(contents("POST")) }

    /// The KLST section, split into its parts.
    func kindListSection() throws -> RawKindLists { try RawKindLists(contents("KLST")) }

    var spots: [SpotRecord] {
        let section = section("SPOT")
        return stride(from: section.offset, to: section.offset + section.length, by: 20).map { base in
            SpotRecord(
                latitudeE7: bytes.load(at: base), longitudeE7: bytes.load(at: base + 4), attributes: bytes.load(at: base + 8),
                kind: bytes.load(at: base + 12), referenceLow: bytes.load(at: base + 14), referenceHigh: bytes.load(at: base + 16))
        }
    }

    /// The position of the record of the spot whose own reference is `ref`.
    func spotPosition(of ref: OSMRef) -> Int? {
        spots.firstIndex { $0.ref == ref }
    }

    /// The MERG records: each merged reference with the spot it was merged into.
    var merged: [RefRecord] {
        let section = section("MERG")
        return stride(from: section.offset, to: section.offset + section.length, by: 16).map { base in
            RefRecord(id: bytes.load(at: base), type: bytes[base + 8], reserved: Array(bytes[base + 9..<base + 12]), spot: bytes.load(at: base + 12))
        }
    }

    /// A table of 32-bit numbers (REFS: spot numbers in reference order; MRGO: MERG positions in reference order).
    func numbers(_ name: String) -> [UInt32] {
        let section = section(name)
        return stride(from: section.offset, to: section.offset + section.length, by: 4).map { bytes.load(UInt32.self, at: $0) }
    }

    var kinds: [KindRecord] {
        let section = section("KIND")
        return stride(from: section.offset, to: section.offset + section.length, by: 12).map { base in
            KindRecord(key: bytes.load(at: base), value: bytes.load(at: base + 4), category: bytes.load(at: base + 8))
        }
    }

    /// Each spot's attributes as (key, value) string indices, decoding the LEB128 varints of ATTR.
    func attributes() throws -> [[(key: UInt32, value: UInt32)]] {
        let attributes = contents("ATTR")
        let records = spots
        return try records.indices.map { position in
            let end = position + 1 < records.count ? Int(records[position + 1].attributes) : attributes.count
            var cursor = ByteCursor(attributes, from: Int(records[position].attributes), to: end)
            var pairs: [(key: UInt32, value: UInt32)] = []
            while !cursor.isAtEnd { pairs.append((UInt32(try cursor.varint()), UInt32(try cursor.varint()))) }
            return pairs
        }
    }

    var tree: Tree {
        let section = section("TREE")
        let levels = Int(bytes.load(UInt32.self, at: section.offset + 4))
        let counts = (0..<levels).map { Int(bytes.load(UInt32.self, at: section.offset + 8 + 4 * $0)) }
        let paddingStart = section.offset + 8 + 4 * levels
        var cursor = paddingStart + (levels % 2 == 1 ? 4 : 0)
        let boxes = counts.map { count in
            (0..<count).map { _ in
                defer { cursor += 16 }
                return (0..<4).map { bytes.load(Int32.self, at: cursor + 4 * $0) }
            }
        }
        return Tree(
            nodeSize: Int(bytes.load(UInt32.self, at: section.offset)), levelCounts: counts,
            padding: Array(bytes[paddingStart..<paddingStart + (levels % 2 == 1 ? 4 : 0)]), boxes: boxes)
    }

    /// The sections' contents, in table order.
    var sectionContents: [(name: String, bytes: [UInt8])] {
        bytes.rawSections.map { ($0.name, Array(bytes[$0.range])) }
    }

    /// A whole index file built from `sections` as the format lays it out: header (format
    /// `version`), section table, each section 8-byte aligned with zlib's CRC, the header's CRC and
    /// size. Lets a test give a section another length without upsetting the header, so that
    /// only the section's own consistency is in question.
    static func assemble(_ sections: [(name: String, bytes: [UInt8])], version: UInt32 = 2) -> [UInt8] {
        var file: [UInt8] = [0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A] + [UInt8](repeating: 0, count: 24)
        file.store(version, at: 8)
        file.store(UInt32(sections.count), at: 12)
        var offset = 32 + 32 * sections.count
        var table: [UInt8] = []
        for section in sections {
            offset = (offset + 7) / 8 * 8
            var entry = [UInt8](repeating: 0, count: 32)
            entry.replaceSubrange(0..<4, with: Array(section.name.utf8))
            entry.store(UInt64(offset), at: 8)
            entry.store(UInt64(section.bytes.count), at: 16)
            entry.store(zlibCRC32(section.bytes), at: 24)
            table += entry
            offset += section.bytes.count
        }
        file += table
        for section in sections {
            file += [UInt8](repeating: 0, count: (8 - file.count % 8) % 8)
            file += section.bytes
        }
        file.store(UInt64(file.count), at: 16)
        file.resealHeader()
        return file
    }

    /// These sections with section `name`'s contents replaced by `contents`, reassembled.
    func replacing(_ name: String, with contents: [UInt8]) -> [UInt8] {
        RawIndex.assemble(sectionContents.map { $0.name == name ? ($0.name, contents) : $0 })
    }
}

// MARK: What an index must hold

/// What the index of some spots must hold, worked out from the spots alone as FORMAT.md
/// describes it, to compare with what the writer wrote and what the reader reads.
struct ExpectedIndex {
    /// The spots' own references, ascending: the reference of each rank.
    let refs: [OSMRef]
    /// Each reference's rank.
    let rankOf: [OSMRef: Int]
    /// STRS: every distinct string of the kinds and attributes, sorted by bytes.
    let strings: [[UInt8]]
    /// TOKN: every distinct token of every name, sorted by bytes.
    let tokens: [[UInt8]]
    /// POST: for each token (in `tokens` order), the ranks of the spots one of whose names it
    /// starts, and of the others, ascending.
    let postings: [(starting: [Int], others: [Int])]
    /// KLST: for each selecting tag (key, value, category name), its spots' ranks, ascending.
    let kindRanks: [[[UInt8]]: [Int]]

    init(_ spots: [Spot]) {
        refs = spots.map(\.ref).sorted()
        rankOf = Dictionary(uniqueKeysWithValues: refs.enumerated().map { ($1, $0) })
        var strings: Set<[UInt8]> = []
        var tokenStarts: [[UInt8]: [Int: Bool]] = [:]
        var kindRanks: [[[UInt8]]: [Int]] = [:]
        for spot in spots {
            let rank = rankOf[spot.ref]!
            let category = spot.category.map { Array($0.rawValue.utf8) }
            strings.formUnion([Array(spot.tagKey.utf8), Array(spot.kind.utf8)] + [category].compactMap { $0 })
            for tag in spot.attributeTags { strings.formUnion([Array(tag.key.utf8), Array(tag.value.utf8)]) }
            for name in spot.allNames {
                for (token, startsName) in SearchText.tokens(ofName: name) {
                    tokenStarts[Array(token.utf8), default: [:]][rank, default: false] = tokenStarts[Array(token.utf8)]?[rank] == true || startsName
                }
            }
            kindRanks[Self.kindKey(spot.tagKey, spot.kind, spot.category?.rawValue), default: []].append(rank)
        }
        self.strings = strings.sorted { $0.lexicographicallyPrecedes($1) }
        tokens = tokenStarts.keys.sorted { $0.lexicographicallyPrecedes($1) }
        postings = tokens.map { token in
            let spots = tokenStarts[token]!
            return (spots.filter(\.value).map(\.key).sorted(), spots.filter { !$0.value }.map(\.key).sorted())
        }
        self.kindRanks = kindRanks.mapValues { $0.sorted() }
    }

    /// How `kindRanks` names a selecting tag: the bytes of its key, value and category (empty for none).
    static func kindKey(_ key: String, _ value: String, _ category: String?) -> [[UInt8]] {
        [Array(key.utf8), Array(value.utf8), category.map { [0x01] + Array($0.utf8) } ?? []]
    }

    /// The POST section FORMAT.md prescribes for these spots, in blocks of `blockSize` tokens,
    /// encoded by the tests.
    func encodedPostings(blockSize: Int = 16) -> [UInt8] {
        RawPostings(entries: postings.map { RawPostings.Entry(starting: $0.starting, others: $0.others) }, blockSize: blockSize).encoded
    }
}

extension RankList {
    /// The ranks left in the list, read to its end.
    mutating func drain() throws(IndexError) -> [Int] {
        var ranks: [Int] = []
        while let rank = try next() { ranks.append(rank) }
        return ranks
    }
}

extension SpotIndexReader {
    /// Both posting lists of `token`, read to their ends.
    func postingRanks(ofToken token: Int) throws(IndexError) -> (starting: [Int], others: [Int]) {
        var lists = try postingLists(ofToken: token)
        return (try lists.startingName.drain(), try lists.others.drain())
    }

    /// The ranks of kind `kind`'s spots, read to the end of its list.
    func kindRanks(ofKind kind: Int) throws(IndexError) -> [Int] {
        var list = try kindList(ofKind: kind)
        return try list.drain()
    }

    /// Each `forEachPosting` call for `tokens`, in order.
    func allPostings(ofTokens tokens: Range<Int>) throws(IndexError) -> [(spot: Int, startsName: Bool)] {
        var postings: [(spot: Int, startsName: Bool)] = []
        try forEachPosting(ofTokens: tokens) { postings.append(($0, $1)) }
        return postings
    }
}
