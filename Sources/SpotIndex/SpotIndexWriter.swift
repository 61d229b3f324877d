import Spots

/// Encodes spots and metadata as an index file (format version 1, FORMAT.md).
///
/// The writer produces the file's bytes; putting them on disk atomically is the caller's job
/// (SpotPipeline writes to a temporary file beside the output, fsyncs and renames).
public enum SpotIndexWriter {
    /// The index bytes for `spots`, in the order given, with `metadata`. Equal inputs give
    /// equal bytes.
    public static func encode(_ spots: [Spot], metadata: IndexMetadata) -> [UInt8] {
        var pool = StringPool()
        var spotSection = ByteWriter()
        var attributeSection = ByteWriter()
        var mergedSection = ByteWriter()
        var attributeCount: UInt32 = 0
        var mergedCount: UInt32 = 0
        for spot in spots {
            let attributes = spot.attributeTags.prefix(Int(UInt16.max))
            let merged = spot.merged.prefix(Int(UInt16.max))
            spotSection.append(spot.ref.id)
            spotSection.append(spot.coordinate.latitudeE7)
            spotSection.append(spot.coordinate.longitudeE7)
            spotSection.append(pool.index(of: spot.kind))
            spotSection.append(spot.category.map { pool.index(of: $0.rawValue) } ?? IndexLayout.noString)
            spotSection.append(attributeCount)
            spotSection.append(mergedCount)
            spotSection.append(UInt16(attributes.count))
            spotSection.append(UInt16(merged.count))
            spotSection.append(spot.ref.type.rawValue)
            spotSection.append([0, 0, 0])
            spotSection.append(pool.index(of: spot.tagKey))
            spotSection.append(UInt32(0))
            for attribute in attributes {
                attributeSection.append(pool.index(of: attribute.key))
                attributeSection.append(pool.index(of: attribute.value))
            }
            for ref in merged {
                mergedSection.append(ref.id)
                mergedSection.append(ref.type.rawValue)
                mergedSection.append([UInt8](repeating: 0, count: 7))
            }
            attributeCount += UInt32(attributes.count)
            mergedCount += UInt32(merged.count)
        }
        return container([
            (IndexLayout.Tag.metadata, metadata.encoded()),
            (IndexLayout.Tag.strings, pool.encoded()),
            (IndexLayout.Tag.spots, spotSection.bytes),
            (IndexLayout.Tag.attributes, attributeSection.bytes),
            (IndexLayout.Tag.merged, mergedSection.bytes),
        ])
    }

    /// Header, section table and the sections, each aligned, each with its CRC-32.
    private static func container(_ sections: [(tag: UInt32, bytes: [UInt8])]) -> [UInt8] {
        var file = ByteWriter()
        file.append(IndexLayout.magic)
        file.append(IndexLayout.version)
        file.append(UInt32(sections.count))
        file.append(UInt64(0))  // file size, set below
        file.append(UInt32(0))  // header checksum, set below
        file.append(UInt32(0))
        var offset = IndexLayout.headerSize + sections.count * IndexLayout.sectionEntrySize
        for section in sections {
            offset = (offset + IndexLayout.alignment - 1) / IndexLayout.alignment * IndexLayout.alignment
            file.append(section.tag)
            file.append(UInt32(0))
            file.append(UInt64(offset))
            file.append(UInt64(section.bytes.count))
            file.append(section.bytes.withUnsafeBytes { CRC32.checksum($0) })
            file.append(UInt32(0))
            offset += section.bytes.count
        }
        for section in sections {
            file.pad(to: IndexLayout.alignment)
            file.append(section.bytes)
        }
        file.set(UInt64(file.bytes.count), at: 16)
        file.set(IndexHeader.checksum(of: file.bytes, sectionCount: sections.count), at: 24)
        return file.bytes
    }
}

/// Each distinct string once, numbered in order of first use. Strings are told apart by their
/// bytes: Swift's String equality would merge canonically equivalent spellings ("é" and
/// "e" + U+0301), and the index keeps text exactly as OSM spells it.
struct StringPool {
    private var indices: [[UInt8]: UInt32] = [:]
    private var strings: [[UInt8]] = []

    mutating func index(of string: String) -> UInt32 {
        let bytes = Array(string.utf8)
        if let index = indices[bytes] { return index }
        let index = UInt32(strings.count)
        indices[bytes] = index
        strings.append(bytes)
        return index
    }

    /// Count, end offsets, then the UTF-8 bytes (FORMAT.md, STRS).
    func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.append(UInt32(strings.count))
        var end: UInt32 = 0
        for string in strings {
            end += UInt32(string.count)
            writer.append(end)
        }
        for string in strings { writer.append(string) }
        return writer.bytes
    }
}
