import Foundation

import Spots

/// One section of an index file as the section table describes it.
public struct IndexSection: Sendable {
    /// Four-letter tag: "META", "STRS", "SPOT", ...
    public let name: String
    /// Where the section starts, from the start of the file.
    public let offset: Int
    /// Its length in bytes.
    public let length: Int
    /// The CRC-32 the table records for it.
    public let checksum: UInt32
    let tag: UInt32
}

/// What a spot's selecting tag is: key, value and category, shared by the spots that have it.
public struct SpotKind: Sendable, Equatable {
    /// "amenity" or "tourism".
    public let tagKey: String
    /// The OSM value ("fast_food").
    public let value: String
    /// The category, or nil.
    public let category: Category?
}

/// A box of the packed R-tree, in degrees × 10^7.
public struct TreeBox: Sendable {
    /// Western, southern, eastern and northern edges.
    public let minLongitudeE7, minLatitudeE7, maxLongitudeE7, maxLatitudeE7: Int32
}

/// A loaded index: the file mapped into memory, its header and section table checked.
///
/// Opening reads the header, the section table and the small kind table, so it takes the same
/// time whatever the number of spots. Every offset read from the file is checked against the
/// bounds of its section before it is followed; a damaged or hostile file gives `IndexError`,
/// never a crash or a read outside the file. Section checksums are verified by
/// `verifyChecksums()`, which reads everything.
public final class SpotIndexReader: @unchecked Sendable {
    /// The version of the file format this reader reads (FORMAT.md); it refuses others.
    public static let formatVersion = Int(IndexLayout.version)
    /// The index as the user named it.
    public let file: String
    /// The sections, in table order.
    public let sections: [IndexSection]
    /// How many spots the index holds.
    public let count: Int
    /// The selecting tags of the spots, by kind number.
    public let kinds: [SpotKind]
    /// Children per node of the spatial tree.
    public let nodeSize: Int
    /// Box counts of the tree's levels above the spots, lowest first (the last is the root).
    public let levelCounts: [Int]
    /// The cluster levels, when the build made them (FORMAT.md: optional sections).
    public let clusterLevels: ClusterLevels?
    /// How many distinct name tokens the text index holds.
    public var tokenCount: Int { tokens.count }
    /// The file's size in bytes.
    public var fileSize: Int { mapped.bytes.count }

    private let mapped: MappedFile
    private let strings: StringTable
    /// The string index of the key `name`, when any spot has a name.
    private let nameKey: UInt32?
    private let tokens: StringTable
    let spots: UnsafeRawBufferPointer
    private let attributes: UnsafeRawBufferPointer
    private let refs: UnsafeRawBufferPointer
    private let merged: UnsafeRawBufferPointer
    private let mergedOrder: UnsafeRawBufferPointer
    private let kindListEnds: UnsafeRawBufferPointer
    private let kindLists: UnsafeRawBufferPointer
    let boxes: UnsafeRawBufferPointer
    private let postingBlockSize: Int
    private let postingBlockOffsets: UnsafeRawBufferPointer
    private let postings: UnsafeRawBufferPointer
    private let metadataBytes: UnsafeRawBufferPointer
    private let wordBytes: UnsafeRawBufferPointer

    /// Maps and checks the index at `path`.
    public init(path: String) throws(IndexError) {
        file = path
        let mapped = try MappedFile(path: path)
        self.mapped = mapped
        let header = try IndexHeader(mapped.bytes, file: path)
        sections = header.sections
        func corrupt(_ section: String, _ message: String) -> IndexError {
            IndexError(.corrupt, file: path, section: section, message)
        }
        func section(_ tag: UInt32, recordSize: Int = 1) throws(IndexError) -> UnsafeRawBufferPointer {
            let entry = header.sections.first { $0.tag == tag }!
            guard entry.length % recordSize == 0 else {
                throw corrupt(entry.name, "length \(entry.length) is not a multiple of \(recordSize)")
            }
            return UnsafeRawBufferPointer(rebasing: mapped.bytes[entry.offset..<entry.offset + entry.length])
        }
        spots = try section(IndexLayout.Tag.spots, recordSize: IndexLayout.spotRecordSize)
        count = spots.count / IndexLayout.spotRecordSize
        attributes = try section(IndexLayout.Tag.attributes)
        refs = try section(IndexLayout.Tag.refs, recordSize: IndexLayout.orderEntrySize)
        merged = try section(IndexLayout.Tag.merged, recordSize: IndexLayout.refRecordSize)
        mergedOrder = try section(IndexLayout.Tag.mergedOrder, recordSize: IndexLayout.orderEntrySize)
        guard refs.count / IndexLayout.orderEntrySize == count else { throw corrupt("REFS", "does not list every spot once") }
        guard mergedOrder.count / IndexLayout.orderEntrySize == merged.count / IndexLayout.refRecordSize else {
            throw corrupt("MRGO", "does not list every merged reference once")
        }
        metadataBytes = try section(IndexLayout.Tag.metadata)
        wordBytes = try section(IndexLayout.Tag.words)
        strings = try StringTable(try section(IndexLayout.Tag.strings), file: path, section: "STRS")
        tokens = try StringTable(try section(IndexLayout.Tag.tokens), file: path, section: "TOKN")
        nameKey = try strings.index(of: Array("name".utf8)).map(UInt32.init)

        let postingSection = try section(IndexLayout.Tag.postings)
        guard postingSection.count >= 8, Int(postingSection.load(0) as UInt32) == tokens.count else {
            throw corrupt("POST", "does not hold one list per token")
        }
        postingBlockSize = Int(postingSection.load(4) as UInt32)
        let postingBlocks = postingBlockSize < 1 ? -1 : (tokens.count + postingBlockSize - 1) / postingBlockSize
        guard postingBlocks >= 0, 8 + 4 * postingBlocks <= postingSection.count else {
            throw corrupt("POST", "bad block size, or its block offsets do not fit")
        }
        postingBlockOffsets = UnsafeRawBufferPointer(rebasing: postingSection[8..<8 + 4 * postingBlocks])
        postings = UnsafeRawBufferPointer(rebasing: postingSection[(8 + 4 * postingBlocks)...])

        let kindListSection = try section(IndexLayout.Tag.kindLists)
        let kindCount = kindListSection.count >= 4 ? Int(kindListSection.load(0) as UInt32) : -1
        guard kindCount >= 0, kindCount <= (kindListSection.count - 4) / 4 else {
            throw corrupt("KLST", "does not hold one list per kind")
        }
        kindListEnds = UnsafeRawBufferPointer(rebasing: kindListSection[4..<4 + 4 * kindCount])
        kindLists = UnsafeRawBufferPointer(rebasing: kindListSection[(4 + 4 * kindCount)...])
        guard (kindCount == 0 ? 0 : Int(kindListEnds.load(4 * (kindCount - 1)) as UInt32)) == kindLists.count else {
            throw corrupt("KLST", "the lists do not end at the end of the section")
        }

        let tree = try section(IndexLayout.Tag.tree, recordSize: 4)
        guard tree.count >= 8 else { throw corrupt("TREE", "too short") }
        nodeSize = Int(tree.load(0) as UInt32)
        let levels = Int(tree.load(4) as UInt32)
        guard nodeSize >= 2, levels <= 32, tree.count >= 8 + 4 * levels else { throw corrupt("TREE", "bad node size or level count") }
        var expected = count
        var counts: [Int] = []
        for level in 0..<levels {
            let boxes = Int(tree.load(8 + 4 * level) as UInt32)
            guard boxes == (expected + nodeSize - 1) / nodeSize, boxes > 0 else { throw corrupt("TREE", "level \(level) has \(boxes) boxes") }
            counts.append(boxes)
            expected = boxes
        }
        guard counts.last.map({ $0 == 1 }) ?? (count == 0) else { throw corrupt("TREE", "the tree has no single root") }
        levelCounts = counts
        let boxStart = 8 + 4 * levels + (levels % 2 == 1 ? 4 : 0)
        guard tree.count == boxStart + counts.reduce(0, +) * IndexLayout.boxSize else { throw corrupt("TREE", "length does not match its levels") }
        boxes = UnsafeRawBufferPointer(rebasing: tree[boxStart...])

        let clusterSections = IndexLayout.Tag.clusterLevels.map { tag in header.sections.first { $0.tag == tag } }
        if clusterSections.contains(where: { $0 != nil }) {
            if let missing = clusterSections.firstIndex(where: { $0 == nil }) {
                throw corrupt("section table", "cluster section \(IndexLayout.name(ofTag: IndexLayout.Tag.clusterLevels[missing])) is missing")
            }
            clusterLevels = try ClusterLevels(
                clusters: try section(IndexLayout.Tag.clusters), trees: try section(IndexLayout.Tag.clusterTrees),
                details: try section(IndexLayout.Tag.clusterDetails), members: try section(IndexLayout.Tag.clusterMembers),
                visibility: try section(IndexLayout.Tag.spotVisibility), spotCount: count, spotTreeLevels: counts, file: path)
        } else {
            clusterLevels = nil
        }

        let kindSection = try section(IndexLayout.Tag.kinds, recordSize: IndexLayout.kindRecordSize)
        var kinds: [SpotKind] = []
        // Kinds share their keys and categories: each string is decoded once.
        var decoded: [UInt32: String] = [:]
        let strings = strings
        func string(_ offset: Int) throws(IndexError) -> String? {
            let index: UInt32 = kindSection.load(offset)
            guard index != IndexLayout.noString else { return nil }
            guard Int(index) < strings.count else { throw corrupt("KIND", "a string index is out of bounds") }
            if let known = decoded[index] { return known }
            let string = try strings.string(Int(index))
            decoded[index] = string
            return string
        }
        for offset in stride(from: 0, to: kindSection.count, by: IndexLayout.kindRecordSize) {
            guard let key = try string(offset), let value = try string(offset + 4) else {
                throw corrupt("KIND", "a kind has no key or value")
            }
            var category: Category?
            if let name = try string(offset + 8) {
                guard let known = Category(rawValue: name) else { throw corrupt("KIND", "unknown category") }
                category = known
            }
            kinds.append(SpotKind(tagKey: key, value: value, category: category))
        }
        guard kinds.count == kindCount else { throw corrupt("KLST", "holds \(kindCount) lists for \(kinds.count) kinds") }
        self.kinds = kinds
    }

    /// The build metadata (decoded from JSON on each call).
    public func metadata() throws(IndexError) -> IndexMetadata {
        do {
            return try IndexMetadata.decode(metadataBytes)
        } catch {
            throw corrupt("META", "metadata is not valid JSON of the expected shape")
        }
    }

    /// Folded query words and the categories they name, stored by the build.
    public func categoryWords() throws(IndexError) -> [String: [Category]] {
        var words: [String: [Category]] = [:]
        for line in String(decoding: wordBytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard let name = fields.first, let category = Category(rawValue: String(name)) else {
                throw corrupt("WORD", "a line does not start with a known category")
            }
            for word in fields.dropFirst() { words[String(word), default: []].append(category) }
        }
        return words
    }

    // MARK: Spots

    /// The OSM reference of spot `index`.
    public func ref(at index: Int) throws(IndexError) -> OSMRef {
        let record = recordOffset(index)
        // 48 bits, low 16 first: the id shifted left by 2, and the type in the low 2 bits.
        let packed = Int64(bitPattern: UInt64(spots.load(record + 16) as UInt32) << 32 | UInt64(spots.load(record + 14) as UInt16) << 16) >> 16
        let code = UInt8(packed & 3)
        guard let type = OSMType(rawValue: code) else { throw corrupt("SPOT", "spot \(index) has OSM type \(code)") }
        return OSMRef(type, packed >> 2)
    }

    /// The coordinate of spot `index`.
    public func coordinate(at index: Int) throws(IndexError) -> Coordinate {
        let record = recordOffset(index)
        guard let coordinate = Coordinate(latitudeE7: spots.load(record), longitudeE7: spots.load(record + 4)) else {
            throw corrupt("SPOT", "spot \(index) has an impossible coordinate")
        }
        return coordinate
    }

    /// The kind number of spot `index`: its position in `kinds`.
    public func kindNumber(at index: Int) throws(IndexError) -> Int {
        let number = Int(spots.load(recordOffset(index) + 12) as UInt16)
        guard number < kinds.count else { throw corrupt("SPOT", "spot \(index) has kind \(number) of \(kinds.count)") }
        return number
    }

    /// The kind (selecting tag and category) of spot `index`.
    public func kind(at index: Int) throws(IndexError) -> SpotKind {
        kinds[try kindNumber(at: index)]
    }

    /// The spot at `index` (0 ..< count), decoded.
    public func spot(at index: Int) throws(IndexError) -> Spot {
        let kind = try kind(at: index)
        var spot = Spot(
            ref: try ref(at: index), coordinate: try coordinate(at: index), tagKey: kind.tagKey, kind: kind.value,
            category: kind.category)
        var attributes = try attributeReader(index)
        while !attributes.isAtEnd {
            let key = try string(try varint(&attributes), in: "ATTR")
            let value = try string(try varint(&attributes), in: "ATTR")
            spot.setAttribute(key: key, value: value)
        }
        spot.merged = try mergedRefs(of: index)
        return spot
    }

    /// The `name` of spot `index`, read without decoding its other attributes.
    public func name(at index: Int) throws(IndexError) -> String? {
        var attributes = try attributeReader(index)
        while !attributes.isAtEnd {
            let key = try varint(&attributes)
            let value = try varint(&attributes)
            if key == nameKey { return try string(value, in: "ATTR") }
        }
        return nil
    }

    /// The numbers of the attribute keys of spot `index`, in stored order, without decoding any
    /// string: for a caller that counts keys (a report) and names each number once
    /// (`attributeKey(numbered:)`).
    public func attributeKeyNumbers(at index: Int) throws(IndexError) -> [Int] {
        var attributes = try attributeReader(index)
        var keys: [Int] = []
        while !attributes.isAtEnd {
            keys.append(Int(try varint(&attributes)))
            _ = try varint(&attributes)
        }
        return keys
    }

    /// The attribute key that `attributeKeyNumbers(at:)` gives as `number`.
    public func attributeKey(numbered number: Int) throws(IndexError) -> String {
        try string(UInt32(clamping: number), in: "ATTR")
    }

    private func attributeReader(_ index: Int) throws(IndexError) -> VarintReader {
        let start = Int(spots.load(recordOffset(index) + 8) as UInt32)
        let end = index + 1 < count ? Int(spots.load(recordOffset(index + 1) + 8) as UInt32) : attributes.count
        guard start <= end, end <= attributes.count else { throw corrupt("ATTR", "spot \(index) has attributes out of bounds") }
        return VarintReader(attributes, from: start, to: end)
    }

    /// The index of the spot that holds `ref`: its own, or one merged into it; nil when none.
    /// Binary searches: logarithmic in the number of references.
    public func spotIndex(for ref: OSMRef) throws(IndexError) -> Int? {
        if let own = try search(ref, in: refs, entryRef: { (rank) throws(IndexError) in try self.ref(at: self.spot(atRank: rank)) }) {
            return try spot(atRank: own)
        }
        guard let position = try search(ref, in: mergedOrder, entryRef: { (position) throws(IndexError) in try entryRef(merged, mergedPosition(position)) })
        else { return nil }
        let spot = Int(merged.load(try mergedPosition(position) * IndexLayout.refRecordSize + 12) as UInt32)
        guard spot < count else { throw corrupt("MERG", "reference points past the last spot") }
        return spot
    }

    /// Calls `body` with each spot in the order of its own OSM reference (type, then id), while
    /// `body` returns true.
    public func forEachSpotInReferenceOrder(_ body: (Int) throws -> Bool) throws {
        for rank in 0..<count {
            if try !body(try spot(atRank: rank)) { return }
        }
    }

    /// The position in `order` (entries of 4 bytes) whose reference is `ref`, by binary search.
    private func search(
        _ ref: OSMRef, in order: UnsafeRawBufferPointer, entryRef: (Int) throws(IndexError) -> OSMRef
    ) throws(IndexError) -> Int? {
        var low = 0
        var high = order.count / IndexLayout.orderEntrySize
        while low < high {
            let middle = (low + high) / 2
            if try entryRef(middle) < ref { low = middle + 1 } else { high = middle }
        }
        guard low < order.count / IndexLayout.orderEntrySize, try entryRef(low) == ref else { return nil }
        return low
    }

    /// The spot with reference rank `rank`: the spot at that position in the order of the
    /// spots' own OSM references (REFS).
    public func spot(atRank rank: Int) throws(IndexError) -> Int {
        precondition(rank >= 0 && rank < count, "rank out of range")
        let spot = Int(refs.load(rank * IndexLayout.orderEntrySize) as UInt32)
        guard spot < count else { throw corrupt("REFS", "points past the last spot") }
        return spot
    }

    /// The MERG entry at `position` of the merged reference order (MRGO).
    private func mergedPosition(_ position: Int) throws(IndexError) -> Int {
        let entry = Int(mergedOrder.load(position * IndexLayout.orderEntrySize) as UInt32)
        guard entry < merged.count / IndexLayout.refRecordSize else { throw corrupt("MRGO", "points past the last merged reference") }
        return entry
    }

    /// The references merged into spot `index` (its `merged`), without reading the rest of it.
    public func mergedRefs(of index: Int) throws(IndexError) -> [OSMRef] {
        let entries = merged.count / IndexLayout.refRecordSize
        func spotOf(_ entry: Int) -> Int { Int(merged.load(entry * IndexLayout.refRecordSize + 12) as UInt32) }
        var low = 0
        var high = entries
        while low < high {
            let middle = (low + high) / 2
            if spotOf(middle) < index { low = middle + 1 } else { high = middle }
        }
        var result: [OSMRef] = []
        while low < entries && spotOf(low) == index {
            result.append(try entryRef(merged, low))
            low += 1
        }
        return result
    }

    private func entryRef(_ table: UnsafeRawBufferPointer, _ entry: Int) throws(IndexError) -> OSMRef {
        let offset = entry * IndexLayout.refRecordSize
        let code: UInt8 = table.load(offset + 8)
        guard let type = OSMType(rawValue: code) else { throw corrupt("MERG", "reference has OSM type \(code)") }
        return OSMRef(type, table.load(offset))
    }

    // MARK: Spatial tree

    /// Box `index` of tree level `level` (0 is the level just above the spots).
    public func box(level: Int, index: Int) -> TreeBox {
        precondition(level < levelCounts.count && index < levelCounts[level], "tree box out of range")
        let offset = (levelCounts[..<level].reduce(0, +) + index) * IndexLayout.boxSize
        return TreeBox(
            minLongitudeE7: boxes.load(offset), minLatitudeE7: boxes.load(offset + 4),
            maxLongitudeE7: boxes.load(offset + 8), maxLatitudeE7: boxes.load(offset + 12))
    }

    // MARK: Text

    /// The token numbers whose tokens start with `prefix` (folded UTF-8 bytes): a range, since
    /// tokens are sorted by their bytes.
    public func tokens(withPrefix prefix: [UInt8]) throws(IndexError) -> Range<Int> {
        try tokens.range(withPrefix: prefix)
    }

    /// The spots whose names hold token `token`, as two lists in reference order: those whose
    /// name the token starts, and the others.
    public func postingLists(ofToken token: Int) throws(IndexError) -> (startingName: RankList, others: RankList) {
        precondition(token >= 0 && token < tokens.count, "token out of range")
        var position = Int(postingBlockOffsets.load(4 * (token / postingBlockSize)) as UInt32)
        for _ in 0..<token % postingBlockSize { position = try postingEntry(at: position).end }
        let entry = try postingEntry(at: position)
        return (try rankList(in: postings, entry.starting, section: "POST"), try rankList(in: postings, entry.others, section: "POST"))
    }

    /// Calls `body` with every posting of tokens `tokens` (a range from `tokens(withPrefix:)`),
    /// token by token: the lists of consecutive tokens lie next to each other, so this is one
    /// pass over one stretch of the file. A spot comes once per token that it holds.
    public func forEachPosting(ofTokens tokens: Range<Int>, _ body: (_ spot: Int, _ startsName: Bool) -> Void) throws(IndexError) {
        for token in tokens {
            let lists = try postingLists(ofToken: token)
            var starting = lists.startingName
            while let rank = try starting.next() { body(try spot(atRank: rank), true) }
            var others = lists.others
            while let rank = try others.next() { body(try spot(atRank: rank), false) }
        }
    }

    /// The spots of kind `kind` (a position in `kinds`), in reference order.
    public func kindList(ofKind kind: Int) throws(IndexError) -> RankList {
        precondition(kind >= 0 && kind < kinds.count, "kind out of range")
        let start = kind == 0 ? 0 : Int(kindListEnds.load(4 * (kind - 1)) as UInt32)
        let end = Int(kindListEnds.load(4 * kind) as UInt32)
        guard start <= end, end <= kindLists.count else { throw corrupt("KLST", "list \(kind) is out of bounds") }
        return try rankList(in: kindLists, start..<end, section: "KLST")
    }

    /// The byte ranges of the two rank lists of the token whose entry starts at `position`.
    private func postingEntry(at position: Int) throws(IndexError) -> (starting: Range<Int>, others: Range<Int>, end: Int) {
        var lengths = VarintReader(postings, from: position)
        guard let starting = lengths.next(), let others = lengths.next(),
            Int(starting) + Int(others) <= postings.count - lengths.position
        else { throw corrupt("POST", "a token's lists run past the section") }
        let middle = lengths.position + Int(starting)
        return (lengths.position..<middle, middle..<middle + Int(others), middle + Int(others))
    }

    private func rankList(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>, section: String) throws(IndexError) -> RankList {
        var varints = VarintReader(bytes, from: range.lowerBound, to: range.upperBound)
        guard let count = varints.next(), Int(count) <= range.count else { throw corrupt(section, "a list's length runs past it") }
        return RankList(index: self, varints: varints, count: Int(count), section: section)
    }

    // MARK: Checks

    /// Each section with whether its bytes match its CRC-32.
    public func verifyChecksums() -> [(section: IndexSection, isValid: Bool)] {
        sections.map { section in
            let bytes = UnsafeRawBufferPointer(rebasing: mapped.bytes[section.offset..<section.offset + section.length])
            return (section, CRC32.checksum(bytes) == section.checksum)
        }
    }

    /// Throws for the first section whose bytes do not match its CRC-32: for commands that
    /// read a whole index (export, report) and must not pass on damaged bytes.
    public func requireValidChecksums() throws(IndexError) {
        if let bad = verifyChecksums().first(where: { !$0.isValid }) {
            throw IndexError(.corrupt, file: file, section: bad.section.name, "checksum mismatch")
        }
    }

    private func recordOffset(_ index: Int) -> Int {
        precondition(index >= 0 && index < count, "spot index out of range")
        return index * IndexLayout.spotRecordSize
    }

    private func varint(_ attributes: inout VarintReader) throws(IndexError) -> UInt32 {
        guard let value = attributes.next() else { throw corrupt("ATTR", "a number runs past its spot's attributes") }
        return value
    }

    private func string(_ index: UInt32, in section: String) throws(IndexError) -> String {
        guard Int(index) < strings.count else {
            throw corrupt("STRS", "string \(index), used in \(section), is out of bounds")
        }
        return try strings.string(Int(index))
    }

    func corrupt(_ section: String, _ message: String) -> IndexError {
        IndexError(.corrupt, file: file, section: section, message)
    }
}

/// Spots in the order of their own OSM references, read from a rank list (FORMAT.md): one part
/// of a token's postings, or a kind's spots. `next()` gives reference ranks, ascending;
/// `SpotIndexReader.spot(atRank:)` turns a rank into a spot number.
public struct RankList {
    /// How many ranks are left to read.
    public private(set) var remaining: Int
    private let index: SpotIndexReader
    private var varints: VarintReader
    private var previous = -1
    private let section: String

    init(index: SpotIndexReader, varints: VarintReader, count: Int, section: String) {
        self.index = index
        self.varints = varints
        self.remaining = count
        self.section = section
    }

    /// The next rank, or nil at the end of the list.
    public mutating func next() throws(IndexError) -> Int? {
        guard remaining > 0 else { return nil }
        guard let gap = varints.next(), Int(gap) < index.count - previous - 1 else {
            throw index.corrupt(section, "a list runs past its end or past the last spot")
        }
        previous += Int(gap) + 1
        remaining -= 1
        return previous
    }
}
