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

/// The header and section table (FORMAT.md, "Layout"), checked: magic, version, recorded size,
/// checksum, and every section inside the file, aligned, not overlapping, the required ones
/// present. Each section's bytes are then a view named by its tag.
struct IndexHeader {
    /// The sections, in table order.
    let sections: [IndexSection]
    /// The bytes of each section of `sections`, in the same order.
    let contents: [SectionBytes]
    /// The index as the user named it.
    private let file: String

    /// Checks the header and section table at the start of `file`, the whole file.
    init(_ file: SectionBytes) throws(IndexError) {
        func corrupt(_ message: String, _ section: String = "header") -> IndexError {
            IndexError(.corrupt, file: file.file, section: section, message)
        }
        guard file.count >= IndexLayout.headerSize, file.prefix(8).elementsEqual(IndexLayout.magic) else {
            throw corrupt("not a spots index (bad magic number)")
        }
        let version = try file.uint32(at: 8)
        guard version == IndexLayout.version else {
            throw corrupt("format version \(version); this reader knows version \(IndexLayout.version)")
        }
        let sectionCount = Int(try file.uint32(at: 12))
        guard sectionCount <= IndexLayout.maxSections else { throw corrupt("\(sectionCount) sections") }
        let recordedSize = try file.load(UInt64.self, at: 16)
        guard recordedSize == UInt64(file.count) else {
            throw corrupt("file is \(file.count) bytes, header says \(recordedSize): truncated or padded")
        }
        let tableEnd = IndexLayout.headerSize + sectionCount * IndexLayout.sectionEntrySize
        guard tableEnd <= file.count else {
            throw corrupt("section table runs past the end of the file", "section table")
        }
        guard try Self.checksum(of: file, tableEnd: tableEnd) == file.uint32(at: 24) else {
            throw corrupt("header checksum mismatch")
        }
        guard try file.uint32(at: 28) == 0 else { throw corrupt("reserved bytes are not zero") }
        var sections: [IndexSection] = []
        var contents: [SectionBytes] = []
        var previousEnd = tableEnd
        for entry in 0..<sectionCount {
            let base = IndexLayout.headerSize + entry * IndexLayout.sectionEntrySize
            let tag = try file.uint32(at: base)
            let offset = try file.load(UInt64.self, at: base + 8)
            let length = try file.load(UInt64.self, at: base + 16)
            let name = IndexLayout.name(ofTag: tag)
            guard offset % UInt64(IndexLayout.alignment) == 0, offset >= UInt64(previousEnd),
                offset <= UInt64(file.count), length <= UInt64(file.count) - offset
            else {
                throw corrupt("offset \(offset) and length \(length) are out of bounds or overlap", name)
            }
            guard !sections.contains(where: { $0.tag == tag }) else { throw corrupt("appears twice", name) }
            let checksum = try file.uint32(at: base + 24)
            let section = IndexSection(
                name: name, offset: Int(offset), length: Int(length), checksum: checksum, tag: tag)
            sections.append(section)
            contents.append(try file.subrange(from: section.offset, to: section.offset + section.length, named: name))
            previousEnd = section.offset + section.length
        }
        self.sections = sections
        self.contents = contents
        self.file = file.file
        for tag in IndexLayout.Tag.required where bytes(of: tag) == nil { throw missing(tag) }
    }

    /// The bytes of the section tagged `tag`, or nil when the file has none.
    func bytes(of tag: UInt32) -> SectionBytes? {
        sections.firstIndex { $0.tag == tag }.map { contents[$0] }
    }

    /// The bytes of the section tagged `tag`, which `init` found present (`IndexLayout.Tag.required`).
    func requiredBytes(of tag: UInt32) throws(IndexError) -> SectionBytes {
        guard let bytes = bytes(of: tag) else { throw missing(tag) }
        return bytes
    }

    /// The error for a file without section `tag`, reported in the section table.
    func missing(_ tag: UInt32, _ what: String = "required section") -> IndexError {
        IndexError(.corrupt, file: file, section: "section table", "\(what) \(IndexLayout.name(ofTag: tag)) is missing")
    }

    /// The header checksum: CRC-32 of the header's first 24 bytes, continued over the section
    /// table, which ends at `tableEnd`.
    private static func checksum(of file: SectionBytes, tableEnd: Int) throws(IndexError) -> UInt32 {
        let head = try file.subrange(from: 0, to: 24).crc32()
        return try file.subrange(from: IndexLayout.headerSize, to: tableEnd).crc32(continuing: head)
    }
}
