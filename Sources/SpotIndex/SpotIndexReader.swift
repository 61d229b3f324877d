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
    /// The index's kinds: each distinct selecting tag of its spots (key, value and category),
    /// numbered by its position here, the kind number (KIND).
    public let kinds: [SelectingTag]
    /// The spatial tree over the spots (TREE), whose items are spot numbers.
    public let tree: PackedTreeView
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
    let tokens: StringTable
    let spots: UnsafeRawBufferPointer
    private let attributes: UnsafeRawBufferPointer
    let refs: UnsafeRawBufferPointer
    let merged: UnsafeRawBufferPointer
    let mergedOrder: UnsafeRawBufferPointer
    let kindListEnds: UnsafeRawBufferPointer
    let kindLists: UnsafeRawBufferPointer
    let postingBlockSize: Int
    let postingBlockOffsets: UnsafeRawBufferPointer
    let postings: UnsafeRawBufferPointer
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

        tree = try PackedTreeView(
            treeSection: try section(IndexLayout.Tag.tree, recordSize: 4), spotCount: count, file: path)

        let clusterSections = IndexLayout.Tag.clusterLevels.map { tag in header.sections.first { $0.tag == tag } }
        if clusterSections.contains(where: { $0 != nil }) {
            if let missing = clusterSections.firstIndex(where: { $0 == nil }) {
                throw corrupt("section table", "cluster section \(IndexLayout.name(ofTag: IndexLayout.Tag.clusterLevels[missing])) is missing")
            }
            clusterLevels = try ClusterLevels(
                clusters: try section(IndexLayout.Tag.clusters), trees: try section(IndexLayout.Tag.clusterTrees),
                details: try section(IndexLayout.Tag.clusterDetails), members: try section(IndexLayout.Tag.clusterMembers),
                visibility: try section(IndexLayout.Tag.spotVisibility), spotCount: count, spotTree: tree, file: path)
        } else {
            clusterLevels = nil
        }

        let kindSection = try section(IndexLayout.Tag.kinds, recordSize: IndexLayout.kindRecordSize)
        var kinds: [SelectingTag] = []
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
            kinds.append(SelectingTag(key: key, value: value, category: category))
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

    /// The OSM reference of spot `spot`.
    public func ref(at spot: Int) throws(IndexError) -> OSMRef {
        let record = recordOffset(spot)
        // 48 bits, low 16 first: the id shifted left by 2, and the type in the low 2 bits.
        let packed = Int64(bitPattern: UInt64(spots.load(record + 16) as UInt32) << 32 | UInt64(spots.load(record + 14) as UInt16) << 16) >> 16
        let code = UInt8(packed & 3)
        guard let type = OSMType(rawValue: code) else { throw corrupt("SPOT", "spot \(spot) has OSM type \(code)") }
        return OSMRef(type, packed >> 2)
    }

    /// The coordinate of spot `spot`.
    public func coordinate(at spot: Int) throws(IndexError) -> Coordinate {
        let record = recordOffset(spot)
        guard let coordinate = Coordinate(latitudeE7: spots.load(record), longitudeE7: spots.load(record + 4)) else {
            throw corrupt("SPOT", "spot \(spot) has an impossible coordinate")
        }
        return coordinate
    }

    /// The kind number of spot `spot`: its position in `kinds`.
    public func kindNumber(at spot: Int) throws(IndexError) -> Int {
        let number = Int(spots.load(recordOffset(spot) + 12) as UInt16)
        guard number < kinds.count else { throw corrupt("SPOT", "spot \(spot) has kind \(number) of \(kinds.count)") }
        return number
    }

    /// The kind of spot `spot`: its selecting tag and category.
    public func kind(at spot: Int) throws(IndexError) -> SelectingTag {
        kinds[try kindNumber(at: spot)]
    }

    /// Spot number `number` (0 ..< count), decoded.
    public func spot(at number: Int) throws(IndexError) -> Spot {
        let kind = try kind(at: number)
        var spot = Spot(
            ref: try ref(at: number), coordinate: try coordinate(at: number), tagKey: kind.key, kind: kind.value,
            category: kind.category)
        var attributes = try attributeReader(number)
        while !attributes.isAtEnd {
            let key = try string(try varint(&attributes), in: "ATTR")
            let value = try string(try varint(&attributes), in: "ATTR")
            spot.setAttribute(key: key, value: value)
        }
        spot.merged = try mergedRefs(of: number)
        return spot
    }

    /// The `name` of spot `spot`, read without decoding its other attributes.
    public func name(at spot: Int) throws(IndexError) -> String? {
        var attributes = try attributeReader(spot)
        while !attributes.isAtEnd {
            let key = try varint(&attributes)
            let value = try varint(&attributes)
            if key == nameKey { return try string(value, in: "ATTR") }
        }
        return nil
    }

    /// The numbers of the attribute keys of spot `spot`, in stored order, without decoding any
    /// string: for a caller that counts keys (a report) and names each number once
    /// (`attributeKey(numbered:)`).
    public func attributeKeyNumbers(at spot: Int) throws(IndexError) -> [Int] {
        var attributes = try attributeReader(spot)
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

    private func attributeReader(_ spot: Int) throws(IndexError) -> VarintReader {
        let start = Int(spots.load(recordOffset(spot) + 8) as UInt32)
        let end = spot + 1 < count ? Int(spots.load(recordOffset(spot + 1) + 8) as UInt32) : attributes.count
        guard start <= end, end <= attributes.count else { throw corrupt("ATTR", "spot \(spot) has attributes out of bounds") }
        return VarintReader(attributes, from: start, to: end)
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

    private func recordOffset(_ spot: Int) -> Int {
        precondition(spot >= 0 && spot < count, "spot number out of range")
        return spot * IndexLayout.spotRecordSize
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
