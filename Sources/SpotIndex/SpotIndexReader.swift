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
    /// How many distinct name tokens the text index holds.
    public var tokenCount: Int { tokens.count }
    /// The file's size in bytes.
    public var fileSize: Int { mapped.bytes.count }

    private let mapped: MappedFile
    private let strings: StringTable
    private let tokens: StringTable
    private let spots: UnsafeRawBufferPointer
    private let attributes: UnsafeRawBufferPointer
    private let refs: UnsafeRawBufferPointer
    private let merged: UnsafeRawBufferPointer
    private let mergedOrder: UnsafeRawBufferPointer
    private let kindListEnds: UnsafeRawBufferPointer
    private let kindListSpots: UnsafeRawBufferPointer
    private let boxes: UnsafeRawBufferPointer
    private let postingEnds: UnsafeRawBufferPointer
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

        let postingSection = try section(IndexLayout.Tag.postings, recordSize: 4)
        guard postingSection.count >= 4, Int(postingSection.load(0) as UInt32) == tokens.count,
            postingSection.count >= 4 + 4 * tokens.count
        else { throw corrupt("POST", "does not hold one list per token") }
        postingEnds = UnsafeRawBufferPointer(rebasing: postingSection[4..<4 + 4 * tokens.count])
        postings = UnsafeRawBufferPointer(rebasing: postingSection[(4 + 4 * tokens.count)...])

        let kindListSection = try section(IndexLayout.Tag.kindLists, recordSize: 4)
        let kindCount = kindListSection.count >= 4 ? Int(kindListSection.load(0) as UInt32) : -1
        guard kindCount >= 0, kindListSection.count == 4 + 4 * kindCount + 4 * count else {
            throw corrupt("KLST", "does not hold one list per kind covering every spot")
        }
        kindListEnds = UnsafeRawBufferPointer(rebasing: kindListSection[4..<4 + 4 * kindCount])
        guard kindCount == 0 ? count == 0 : Int(kindListEnds.load(4 * (kindCount - 1)) as UInt32) == count else {
            throw corrupt("KLST", "the lists do not end at the last spot")
        }
        kindListSpots = UnsafeRawBufferPointer(rebasing: kindListSection[(4 + 4 * kindCount)...])

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

        let kindSection = try section(IndexLayout.Tag.kinds, recordSize: IndexLayout.kindRecordSize)
        var kinds: [SpotKind] = []
        for offset in stride(from: 0, to: kindSection.count, by: IndexLayout.kindRecordSize) {
            guard let key = strings[kindSection.load(offset)], let value = strings[kindSection.load(offset + 4)] else {
                throw corrupt("KIND", "a string index is out of bounds")
            }
            let categoryIndex: UInt32 = kindSection.load(offset + 8)
            var category: Category?
            if categoryIndex != IndexLayout.noString {
                guard let name = strings[categoryIndex], let known = Category(rawValue: name) else {
                    throw corrupt("KIND", "unknown category")
                }
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
        let code: UInt8 = spots.load(record + 22)
        guard let type = OSMType(rawValue: code) else { throw corrupt("SPOT", "spot \(index) has OSM type \(code)") }
        return OSMRef(type, spots.load(record))
    }

    /// The coordinate of spot `index`.
    public func coordinate(at index: Int) throws(IndexError) -> Coordinate {
        let record = recordOffset(index)
        guard let coordinate = Coordinate(latitudeE7: spots.load(record + 8), longitudeE7: spots.load(record + 12)) else {
            throw corrupt("SPOT", "spot \(index) has an impossible coordinate")
        }
        return coordinate
    }

    /// The kind number of spot `index`: its position in `kinds`.
    public func kindNumber(at index: Int) throws(IndexError) -> Int {
        let number = Int(spots.load(recordOffset(index) + 20) as UInt16)
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
        let (start, end) = try attributeRange(index)
        var cursor = start
        while cursor < end {
            let key = try string(try varint(&cursor, end: end), in: "ATTR")
            let value = try string(try varint(&cursor, end: end), in: "ATTR")
            spot.setAttribute(key: key, value: value)
        }
        spot.merged = try mergedRefs(of: index)
        return spot
    }

    /// The `name` of spot `index`, read without decoding its other attributes.
    public func name(at index: Int) throws(IndexError) -> String? {
        let (start, end) = try attributeRange(index)
        var cursor = start
        while cursor < end {
            let key = try varint(&cursor, end: end)
            let value = try varint(&cursor, end: end)
            if strings.bytes(Int(key)).elementsEqual("name".utf8) { return try string(value, in: "ATTR") }
        }
        return nil
    }

    private func attributeRange(_ index: Int) throws(IndexError) -> (Int, Int) {
        let start = Int(spots.load(recordOffset(index) + 16) as UInt32)
        let end = index + 1 < count ? Int(spots.load(recordOffset(index + 1) + 16) as UInt32) : attributes.count
        guard start <= end, end <= attributes.count else { throw corrupt("ATTR", "spot \(index) has attributes out of bounds") }
        return (start, end)
    }

    /// The index of the spot that holds `ref`: its own, or one merged into it; nil when none.
    /// Binary searches: logarithmic in the number of references.
    public func spotIndex(for ref: OSMRef) throws(IndexError) -> Int? {
        if let own = try search(ref, in: refs, entryRef: { (position) throws(IndexError) in try self.ref(at: self.spotNumber(inOrder: position)) }) {
            return try spotNumber(inOrder: own)
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
        for position in 0..<count {
            if try !body(try spotNumber(inOrder: position)) { return }
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

    /// The spot at `position` of the reference order (REFS).
    private func spotNumber(inOrder position: Int) throws(IndexError) -> Int {
        let spot = Int(refs.load(position * IndexLayout.orderEntrySize) as UInt32)
        guard spot < count else { throw corrupt("REFS", "points past the last spot") }
        return spot
    }

    /// The MERG entry at `position` of the merged reference order (MRGO).
    private func mergedPosition(_ position: Int) throws(IndexError) -> Int {
        let entry = Int(mergedOrder.load(position * IndexLayout.orderEntrySize) as UInt32)
        guard entry < merged.count / IndexLayout.refRecordSize else { throw corrupt("MRGO", "points past the last merged reference") }
        return entry
    }

    private func mergedRefs(of index: Int) throws(IndexError) -> [OSMRef] {
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
    public func tokens(withPrefix prefix: [UInt8]) -> Range<Int> {
        func bound(_ beforeOrEqual: (UnsafeRawBufferPointer.SubSequence) -> Bool) -> Int {
            var low = 0
            var high = tokens.count
            while low < high {
                let middle = (low + high) / 2
                if beforeOrEqual(tokens.bytes(middle)) { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let start = bound { $0.lexicographicallyPrecedes(prefix) }
        let end = bound { $0.lexicographicallyPrecedes(prefix) || $0.starts(with: prefix) }
        return start..<end
    }

    /// The spots whose names hold token `token`, ascending, each with whether the token starts
    /// one of its names.
    public func postings(ofToken token: Int) throws(IndexError) -> [(spot: Int, startsName: Bool)] {
        let start = token == 0 ? 0 : Int(postingEnds.load(4 * (token - 1)) as UInt32)
        let end = Int(postingEnds.load(4 * token) as UInt32)
        guard start <= end, end * 4 <= postings.count else { throw corrupt("POST", "list \(token) is out of bounds") }
        var result: [(Int, Bool)] = []
        result.reserveCapacity(end - start)
        for entry in start..<end {
            let value: UInt32 = postings.load(4 * entry)
            let spot = Int(value & ~IndexLayout.startsNameFlag)
            guard spot < count else { throw corrupt("POST", "a list points past the last spot") }
            result.append((spot, value & IndexLayout.startsNameFlag != 0))
        }
        return result
    }

    /// The positions in the kind lists of kind `kind`'s spots, for `spot(inKindList:)`.
    public func kindListRange(ofKind kind: Int) throws(IndexError) -> Range<Int> {
        precondition(kind >= 0 && kind < kinds.count, "kind out of range")
        let start = kind == 0 ? 0 : Int(kindListEnds.load(4 * (kind - 1)) as UInt32)
        let end = Int(kindListEnds.load(4 * kind) as UInt32)
        guard start <= end, end <= count else { throw corrupt("KLST", "list \(kind) is out of bounds") }
        return start..<end
    }

    /// The spot at `position` of the kind lists: each kind's spots, in reference order.
    public func spot(inKindList position: Int) throws(IndexError) -> Int {
        precondition(position >= 0 && position < count, "kind list position out of range")
        let spot = Int(kindListSpots.load(4 * position) as UInt32)
        guard spot < count else { throw corrupt("KLST", "points past the last spot") }
        return spot
    }

    /// The positions of token `token`'s postings, for `posting(at:)`.
    public func postingRange(ofToken token: Int) throws(IndexError) -> Range<Int> {
        let start = token == 0 ? 0 : Int(postingEnds.load(4 * (token - 1)) as UInt32)
        let end = Int(postingEnds.load(4 * token) as UInt32)
        guard start <= end, end * 4 <= postings.count else { throw corrupt("POST", "list \(token) is out of bounds") }
        return start..<end
    }

    /// The posting at `position`: a spot, and whether the token starts one of its names.
    public func posting(at position: Int) throws(IndexError) -> (spot: Int, startsName: Bool) {
        precondition(position >= 0 && position < postings.count / 4, "posting position out of range")
        let value: UInt32 = postings.load(4 * position)
        let spot = Int(value & ~IndexLayout.startsNameFlag)
        guard spot < count else { throw corrupt("POST", "a list points past the last spot") }
        return (spot, value & IndexLayout.startsNameFlag != 0)
    }

    /// Calls `body` with every posting of tokens `tokens` (a range from `tokens(withPrefix:)`),
    /// token by token: the lists of consecutive tokens lie next to each other, so this is one
    /// pass over one stretch of the file. A spot comes once per token that it holds.
    public func forEachPosting(ofTokens tokens: Range<Int>, _ body: (_ spot: Int, _ startsName: Bool) -> Void) throws(IndexError) {
        guard !tokens.isEmpty else { return }
        let start = tokens.lowerBound == 0 ? 0 : Int(postingEnds.load(4 * (tokens.lowerBound - 1)) as UInt32)
        let end = Int(postingEnds.load(4 * (tokens.upperBound - 1)) as UInt32)
        guard start <= end, end * 4 <= postings.count else { throw corrupt("POST", "lists \(tokens) are out of bounds") }
        for entry in start..<end {
            let value: UInt32 = postings.load(4 * entry)
            let spot = Int(value & ~IndexLayout.startsNameFlag)
            guard spot < count else { throw corrupt("POST", "a list points past the last spot") }
            body(spot, value & IndexLayout.startsNameFlag != 0)
        }
    }

    // MARK: Checks

    /// Each section with whether its bytes match its CRC-32.
    public func verifyChecksums() -> [(section: IndexSection, isValid: Bool)] {
        sections.map { section in
            let bytes = UnsafeRawBufferPointer(rebasing: mapped.bytes[section.offset..<section.offset + section.length])
            return (section, CRC32.checksum(bytes) == section.checksum)
        }
    }

    private func recordOffset(_ index: Int) -> Int {
        precondition(index >= 0 && index < count, "spot index out of range")
        return index * IndexLayout.spotRecordSize
    }

    private func varint(_ cursor: inout Int, end: Int) throws(IndexError) -> UInt32 {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            guard cursor < end, shift < 32 else { throw corrupt("ATTR", "a number runs past its spot's attributes") }
            let byte: UInt8 = attributes.load(cursor)
            cursor += 1
            value |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    private func string(_ index: UInt32, in section: String) throws(IndexError) -> String {
        guard let string = strings[index] else {
            throw corrupt("STRS", "string \(index), used in \(section), is out of bounds")
        }
        return string
    }

    private func corrupt(_ section: String, _ message: String) -> IndexError {
        IndexError(.corrupt, file: file, section: section, message)
    }
}
