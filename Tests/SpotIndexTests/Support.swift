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

    mutating func id() -> Int64 {
        switch int(0...5) {
        case 0: [Int64.min, Int64.max, 0, -1, 1, Int64(UInt32.max) + 1].randomElement(using: &random)!
        case 1: Int64.random(in: Int64.min...Int64.max, using: &random)
        case 2: -Int64.random(in: 1...1_000_000, using: &random)
        default: Int64.random(in: 1...12_000_000_000, using: &random)
        }
    }

    mutating func ref() -> OSMRef { OSMRef(OSMType.allCases.randomElement(using: &random)!, id()) }

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
        if chance(30) { spot.merged = (0..<int(1...4)).map { _ in ref() } }
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
                while used.contains(merged) { merged = ref() }
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
            bboxE7: count == 0 ? nil : [-1_800_000_000, -900_000_000, 1_800_000_000, 900_000_000],
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

/// The sections of an index decoded straight from the bytes as the format lays them out,
/// independently of SpotIndexReader, to check the writer's layout and to aim damage precisely.
struct RawIndex {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// One 24-byte SPOT record.
    struct SpotRecord: Equatable {
        var id: Int64, latitudeE7: Int32, longitudeE7: Int32, attributes: UInt32, kind: UInt16, type: UInt8, reserved: UInt8
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

    /// A string table (STRS or TOKN): the strings' bytes, in order.
    func strings(_ name: String) -> [[UInt8]] {
        let section = section(name)
        let count = Int(bytes.load(UInt32.self, at: section.offset))
        let textStart = section.offset + 4 + 4 * count
        var start = 0
        return (0..<count).map { index in
            let end = Int(bytes.load(UInt32.self, at: section.offset + 4 + 4 * index))
            defer { start = end }
            return Array(bytes[textStart + start..<textStart + end])
        }
    }

    /// The end offsets of a string table's strings.
    func stringEnds(_ name: String) -> [UInt32] {
        let section = section(name)
        let count = Int(bytes.load(UInt32.self, at: section.offset))
        return (0..<count).map { bytes.load(UInt32.self, at: section.offset + 4 + 4 * $0) }
    }

    var spots: [SpotRecord] {
        let section = section("SPOT")
        return stride(from: section.offset, to: section.offset + section.length, by: 24).map { base in
            SpotRecord(
                id: bytes.load(at: base), latitudeE7: bytes.load(at: base + 8), longitudeE7: bytes.load(at: base + 12),
                attributes: bytes.load(at: base + 16), kind: bytes.load(at: base + 20), type: bytes[base + 22], reserved: bytes[base + 23])
        }
    }

    /// The position of the record of the spot whose own reference is `ref`.
    func spotPosition(of ref: OSMRef) -> Int? {
        spots.firstIndex { $0.id == ref.id && $0.type == ref.type.rawValue }
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
    var attributes: [[(key: UInt32, value: UInt32)]] {
        let section = section("ATTR")
        let records = spots
        return records.indices.map { position in
            let start = Int(records[position].attributes)
            let end = position + 1 < records.count ? Int(records[position + 1].attributes) : section.length
            var cursor = start
            func varint() -> UInt32 {
                var value: UInt32 = 0
                var shift: UInt32 = 0
                while true {
                    let byte = bytes[section.offset + cursor]
                    cursor += 1
                    value |= UInt32(byte & 0x7F) << shift
                    if byte & 0x80 == 0 { return value }
                    shift += 7
                }
            }
            var pairs: [(key: UInt32, value: UInt32)] = []
            while cursor < end { pairs.append((varint(), varint())) }
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

    /// The KLST section as the format lays it out: the kind count word, the end of each kind's
    /// list (in entries), and the spot numbers of all the lists.
    struct KindLists {
        var count: UInt32
        var ends: [UInt32]
        var spots: [UInt32]
        /// The lists, one per end, cut at the ends (which must be in order and within `spots`).
        var lists: [[UInt32]] {
            var start = 0
            return ends.map { end in
                defer { start = Int(end) }
                return Array(spots[start..<Int(end)])
            }
        }
    }

    /// The KLST section, read with the count word it states (the rest after the ends is spot numbers).
    var kindLists: KindLists {
        let section = section("KLST")
        let count = bytes.load(UInt32.self, at: section.offset)
        let ends = (0..<Int(count)).map { bytes.load(UInt32.self, at: section.offset + 4 + 4 * $0) }
        let spots = stride(from: section.offset + 4 + 4 * Int(count), to: section.offset + section.length, by: 4).map {
            bytes.load(UInt32.self, at: $0)
        }
        return KindLists(count: count, ends: ends, spots: spots)
    }

    /// The sections' contents, in table order.
    var sectionContents: [(name: String, bytes: [UInt8])] {
        bytes.rawSections.map { ($0.name, Array(bytes[$0.range])) }
    }

    /// A whole index file built from `sections` as the format lays it out: header, section table,
    /// each section 8-byte aligned with zlib's CRC, the header's CRC and size. Lets a test give a
    /// section another length without upsetting the header, so that only the section's own
    /// consistency is in question.
    static func assemble(_ sections: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var file: [UInt8] = [0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A] + [UInt8](repeating: 0, count: 24)
        file.store(UInt32(1), at: 8)
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

    /// The posting lists, one per token: raw values, spot index with the top bit for "starts a name".
    var postings: [[UInt32]] {
        let section = section("POST")
        let count = Int(bytes.load(UInt32.self, at: section.offset))
        let listStart = section.offset + 4 + 4 * count
        var start = 0
        return (0..<count).map { token in
            let end = Int(bytes.load(UInt32.self, at: section.offset + 4 + 4 * token))
            defer { start = end }
            return (start..<end).map { bytes.load(UInt32.self, at: listStart + 4 * $0) }
        }
    }
}
