import Foundation
import SpotIndex
import Spots
import Testing

@Suite("Damaged index files")
struct DamageTests {
    /// A small index: three spots with attributes and merged references.
    static let small: [UInt8] = {
        let coordinate = Coordinate(latitudeE7: 347_839_000, longitudeE7: 1_346_939_000)!
        let spots = [
            Spot(ref: OSMRef(.node, 1), coordinate: coordinate, tagKey: "amenity", kind: "cafe", category: .cafe,
                 name: "Café", names: ["ja": "カフェ"], address: ["street": "Main"], details: [.phone: "1"]),
            Spot(ref: OSMRef(.way, -2), coordinate: coordinate, tagKey: "tourism", kind: "castle", category: .castle,
                 name: "姫路城", merged: [OSMRef(.relation, 3), OSMRef(.node, 4)]),
            Spot(ref: OSMRef(.relation, 5), coordinate: coordinate, tagKey: "amenity", kind: "bench", category: nil),
        ]
        let metadata = IndexMetadata(generator: "spots", buildTime: nil, inputs: [.init(name: "x.osm", bytes: 9)], bboxE7: nil, statistics: ["spots": 3])
        return SpotIndexWriter.encode(spots, metadata: metadata)
    }()

    /// Opens `bytes`, then reads every spot and verifies checksums: returns the open error, or the
    /// number of spots that failed to decode and the sections whose checksum failed.
    static func exercise(_ bytes: [UInt8]) throws -> (openError: IndexError?, spotErrors: Int, badSections: [String]) {
        try withScratchFile { write in try exercise(bytes, writing: write) }
    }

    /// As `exercise(_:)`, through a scratch file that `write` fills.
    static func exercise(_ bytes: [UInt8], writing write: (_ bytes: [UInt8]) throws -> String) throws
        -> (openError: IndexError?, spotErrors: Int, badSections: [String])
    {
        let path = try write(bytes)
        let reader: SpotIndexReader
        do throws(IndexError) {
            reader = try SpotIndexReader(path: path)
        } catch {
            return (error, 0, [])
        }
        var spotErrors = 0
        for position in 0..<reader.count {
            do throws(IndexError) {
                _ = try reader.spot(at: position)
            } catch {
                #expect(error.kind == .corrupt)
                spotErrors += 1
            }
        }
        return (nil, spotErrors, reader.verifyChecksums().filter { !$0.isValid }.map(\.section.name))
    }

    static func expectCorruptOnOpen(_ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
    }

    @Test("the small fixture itself opens and reads cleanly")
    func fixtureIsValid() throws {
        let result = try Self.exercise(Self.small)
        #expect(result.openError == nil)
        #expect(result.spotErrors == 0)
        #expect(result.badSections.isEmpty)
    }

    @Test("a missing file is unreadable, and the error names the file")
    func missingFile() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).spots").path
        let error = #expect(throws: IndexError.self) { try SpotIndexReader(path: path) }
        #expect(error?.kind == .unreadable)
        #expect(error?.file == path)
        #expect(error?.description.hasPrefix(path + ": ") == true)
    }

    @Test("a directory is unreadable")
    func directory() {
        let error = #expect(throws: IndexError.self) { try SpotIndexReader(path: FileManager.default.temporaryDirectory.path) }
        #expect(error?.kind == .unreadable)
    }

    @Test("an empty file is corrupt")
    func emptyFile() throws {
        let error = try openingError([])
        #expect(error?.kind == .corrupt)
        #expect(error?.section == "header")
    }

    @Test("a wrong magic number is corrupt, reported in the header")
    func wrongMagic() throws {
        for position in 0..<8 {
            var bytes = Self.small
            bytes[position] ^= 0x20
            bytes.resealHeader()
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt)
            #expect(error?.section == "header")
        }
        try Self.expectCorruptOnOpen(Array("<?xml version=\"1.0\"?><osm></osm>                  ".utf8))
    }

    @Test("another format version is corrupt, even with a matching header checksum", arguments: [0, 2, UInt32.max] as [UInt32])
    func wrongVersion(version: UInt32) throws {
        var bytes = Self.small
        bytes.store(version, at: 8)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("version") == true)
    }

    @Test("the index truncated to any shorter length is corrupt")
    func truncatedAtEveryLength() throws {
        for length in 0..<Self.small.count {
            try Self.expectCorruptOnOpen(Array(Self.small[..<length]), "truncated to \(length) bytes")
        }
    }

    @Test("a byte appended to the index makes it corrupt", arguments: [0x00, 0x0A, 0xFF] as [UInt8])
    func extraByte(byte: UInt8) throws {
        try Self.expectCorruptOnOpen(Self.small + [byte])
        try Self.expectCorruptOnOpen(Self.small + [UInt8](repeating: 0, count: 8))
    }

    @Test("a flipped header or section-table byte fails the header checksum")
    func headerChecksum() throws {
        let tableEnd = 32 + 5 * 32
        for position in Array(0..<28) + Array(32..<tableEnd) {
            var bytes = Self.small
            bytes[position] ^= 0x01
            try Self.expectCorruptOnOpen(bytes, "byte \(position)")
        }
    }

    @Test("flipping any single byte never crashes: open or read fails with IndexError, or the checksum of its section fails")
    func everySingleByteFlip() throws {
        let sections = Self.small.rawSections
        var opened = 0
        try withScratchFile { write in
            for mask: UInt8 in [0xFF, 0x01, 0x80] {
                for position in 0..<Self.small.count {
                    var bytes = Self.small
                    bytes[position] ^= mask
                    let result = try Self.exercise(bytes, writing: write)
                    if let error = result.openError {
                        #expect(error.kind == .corrupt, "byte \(position) mask \(mask)")
                        continue
                    }
                    opened += 1
                    if let section = sections.first(where: { $0.range.contains(position) }) {
                        #expect(result.badSections == [section.name], "byte \(position) mask \(mask) lies in \(section.name)")
                    } else {
                        #expect(result.badSections.isEmpty)
                        #expect(result.spotErrors == 0)
                        // Only the header's reserved word and alignment padding are outside every checksum.
                        #expect((28..<32).contains(position) || Self.small[position] == 0, "byte \(position) is covered by nothing")
                    }
                }
            }
        }
        #expect(opened > 0, "some flips (inside spot records) must still open")
    }

    @Test("flipping each bit of the spot records reads as a corrupt error or a changed spot, never a crash")
    func spotRecordBitFlips() throws {
        let spotSection = Self.small.section("SPOT")
        var failedReads = 0
        try withScratchFile { write in
            for position in spotSection.range {
                for bit in 0..<8 {
                    var bytes = Self.small
                    bytes[position] ^= 1 << bit
                    bytes.resealSection("SPOT")
                    let result = try Self.exercise(bytes, writing: write)
                    #expect(result.openError == nil, "the SPOT section is only read on demand")
                    #expect(result.badSections.isEmpty)
                    failedReads += result.spotErrors
                }
            }
        }
        #expect(failedReads > 0, "flips of types, counts and string indices must be caught when reading")
    }
}

@Suite("Hostile index headers")
struct HostileHeaderTests {
    static var small: [UInt8] { DamageTests.small }

    /// Patches `bytes` at `offset`, reseals the header checksum and expects a corrupt error on open.
    static func expectCorrupt<T: FixedWidthInteger>(
        patching value: T, at offset: Int, in bytes: [UInt8] = small, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var bytes = bytes
        bytes.store(value, at: offset)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
    }

    @Test("a recorded file size that differs from the file is corrupt", arguments: [0, 1, 31, UInt64.max, UInt64(Int64.max)] as [UInt64])
    func recordedSize(size: UInt64) throws {
        try Self.expectCorrupt(patching: size, at: 16)
        try Self.expectCorrupt(patching: UInt64(Self.small.count - 1), at: 16)
        try Self.expectCorrupt(patching: UInt64(Self.small.count + 1), at: 16)
    }

    @Test("section counts of zero, too many, or a table past the end are corrupt", arguments: [0, 1, 4, 64, 65, 1_000, UInt32.max] as [UInt32])
    func sectionCounts(count: UInt32) throws {
        try Self.expectCorrupt(patching: count, at: 12)
    }

    @Test("a section offset past the end of the file is corrupt")
    func offsetPastEnd() throws {
        for section in Self.small.rawSections {
            let aligned = UInt64((Self.small.count + 7) / 8 * 8)
            for offset in [aligned, aligned + 8, UInt64.max - 7, UInt64(Int64.max) - 7, 1 << 62] {
                try Self.expectCorrupt(patching: offset, at: section.entryOffset + 8, "\(section.name) at \(offset)")
            }
        }
    }

    @Test("a section length running past the end of the file is corrupt, without overflow")
    func lengthPastEnd() throws {
        for section in Self.small.rawSections {
            let toEnd = UInt64(Self.small.count - section.offset)
            for length in [toEnd + 1, toEnd + 48, UInt64.max, UInt64(Int64.max), UInt64.max - UInt64(section.offset) + 1] {
                try Self.expectCorrupt(patching: length, at: section.entryOffset + 16, "\(section.name) length \(length)")
            }
        }
    }

    @Test("overlapping or out-of-order sections are corrupt")
    func overlapping() throws {
        let sections = Self.small.rawSections
        for (earlier, later) in zip(sections, sections.dropFirst()) {
            // The later section starts where the earlier one does.
            try Self.expectCorrupt(patching: UInt64(earlier.offset), at: later.entryOffset + 8, "\(later.name) over \(earlier.name)")
            // The earlier section grows into the later one.
            if later.length > 0 {
                try Self.expectCorrupt(patching: UInt64(later.offset - earlier.offset + 8), at: earlier.entryOffset + 16, "\(earlier.name) into \(later.name)")
            }
        }
        // A section inside the header or the section table.
        for offset: UInt64 in [0, 8, 32, 184] {
            try Self.expectCorrupt(patching: offset, at: sections[0].entryOffset + 8, "META at \(offset)")
        }
    }

    @Test("a misaligned section offset is corrupt")
    func misaligned() throws {
        for section in Self.small.rawSections {
            try Self.expectCorrupt(patching: UInt64(section.offset + 1), at: section.entryOffset + 8, "\(section.name)")
        }
    }

    @Test("a duplicated or missing required section is corrupt")
    func duplicateOrMissing() throws {
        let sections = Self.small.rawSections
        let tags = sections.map { Self.small.load(UInt32.self, at: $0.entryOffset) }
        for (index, section) in sections.enumerated() {
            try Self.expectCorrupt(patching: tags[(index + 1) % tags.count], at: section.entryOffset, "\(section.name) renamed as another")
            try Self.expectCorrupt(patching: UInt32(0x5858_5858), at: section.entryOffset, "\(section.name) renamed XXXX")
        }
    }

    @Test("a record section whose length is not a whole number of records is corrupt")
    func partialRecords() throws {
        for (name, record) in [("SPOT", 48), ("ATTR", 8), ("MERG", 16)] {
            let section = Self.small.section(name)
            try Self.expectCorrupt(patching: UInt64(section.length - 1), at: section.entryOffset + 16, "\(name) minus one")
            if section.length >= record {
                try Self.expectCorrupt(patching: UInt64(section.length - record / 2), at: section.entryOffset + 16, "\(name) half a record short")
            }
        }
    }

    @Test("a string count too large for the string section is corrupt on open")
    func stringCountTooLarge() throws {
        let strings = Self.small.section("STRS")
        let fits = UInt32((strings.length - 4) / 4)
        for count in [fits + 1, fits + 1000, UInt32.max, UInt32(Int32.max)] {
            var bytes = Self.small
            bytes.store(count, at: strings.offset)
            bytes.resealSection("STRS")
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt, "count \(count)")
            #expect(error?.section == "STRS")
        }
    }

    @Test("a string section shorter than its count word is corrupt on open")
    func stringSectionTooShort() throws {
        let strings = Self.small.section("STRS")
        for length: UInt64 in [0, 3] {
            var bytes = Self.small
            bytes.store(length, at: strings.entryOffset + 16)
            bytes.resealHeader()
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt)
        }
    }

    @Test("garbage metadata is corrupt on open, reported in META")
    func badMetadata() throws {
        let meta = Self.small.section("META")
        for patch in [Array("[".utf8), Array("\u{0}".utf8), Array("{\"x\"".utf8)] {
            var bytes = Self.small
            bytes.replaceSubrange(meta.offset..<meta.offset + patch.count, with: patch)
            bytes.resealSection("META")
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt)
            #expect(error?.section == "META")
        }
    }

    /// Patches one spot record field (after checksums are fixed) and expects `spot(at:)` to throw.
    static func expectSpotCorrupt<T: FixedWidthInteger>(
        _ value: T, atRecordOffset field: Int, spot: Int = 0, section name: String = "SPOT", reading read: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var bytes = small
        let section = bytes.section(name)
        bytes.store(value, at: section.offset + spot * (name == "SPOT" ? 48 : name == "MERG" ? 16 : 8) + field)
        bytes.resealSection(name)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.verifyChecksums().allSatisfy { $0.isValid }, sourceLocation: sourceLocation)
            let error = #expect(throws: IndexError.self, sourceLocation: sourceLocation) { try reader.spot(at: read ?? spot) }
            #expect(error?.kind == .corrupt, sourceLocation: sourceLocation)
        }
    }

    @Test("spot records pointing outside their sections throw IndexError when read")
    func hostileSpotRecords() throws {
        try Self.expectSpotCorrupt(UInt32.max - 1, atRecordOffset: 16)  // kind string
        try Self.expectSpotCorrupt(UInt32(1000), atRecordOffset: 40)  // tag key string
        try Self.expectSpotCorrupt(UInt32(1000), atRecordOffset: 20)  // category string
        try Self.expectSpotCorrupt(UInt32(1), atRecordOffset: 20, spot: 1)  // category string that names no category
        try Self.expectSpotCorrupt(UInt32.max, atRecordOffset: 24)  // first attribute
        try Self.expectSpotCorrupt(UInt16.max, atRecordOffset: 32)  // attribute count
        try Self.expectSpotCorrupt(UInt32.max, atRecordOffset: 28, spot: 1)  // first merged
        try Self.expectSpotCorrupt(UInt16(3), atRecordOffset: 34, spot: 1)  // merged count
        try Self.expectSpotCorrupt(UInt8(3), atRecordOffset: 36)  // OSM type
        try Self.expectSpotCorrupt(Int32(900_000_001), atRecordOffset: 8)  // latitude
        try Self.expectSpotCorrupt(Int32.min, atRecordOffset: 12)  // longitude
        try Self.expectSpotCorrupt(UInt32.max, atRecordOffset: 0, section: "ATTR", reading: 0)  // attribute key string
        try Self.expectSpotCorrupt(UInt32.max, atRecordOffset: 4, spot: 3, section: "ATTR", reading: 0)  // attribute value string
        try Self.expectSpotCorrupt(UInt8(7), atRecordOffset: 8, spot: 1, section: "MERG", reading: 1)  // merged OSM type of spot 1's second reference
    }

    @Test("string end offsets past the text or running backwards throw IndexError when read")
    func hostileStringEnds() throws {
        let strings = Self.small.section("STRS")
        let count = Int(Self.small.load(UInt32.self, at: strings.offset))
        for (entry, end) in [(0, UInt32.max), (0, UInt32(strings.length)), (1, UInt32(0)), (count - 1, UInt32.max)] {
            var bytes = Self.small
            bytes.store(end, at: strings.offset + 4 + 4 * entry)
            bytes.resealSection("STRS")
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                var failures = 0
                for position in 0..<reader.count {
                    do throws(IndexError) {
                        _ = try reader.spot(at: position)
                    } catch {
                        #expect(error.kind == .corrupt)
                        #expect(error.section == "STRS")
                        failures += 1
                    }
                }
                #expect(failures > 0, "string \(entry) ending at \(end)")
            }
        }
    }
}
