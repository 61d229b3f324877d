import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

/// The sections' contents behind a sound header: META, WORD, KIND, TREE, SPOT, ATTR, MERG, REFS.
extension HostileHeaderTests {
    /// `bytes` with `patch` written over the start of section `name`, its checksum recomputed.
    static func patched(_ name: String, in bytes: [UInt8] = small, at offset: Int = 0, with patch: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let section = bytes.section(name)
        precondition(offset + patch.count <= section.length)
        bytes.replaceSubrange(section.offset + offset..<section.offset + offset + patch.count, with: patch)
        bytes.resealSection(name)
        return bytes
    }

    @Test("garbage metadata opens, and reading the metadata throws, reported in META")
    func badMetadata() throws {
        for patch in [Array("[".utf8), Array("\u{0}".utf8), Array("{\"x\"".utf8), Array("{\"generator\":1}   ".utf8)] {
            let bytes = Self.patched(
                "META", with: patch + [UInt8](repeating: 0x20, count: Self.small.section("META").length - patch.count))
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                let error = #expect(throws: IndexError.self) { try reader.metadata() }
                #expect(error?.kind == .corrupt)
                #expect(error?.section == "META")
                #expect(try reader.storedSearchWords()?.categories.count == 3, "the rest of the index still reads")
                try RoundTripTests.expectHolds(reader, DamageTests.smallSpots)
            }
        }
    }

    @Test("unknown categories in the words section throw on reading them, reported in WORD")
    func badWords() throws {
        let words = Self.small.section("WORD")
        let text = String(decoding: Self.small[words.range], as: UTF8.self)
        #expect(
            text
                == "amenity=fountain\twasser\ncafe\tcafe\ncastle\tcastle\ncuisine=cake\tcake\n"
                + "cuisine=coffee_shop\tcoffee\ndrinkingWater\twater\nfortress\tcastle\n")
        let unknown = Array(text.replacingOccurrences(of: "fortress", with: "fortres ").utf8)
        let glued = Array(text.replacingOccurrences(of: "castle\ncuisine", with: "castle\tcuisine").utf8)
        let spaces = [UInt8](repeating: 0x20, count: words.length)
        for patch in [
            Array("[".utf8), Array("\u{0}".utf8), Array("{\"cafe\":[\"cafe\"]}".utf8), unknown,
            Array(" cafe\tcafe".utf8), Array(text.uppercased().utf8),
        ] {
            let bytes = Self.patched("WORD", with: patch + spaces.prefix(words.length - patch.count))
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                let error = #expect(
                    throws: IndexError.self, "\(String(decoding: patch, as: UTF8.self).debugDescription)"
                ) { try reader.storedSearchWords() }
                #expect(error?.kind == .corrupt)
                #expect(error?.section == "WORD")
                #expect(try reader.metadata().generator == "spots", "the rest of the index still reads")
            }
        }
        // Lines run together read as other words, not as an error; the rest still reads.
        try withTemporaryFile(Self.patched("WORD", with: glued)) { path in
            let read = try #require(try SpotIndexReader(path: path).storedSearchWords())
            #expect(read.categories["cuisine=cake"] == [.castle])
            #expect(read.categories["cake"] == [.castle])
            #expect(read.values["cake"] == nil)
        }
    }

    /// Writes `bytes` to a fresh temporary file and returns its path (for exit tests, which capture nothing).
    static func temporaryIndex(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "SpotIndexTests-\(UUID().uuidString).spots"
        ).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test("a words section with a line of tabs only throws IndexError or reads, and does not crash")
    func tabsOnlyWordLine() async {
        // In a child process: a crash fails this test instead of stopping the run.
        await #expect(processExitsWith: .success) {
            for patch in ["\t", "\t\t\n", "cafe\tcafe\n\t\n"] {
                let length = DamageTests.small.section("WORD").length
                let bytes = HostileHeaderTests.patched(
                    "WORD", with: Array(patch.utf8) + [UInt8](repeating: 0x0A, count: length - patch.utf8.count))
                let path = HostileHeaderTests.temporaryIndex(bytes)
                defer { try? FileManager.default.removeItem(atPath: path) }
                let reader = try SpotIndexReader(path: path)
                do throws(IndexError) {
                    _ = try reader.storedSearchWords()
                } catch {
                    guard error.kind == .corrupt, error.section == "WORD" else { exit(2) }
                }
            }
        }
    }

    @Test(
        "kind records naming strings out of bounds or a string that is no category are corrupt on open, reported in KIND"
    )
    func hostileKinds() throws {
        let raw = RawIndex(Self.small)
        let strings = try raw.strings("STRS").map { String(decoding: $0, as: UTF8.self) }
        let count = UInt32(strings.count)
        let notACategory = UInt32(strings.firstIndex(of: "amenity")!)
        let kindWithCategory = raw.kinds.firstIndex { $0.category != UInt32.max }!
        let kind = Self.small.section("KIND").offset + 12 * kindWithCategory
        for (value, field) in [
            (count, 0), (UInt32.max, 0), (count, 4), (UInt32.max - 1, 4), (count, 8), (UInt32.max - 1, 8),
            (notACategory, 8),
        ] {
            var bytes = Self.small
            bytes.store(value, at: kind + field)
            bytes.resealSection("KIND")
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt, "field \(field) = \(value)")
            #expect(error?.section == "KIND", "field \(field) = \(value)")
        }
        // A kind that loses its category is still a valid kind.
        var bytes = Self.small
        bytes.store(UInt32.max, at: kind + 8)
        bytes.resealSection("KIND")
        #expect(try openingError(bytes) == nil)
    }

    @Test("a tree header that does not match the spots is corrupt on open, reported in TREE")
    func hostileTreeHeader() throws {
        // The small index's tree is one level of one box; the medium one's, two levels of 2 and 1.
        let cases: [([UInt8], Int, UInt32)] = [
            (Self.small, 0, 0), (Self.small, 0, 1), (Self.small, 0, 2), (Self.small, 0, 3),  // node size
            (Self.small, 4, 0), (Self.small, 4, 2), (Self.small, 4, 33), (Self.small, 4, UInt32.max),  // level count
            (Self.small, 8, 0), (Self.small, 8, 2), (Self.small, 8, UInt32.max),  // boxes of level 0
            (DamageTests.medium, 0, 2), (DamageTests.medium, 0, 8), (DamageTests.medium, 0, 100),
            (DamageTests.medium, 4, 0), (DamageTests.medium, 4, 1), (DamageTests.medium, 4, 3),
            (DamageTests.medium, 8, 1), (DamageTests.medium, 8, 3), (DamageTests.medium, 12, 0),
            (DamageTests.medium, 12, 2),
        ]
        for (fixture, field, value) in cases {
            var bytes = fixture
            bytes.store(value, at: bytes.section("TREE").offset + field)
            bytes.resealSection("TREE")
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt, "field \(field) = \(value)")
            #expect(error?.section == "TREE", "field \(field) = \(value)")
        }
        // Too short for its header, or one box short.
        for fixture in [Self.small, DamageTests.medium] {
            let tree = fixture.section("TREE")
            for length in [0, 4, tree.length - 16] {
                try Self.expectCorrupt(
                    patching: UInt64(length), at: tree.entryOffset + 16, in: fixture, section: "TREE",
                    "length \(length)")
            }
        }
    }

    /// Patches `value` at `offset` inside section `name` of `fixture`, recomputes its checksum,
    /// opens the index (which must succeed with valid checksums) and expects `read` to throw a
    /// corrupt IndexError, in `section` when given.
    static func expectReadCorrupt<T: FixedWidthInteger>(
        _ value: T, at offset: Int, in name: String, fixture: [UInt8] = small, section: String? = nil,
        _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, read: (SpotIndexReader) throws -> Void
    ) throws {
        var bytes = fixture
        let target = bytes.section(name)
        precondition(offset + MemoryLayout<T>.size <= target.length, "patch outside \(name)")
        bytes.store(value, at: target.offset + offset)
        bytes.resealSection(name)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.verifyChecksums().allSatisfy { $0.isValid }, comment, sourceLocation: sourceLocation)
            let error = #expect(throws: IndexError.self, comment, sourceLocation: sourceLocation) { try read(reader) }
            #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
            if let section { #expect(error?.section == section, comment, sourceLocation: sourceLocation) }
        }
    }

    @Test(
        "spot records with OSM type code 3, an impossible coordinate or kind throw IndexError when read, reported in SPOT"
    )
    func hostileSpotRecords() throws {
        let raw = RawIndex(Self.small)
        let kinds = UInt16(raw.kinds.count)
        for (position, spot) in raw.spots.enumerated() {
            let record = 20 * position
            for kind in [kinds, UInt16.max] {
                try Self.expectReadCorrupt(kind, at: record + 12, in: "SPOT", section: "SPOT", "kind \(kind)") {
                    _ = try $0.kindNumber(at: position)
                }
                try Self.expectReadCorrupt(kind, at: record + 12, in: "SPOT", section: "SPOT", "kind \(kind)") {
                    _ = try $0.kind(at: position)
                }
                try Self.expectReadCorrupt(kind, at: record + 12, in: "SPOT", section: "SPOT", "kind \(kind)") {
                    _ = try $0.spot(at: position)
                }
            }
            // The low 16 bits of the reference with type code 3: this id's, all ones, and id 0's.
            for low in [spot.referenceLow | 3, 0xFFFF, 3] as [UInt16] {
                try Self.expectReadCorrupt(low, at: record + 14, in: "SPOT", section: "SPOT", "type 3, low bits \(low)")
                { _ = try $0.ref(at: position) }
                try Self.expectReadCorrupt(low, at: record + 14, in: "SPOT", section: "SPOT", "type 3, low bits \(low)")
                { _ = try $0.spot(at: position) }
            }
            for (value, field) in [
                (Int32(900_000_001), 0), (Int32(-900_000_001), 0), (Int32.min, 0), (Int32(1_800_000_001), 4),
                (Int32.min, 4), (Int32.max, 4),
            ] {
                try Self.expectReadCorrupt(
                    value, at: record + field, in: "SPOT", section: "SPOT", "field \(field) = \(value)"
                ) { _ = try $0.coordinate(at: position) }
                try Self.expectReadCorrupt(
                    value, at: record + field, in: "SPOT", section: "SPOT", "field \(field) = \(value)"
                ) { _ = try $0.spot(at: position) }
            }
        }
        // A negative id's high bits and any type code but 3 still read, as that type and id.
        for type in OSMType.allCases {
            var bytes = Self.small
            bytes.store(UInt16(0xFFFC) | UInt16(type.rawValue), at: bytes.section("SPOT").offset + 14)
            bytes.store(UInt32.max, at: bytes.section("SPOT").offset + 16)
            bytes.resealSection("SPOT")
            try withTemporaryFile(bytes) { path throws in
                #expect(try SpotIndexReader(path: path).ref(at: 0) == OSMRef(type, -1))
            }
        }
    }

    @Test("attribute offsets past the attributes or running backwards throw IndexError when read, reported in ATTR")
    func hostileAttributeOffsets() throws {
        let raw = RawIndex(Self.small)
        let records = raw.spots
        let attributes = UInt32(raw.section("ATTR").length)
        for position in records.indices {
            for offset in [attributes + 1, UInt32.max] {
                // The spot's own attributes start past the end; the one before it ends past the end.
                try Self.expectReadCorrupt(
                    offset, at: 20 * position + 8, in: "SPOT", section: "ATTR", "spot \(position) at \(offset)"
                ) {
                    _ = try $0.spot(at: position)
                }
                if position > 0 {
                    try Self.expectReadCorrupt(
                        offset, at: 20 * position + 8, in: "SPOT", section: "ATTR", "spot \(position) at \(offset)"
                    ) {
                        _ = try $0.spot(at: position - 1)
                    }
                }
            }
            // A spot whose attributes start after the next spot's start.
            if position > 0, records[position - 1].attributes > 0 {
                try Self.expectReadCorrupt(
                    records[position - 1].attributes - 1, at: 20 * position + 8, in: "SPOT", section: "ATTR"
                ) {
                    _ = try $0.spot(at: position - 1)
                }
            }
        }
        #expect(records.contains { $0.attributes > 0 }, "the fixture exercises backwards offsets")
    }

    @Test("attribute numbers naming no string, running past their spot, or too long throw IndexError when read")
    func hostileAttributeNumbers() throws {
        let raw = RawIndex(Self.small)
        let records = raw.spots
        let pairs = try raw.attributes()
        let attributeLength = raw.section("ATTR").length
        let stringCount = try raw.strings("STRS").count
        #expect(stringCount < 0x7F, "every string number fits one varint byte")
        var checked = 0
        for position in records.indices where !pairs[position].isEmpty {
            let start = Int(records[position].attributes)
            let end = position + 1 < records.count ? Int(records[position + 1].attributes) : attributeLength
            // A key, then a value, naming a string past the table.
            try Self.expectReadCorrupt(UInt8(0x7F), at: start, in: "ATTR", section: "STRS", "spot \(position) key") {
                _ = try $0.spot(at: position)
            }
            try Self.expectReadCorrupt(
                UInt8(0x7F), at: start + 1, in: "ATTR", section: "STRS", "spot \(position) value"
            ) { _ = try $0.spot(at: position) }
            // The last number continues past the spot's attributes.
            try Self.expectReadCorrupt(UInt8(0x81), at: end - 1, in: "ATTR", section: "ATTR", "spot \(position) last") {
                _ = try $0.spot(at: position)
            }
            // A number longer than 32 bits.
            if end - start >= 6 {
                var bytes = Self.small
                let section = bytes.section("ATTR")
                for i in 0..<5 { bytes[section.offset + start + i] = 0xFF }
                bytes[section.offset + start + 5] = 0x01
                bytes.resealSection("ATTR")
                try withTemporaryFile(bytes) { path in
                    let reader = try SpotIndexReader(path: path)
                    let error = #expect(throws: IndexError.self) { try reader.spot(at: position) }
                    #expect(error?.section == "ATTR")
                }
            }
            checked += 1
        }
        #expect(checked == 3, "three spots of the fixture have attributes")
    }

    @Test(
        "merged references with an impossible type throw IndexError when their spot is read or they are looked up, reported in MERG"
    )
    func hostileMergedRecords() throws {
        let raw = RawIndex(Self.small)
        let merged = raw.merged
        #expect(merged.count == 2)
        for (entry, record) in merged.enumerated() {
            let ref = try #require(record.ref)
            for type: UInt8 in [3, 7, 0xFF] {
                try Self.expectReadCorrupt(
                    type, at: 16 * entry + 8, in: "MERG", section: "MERG", "MERG entry \(entry) type \(type), read"
                ) {
                    _ = try $0.spot(at: Int(record.spot))
                }
                try Self.expectReadCorrupt(
                    type, at: 16 * entry + 8, in: "MERG", section: "MERG", "MERG entry \(entry) type \(type), looked up"
                ) {
                    _ = try $0.spotNumber(for: ref)
                }
            }
        }
    }

    @Test(
        "merged references pointing past the last spot, or a merged order pointing past the merged references, throw IndexError when looked up"
    )
    func hostileMergedPointers() throws {
        let raw = RawIndex(Self.small)
        let merged = raw.merged
        let order = raw.numbers("MRGO")
        #expect(raw.orderWidth("MRGO") == 1, "a few merged references: one byte each")
        for (entry, record) in merged.enumerated() {
            let ref = try #require(record.ref)
            for spot in [UInt32(4), UInt32.max] {
                try Self.expectReadCorrupt(
                    spot, at: 16 * entry + 12, in: "MERG", section: "MERG", "\(ref) into spot \(spot)"
                ) {
                    _ = try $0.spotNumber(for: ref)
                }
            }
        }
        for (position, entry) in order.enumerated() {
            let ref = try #require(merged[Int(entry)].ref)
            for value in [UInt8(merged.count), UInt8.max] {
                try Self.expectReadCorrupt(
                    value, at: position, in: "MRGO", section: "MRGO", "MRGO \(position) = \(value)"
                ) {
                    _ = try $0.spotNumber(for: ref)
                }
            }
        }
    }

    @Test("a reference order pointing past the last spot throws IndexError when looked up or walked, reported in REFS")
    func hostileReferenceOrder() throws {
        let raw = RawIndex(Self.small)
        let order = raw.numbers("REFS")
        #expect(order.count == 4)
        #expect(raw.orderWidth("REFS") == 1, "four spots: one byte each")
        for (position, spot) in order.enumerated() {
            let ref = try #require(raw.spots[Int(spot)].ref)
            for value in [UInt8(4), UInt8.max, UInt8(1) << 7] {
                try Self.expectReadCorrupt(
                    value, at: position, in: "REFS", section: "REFS", "REFS \(position) = \(value)"
                ) {
                    _ = try $0.spotNumber(for: ref)
                }
                try Self.expectReadCorrupt(
                    value, at: position, in: "REFS", section: "REFS", "REFS \(position) = \(value)"
                ) {
                    try $0.forEachSpotInReferenceOrder { _ in true }
                }
                try Self.expectReadCorrupt(
                    value, at: position, in: "REFS", section: "REFS", "REFS \(position) = \(value)"
                ) {
                    _ = try $0.spot(atRank: position)
                }
            }
        }
    }

    @Test("reference tables whose length does not match the spots or the merged references are corrupt on open")
    func referenceTableCounts() throws {
        let refs = Self.small.section("REFS")
        let merged = Self.small.section("MERG")
        let order = Self.small.section("MRGO")
        try Self.expectCorrupt(
            patching: UInt64(refs.length - 1), at: refs.entryOffset + 16, section: "REFS", "REFS one spot short")
        try Self.expectCorrupt(patching: UInt64(0), at: refs.entryOffset + 16, section: "REFS", "REFS empty")
        try Self.expectCorrupt(
            patching: UInt64(order.length - 1), at: order.entryOffset + 16, section: "MRGO", "MRGO one short")
        try Self.expectCorrupt(
            patching: UInt64(merged.length - 16), at: merged.entryOffset + 16, section: "MRGO", "MERG one short")
    }
}
