import Spots

/// One section of an index file as the section table describes it.
public struct IndexSection: Sendable {
    /// Four-letter tag: "META", "STRS", "SPOT", "ATTR", "MERG".
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
/// Opening reads only the header, the section table and the metadata, so it takes the same
/// time whatever the file's size. Every offset read from the file is checked against the
/// bounds of its section before it is followed; a damaged or hostile file gives `IndexError`,
/// never a crash or a read outside the file. Section checksums are verified by
/// `verifyChecksums()`, which reads everything.
public final class SpotIndexReader: @unchecked Sendable {
    /// The index as the user named it.
    public let file: String
    /// The sections, in table order.
    public let sections: [IndexSection]
    /// The build metadata.
    public let metadata: IndexMetadata
    /// How many spots the index holds.
    public let count: Int
    /// The file's size in bytes.
    public var fileSize: Int { mapped.bytes.count }

    private let mapped: MappedFile
    private let strings: StringTable
    private let spots: UnsafeRawBufferPointer
    private let attributes: UnsafeRawBufferPointer
    private let merged: UnsafeRawBufferPointer

    /// Maps and checks the index at `path`.
    public init(path: String) throws(IndexError) {
        file = path
        let mapped = try MappedFile(path: path)
        self.mapped = mapped
        let header = try IndexHeader(mapped.bytes, file: path)
        sections = header.sections
        func section(_ tag: UInt32, recordSize: Int = 1) throws(IndexError) -> UnsafeRawBufferPointer {
            let entry = header.sections.first { $0.tag == tag }!
            guard entry.length % recordSize == 0 else {
                throw IndexError(.corrupt, file: path, section: entry.name, "length \(entry.length) is not a multiple of \(recordSize)")
            }
            return UnsafeRawBufferPointer(rebasing: mapped.bytes[entry.offset..<entry.offset + entry.length])
        }
        spots = try section(IndexLayout.Tag.spots, recordSize: IndexLayout.spotRecordSize)
        attributes = try section(IndexLayout.Tag.attributes, recordSize: IndexLayout.attributeRecordSize)
        merged = try section(IndexLayout.Tag.merged, recordSize: IndexLayout.mergedRecordSize)
        strings = try StringTable(try section(IndexLayout.Tag.strings), file: path)
        count = spots.count / IndexLayout.spotRecordSize
        do {
            metadata = try IndexMetadata.decode(try section(IndexLayout.Tag.metadata))
        } catch {
            throw IndexError(.corrupt, file: path, section: "META", "metadata is not valid JSON of the expected shape")
        }
    }

    /// The spot at `index` (0 ..< count), decoded; throws when its references point outside the file.
    public func spot(at index: Int) throws(IndexError) -> Spot {
        precondition(index >= 0 && index < count, "spot index out of range")
        let record = index * IndexLayout.spotRecordSize
        let id: Int64 = spots.load(record)
        let latitude: Int32 = spots.load(record + 8)
        let longitude: Int32 = spots.load(record + 12)
        let kind = try string(spots.load(record + 16), in: "SPOT")
        let categoryIndex: UInt32 = spots.load(record + 20)
        let firstAttribute = Int(spots.load(record + 24) as UInt32)
        let firstMerged = Int(spots.load(record + 28) as UInt32)
        let attributeCount = Int(spots.load(record + 32) as UInt16)
        let mergedCount = Int(spots.load(record + 34) as UInt16)
        let typeCode: UInt8 = spots.load(record + 36)
        let tagKey = try string(spots.load(record + 40), in: "SPOT")

        guard let type = OSMType(rawValue: typeCode) else { throw corrupt("SPOT", "spot \(index) has OSM type \(typeCode)") }
        guard let coordinate = Coordinate(latitudeE7: latitude, longitudeE7: longitude) else {
            throw corrupt("SPOT", "spot \(index) has an impossible coordinate")
        }
        var category: Category?
        if categoryIndex != IndexLayout.noString {
            let name = try string(categoryIndex, in: "SPOT")
            guard let known = Category(rawValue: name) else { throw corrupt("SPOT", "unknown category \"\(name)\"") }
            category = known
        }
        var spot = Spot(ref: OSMRef(type, id), coordinate: coordinate, tagKey: tagKey, kind: kind, category: category)
        guard firstAttribute + attributeCount <= attributes.count / IndexLayout.attributeRecordSize else {
            throw corrupt("ATTR", "spot \(index) refers to attributes past the end")
        }
        for attribute in firstAttribute..<firstAttribute + attributeCount {
            let offset = attribute * IndexLayout.attributeRecordSize
            spot.setAttribute(key: try string(attributes.load(offset), in: "ATTR"), value: try string(attributes.load(offset + 4), in: "ATTR"))
        }
        guard firstMerged + mergedCount <= merged.count / IndexLayout.mergedRecordSize else {
            throw corrupt("MERG", "spot \(index) refers to merged references past the end")
        }
        for reference in firstMerged..<firstMerged + mergedCount {
            let offset = reference * IndexLayout.mergedRecordSize
            let code: UInt8 = merged.load(offset + 8)
            guard let type = OSMType(rawValue: code) else { throw corrupt("MERG", "merged reference has OSM type \(code)") }
            spot.merged.append(OSMRef(type, merged.load(offset)))
        }
        return spot
    }

    /// Each section with whether its bytes match its CRC-32.
    public func verifyChecksums() -> [(section: IndexSection, isValid: Bool)] {
        sections.map { section in
            let bytes = UnsafeRawBufferPointer(rebasing: mapped.bytes[section.offset..<section.offset + section.length])
            return (section, CRC32.checksum(bytes) == section.checksum)
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

/// The string pool: a count, the end offset of each string, then the UTF-8 bytes.
struct StringTable {
    private let ends: UnsafeRawBufferPointer
    private let text: UnsafeRawBufferPointer
    let count: Int

    init(_ section: UnsafeRawBufferPointer, file: String) throws(IndexError) {
        guard section.count >= 4 else { throw IndexError(.corrupt, file: file, section: "STRS", "too short") }
        count = Int(section.load(0) as UInt32)
        guard count <= (section.count - 4) / 4 else {
            throw IndexError(.corrupt, file: file, section: "STRS", "\(count) strings do not fit in \(section.count) bytes")
        }
        ends = UnsafeRawBufferPointer(rebasing: section[4..<4 + 4 * count])
        text = UnsafeRawBufferPointer(rebasing: section[(4 + 4 * count)...])
    }

    /// String `index`, or nil when the index or its offsets are out of bounds.
    subscript(index: UInt32) -> String? {
        let index = Int(index)
        guard index < count else { return nil }
        let start = index == 0 ? 0 : Int(ends.load(4 * (index - 1)) as UInt32)
        let end = Int(ends.load(4 * index) as UInt32)
        guard start <= end, end <= text.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
    }
}

/// The header and section table, checked: magic, version, recorded size, checksum, and every
/// section inside the file, aligned, not overlapping, the required ones present.
struct IndexHeader {
    let sections: [IndexSection]

    init(_ bytes: UnsafeRawBufferPointer, file: String) throws(IndexError) {
        func corrupt(_ message: String, _ section: String = "header") -> IndexError {
            IndexError(.corrupt, file: file, section: section, message)
        }
        guard bytes.count >= IndexLayout.headerSize, bytes.prefix(8).elementsEqual(IndexLayout.magic) else {
            throw corrupt("not a spots index (bad magic number)")
        }
        let version: UInt32 = bytes.load(8)
        guard version == IndexLayout.version else {
            throw corrupt("format version \(version); this reader knows version \(IndexLayout.version)")
        }
        let sectionCount = Int(bytes.load(12) as UInt32)
        guard sectionCount <= IndexLayout.maxSections else { throw corrupt("\(sectionCount) sections") }
        let recordedSize: UInt64 = bytes.load(16)
        guard recordedSize == UInt64(bytes.count) else {
            throw corrupt("file is \(bytes.count) bytes, header says \(recordedSize): truncated or padded")
        }
        let tableEnd = IndexLayout.headerSize + sectionCount * IndexLayout.sectionEntrySize
        guard tableEnd <= bytes.count else { throw corrupt("section table runs past the end of the file", "section table") }
        guard Self.checksum(of: bytes, sectionCount: sectionCount) == bytes.load(24) as UInt32 else {
            throw corrupt("header checksum mismatch")
        }
        guard bytes.load(28) as UInt32 == 0 else { throw corrupt("reserved bytes are not zero") }
        var sections: [IndexSection] = []
        var previousEnd = tableEnd
        for entry in 0..<sectionCount {
            let base = IndexLayout.headerSize + entry * IndexLayout.sectionEntrySize
            let tag: UInt32 = bytes.load(base)
            let offset: UInt64 = bytes.load(base + 8)
            let length: UInt64 = bytes.load(base + 16)
            let name = IndexLayout.name(ofTag: tag)
            guard offset % UInt64(IndexLayout.alignment) == 0, offset >= UInt64(previousEnd),
                offset <= UInt64(bytes.count), length <= UInt64(bytes.count) - offset
            else {
                throw corrupt("offset \(offset) and length \(length) are out of bounds or overlap", name)
            }
            guard !sections.contains(where: { $0.tag == tag }) else { throw corrupt("appears twice", name) }
            sections.append(IndexSection(name: name, offset: Int(offset), length: Int(length), checksum: bytes.load(base + 24), tag: tag))
            previousEnd = Int(offset + length)
        }
        for tag in IndexLayout.Tag.required where !sections.contains(where: { $0.tag == tag }) {
            throw corrupt("required section \(IndexLayout.name(ofTag: tag)) is missing", "section table")
        }
        self.sections = sections
    }

    /// CRC-32 of the header's first 24 bytes and the section table.
    static func checksum(of bytes: UnsafeRawBufferPointer, sectionCount: Int) -> UInt32 {
        let head = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[..<24]))
        let tableEnd = IndexLayout.headerSize + sectionCount * IndexLayout.sectionEntrySize
        return CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[IndexLayout.headerSize..<tableEnd]), continuing: head)
    }

    static func checksum(of bytes: [UInt8], sectionCount: Int) -> UInt32 {
        bytes.withUnsafeBytes { checksum(of: $0, sectionCount: sectionCount) }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`; the caller has checked the bounds.
    func load<T: FixedWidthInteger>(_ offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
