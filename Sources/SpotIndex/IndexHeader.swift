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

