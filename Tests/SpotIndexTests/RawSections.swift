import CZlib

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
    /// The section table's entries, as the header's section count says.
    var rawSections: [RawSection] {
        let count = Int(load(UInt32.self, at: 12))
        return (0..<count).map { entry in
            let base = 32 + 32 * entry
            let tag = self[base..<base + 4]
            return RawSection(
                name: String(decoding: tag, as: UTF8.self), entryOffset: base,
                offset: Int(load(UInt64.self, at: base + 8)),
                length: Int(load(UInt64.self, at: base + 16)), checksum: load(UInt32.self, at: base + 24))
        }
    }

    /// The table entry of section `name`, which must be present.
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
