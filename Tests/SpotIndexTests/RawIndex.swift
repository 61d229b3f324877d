import SpotIndex
import Spots

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
                latitudeE7: bytes.load(at: base), longitudeE7: bytes.load(at: base + 4),
                attributes: bytes.load(at: base + 8),
                kind: bytes.load(at: base + 12), referenceLow: bytes.load(at: base + 14),
                referenceHigh: bytes.load(at: base + 16))
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
            RefRecord(
                id: bytes.load(at: base), type: bytes[base + 8], reserved: Array(bytes[base + 9..<base + 12]),
                spot: bytes.load(at: base + 12))
        }
    }

    /// An order table's numbers (REFS: spot numbers in reference order; MRGO: MERG positions in
    /// reference order), each in `orderWidth(name)` little-endian bytes.
    func numbers(_ name: String) -> [UInt32] {
        let section = section(name)
        let width = orderWidth(name)
        return stride(from: section.offset, to: section.offset + section.length, by: width).map { start in
            bytes[start..<start + width].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
    }

    /// The width of order table `name`'s numbers, by FORMAT.md's rule ("Order tables"), from
    /// the count of what it orders: SPOT's 20-byte records for REFS, MERG's 16-byte ones for MRGO.
    func orderWidth(_ name: String) -> Int {
        let count = name == "REFS" ? section("SPOT").length / 20 : section("MERG").length / 16
        return count <= 1 << 8 ? 1 : count <= 1 << 16 ? 2 : count <= 1 << 24 ? 3 : 4
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
    static func assemble(
        _ sections: [(name: String, bytes: [UInt8])], version: UInt32 = UInt32(SpotIndexReader.formatVersion)
    ) -> [UInt8] {
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
