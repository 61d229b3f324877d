import Foundation
import SpotIndex
import Spots
import Testing

/// What reading a possibly damaged index came to.
struct ReadOutcome {
    /// The error opening threw, if it did.
    var openError: IndexError?
    /// How many reads threw (each a corrupt IndexError).
    var readErrors = 0
    /// The reads that threw, as "what: section".
    var failures: [String] = []
    /// The sections whose checksum does not match.
    var badSections: [String] = []
}

@Suite("Damaged index files")
struct DamageTests {
    /// A small index: four spots at different places, with attributes, other names, CJK and Latin
    /// names, merged references, one spot with no attributes, and category words.
    static let smallSpots: [Spot] = {
        func at(_ latitudeE7: Int32, _ longitudeE7: Int32) -> Coordinate { Coordinate(latitudeE7: latitudeE7, longitudeE7: longitudeE7)! }
        var fountain = Spot(ref: OSMRef(.node, 6), coordinate: at(350_000_000, 1_350_000_000), tagKey: "amenity", kind: "drinking_water",
                            category: .drinkingWater, name: "Fountain")
        fountain.otherNames = ["alt_name": "Wasser"]
        return [
            Spot(ref: OSMRef(.node, 1), coordinate: at(347_839_000, 1_346_939_000), tagKey: "amenity", kind: "cafe", category: .cafe,
                 name: "Café Central", names: ["ja": "カフェ"], address: ["street": "Main"], details: [.phone: "1"]),
            Spot(ref: OSMRef(.way, -2), coordinate: at(348_391_000, 1_346_939_000), tagKey: "tourism", kind: "castle", category: .castle,
                 name: "姫路城", merged: [OSMRef(.relation, 3), OSMRef(.node, 4)]),
            Spot(ref: OSMRef(.relation, 5), coordinate: at(347_000_000, 1_340_000_000), tagKey: "amenity", kind: "bench", category: nil),
            fountain,
        ]
    }()

    static let small: [UInt8] = {
        let metadata = IndexMetadata(generator: "spots", buildTime: nil, inputs: [.init(name: "x.osm", bytes: 9)], bboxE7: nil, statistics: ["spots": 4])
        return SpotIndexWriter.encode(smallSpots, metadata: metadata, categoryWords: ["cafe": [.cafe], "castle": [.castle, .fortress], "water": [.drinkingWater]])
    }()

    /// A larger index whose tree has two levels: 20 spots with few attributes, to keep it small.
    static let medium: [UInt8] = {
        var factory = SpotFactory(seed: 31)
        let spots = factory.uniqueSpots(20).map { spot in
            var spot = spot
            spot.address = [:]
            spot.details = [:]
            spot.names = [:]
            return spot
        }
        return SpotIndexWriter.encode(spots, metadata: factory.metadata(count: spots.count), categoryWords: factory.categoryWords())
    }()

    /// References looked up on every damaged index: the small index's own and merged ones, and some it lacks.
    static let probeRefs: [OSMRef] = smallSpots.flatMap { [$0.ref] + $0.merged }
        + [OSMRef(.node, 2), OSMRef(.way, 1), OSMRef(.relation, -2), OSMRef(.node, Int64.min), OSMRef(.relation, Int64.max)]
    /// Token prefixes looked up on every damaged index, partial UTF-8 sequences included.
    static let probePrefixes: [[UInt8]] = [[], Array("caf".utf8), Array("姫".utf8), Array("central".utf8), [0xFF], [0xE5], [0x00]]

    /// Opens `bytes`, then reads everything the reader offers, each read either succeeding or
    /// throwing a corrupt IndexError, and verifies checksums.
    static func exercise(_ bytes: [UInt8]) throws -> ReadOutcome {
        try withScratchFile { write in try exercise(bytes, writing: write) }
    }

    /// As `exercise(_:)`, through a scratch file that `write` fills.
    static func exercise(_ bytes: [UInt8], writing write: (_ bytes: [UInt8]) throws -> String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ReadOutcome
    {
        let path = try write(bytes)
        let reader: SpotIndexReader
        do throws(IndexError) {
            reader = try SpotIndexReader(path: path)
        } catch {
            return ReadOutcome(openError: error)
        }
        var outcome = ReadOutcome()
        func attempt<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) -> T? {
            do {
                return try body()
            } catch let error as IndexError {
                #expect(error.kind == .corrupt, "\(what())", sourceLocation: sourceLocation)
                outcome.readErrors += 1
                outcome.failures.append("\(what()): \(error.section ?? "-")")
            } catch {
                Issue.record("\(what()) threw \(error), not an IndexError", sourceLocation: sourceLocation)
            }
            return nil
        }
        for position in 0..<reader.count {
            _ = attempt("spot \(position)") { try reader.spot(at: position) }
            _ = attempt("ref \(position)") { try reader.ref(at: position) }
            _ = attempt("coordinate \(position)") { try reader.coordinate(at: position) }
            _ = attempt("kind \(position)") { try reader.kind(at: position) }
            _ = attempt("name \(position)") { try reader.name(at: position) }
            if let number = attempt("kind number \(position)", { try reader.kindNumber(at: position) }) {
                #expect(number < reader.kinds.count, sourceLocation: sourceLocation)
            }
        }
        for ref in probeRefs {
            if let found = attempt("lookup \(ref)", { try reader.spotIndex(for: ref) }), let found {
                #expect((0..<reader.count).contains(found), sourceLocation: sourceLocation)
            }
        }
        _ = attempt("reference order") {
            try reader.forEachSpotInReferenceOrder { position in
                #expect((0..<reader.count).contains(position), sourceLocation: sourceLocation)
                return true
            }
        }
        for token in 0..<reader.tokenCount {
            if let list = attempt("postings \(token)", { try reader.postings(ofToken: token) }) {
                #expect(list.allSatisfy { (0..<reader.count).contains($0.spot) }, sourceLocation: sourceLocation)
            }
            if let range = attempt("posting range \(token)", { try reader.postingRange(ofToken: token) }) {
                for position in range {
                    if let posting = attempt("posting \(position)", { try reader.posting(at: position) }) {
                        #expect((0..<reader.count).contains(posting.spot), sourceLocation: sourceLocation)
                    }
                }
            }
        }
        for kind in reader.kinds.indices {
            if let range = attempt("kind list range \(kind)", { try reader.kindListRange(ofKind: kind) }) {
                #expect(range.lowerBound >= 0 && range.upperBound <= reader.count, sourceLocation: sourceLocation)
            }
        }
        for position in 0..<reader.count {
            if let spot = attempt("kind list entry \(position)", { try reader.spot(inKindList: position) }) {
                #expect((0..<reader.count).contains(spot), sourceLocation: sourceLocation)
            }
        }
        for prefix in probePrefixes {
            let range = reader.tokens(withPrefix: prefix)
            #expect(range.lowerBound >= 0 && range.upperBound <= reader.tokenCount, sourceLocation: sourceLocation)
            _ = attempt("postings of prefix \(prefix)") {
                try reader.forEachPosting(ofTokens: range) { spot, _ in
                    #expect((0..<reader.count).contains(spot), sourceLocation: sourceLocation)
                }
            }
        }
        for (level, boxes) in reader.levelCounts.enumerated() {
            for index in 0..<boxes { _ = reader.box(level: level, index: index) }
        }
        _ = attempt("category words") { try reader.categoryWords() }
        _ = attempt("metadata") { try reader.metadata() }
        outcome.badSections = reader.verifyChecksums().filter { !$0.isValid }.map(\.section.name)
        return outcome
    }

    static func expectCorruptOnOpen(_ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
    }

    @Test("the fixtures themselves open and read cleanly")
    func fixtureIsValid() throws {
        for bytes in [Self.small, Self.medium] {
            let result = try Self.exercise(bytes)
            #expect(result.openError == nil)
            #expect(result.failures == [])
            #expect(result.badSections.isEmpty)
        }
        try withTemporaryFile(Self.small) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.count == 4)
            #expect(reader.levelCounts == [1])
            try RoundTripTests.expectHolds(reader, Self.smallSpots)
        }
        try withTemporaryFile(Self.medium) { path throws in
            #expect(try SpotIndexReader(path: path).levelCounts == [2, 1])
        }
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

    @Test("nonzero reserved header bytes are corrupt, even with a matching header checksum")
    func reservedHeaderWord() throws {
        for value: UInt32 in [1, 0x8000_0000] {
            var bytes = Self.small
            bytes.store(value, at: 28)
            try Self.expectCorruptOnOpen(bytes, "reserved \(value)")
        }
    }

    @Test("the index truncated to any shorter length is corrupt")
    func truncatedAtEveryLength() throws {
        try withScratchFile { write in
            for bytes in [Self.small, Self.medium] {
                for length in 0..<bytes.count {
                    let result = try Self.exercise(Array(bytes[..<length]), writing: write)
                    #expect(result.openError?.kind == .corrupt, "truncated to \(length) of \(bytes.count) bytes")
                }
            }
        }
    }

    @Test("a byte appended to the index makes it corrupt", arguments: [0x00, 0x0A, 0xFF] as [UInt8])
    func extraByte(byte: UInt8) throws {
        try Self.expectCorruptOnOpen(Self.small + [byte])
        try Self.expectCorruptOnOpen(Self.small + [UInt8](repeating: 0, count: 8))
    }

    @Test("a flipped header or section-table byte fails the header checksum")
    func headerChecksum() throws {
        let tableEnd = 32 + Self.small.rawSections.count * 32
        #expect(tableEnd == 32 + 13 * 32)
        for position in Array(0..<28) + Array(32..<tableEnd) {
            var bytes = Self.small
            bytes[position] ^= 0x01
            try Self.expectCorruptOnOpen(bytes, "byte \(position)")
        }
    }

    @Test("flipping any single byte never crashes: open or read fails with IndexError, or the checksum of its section fails",
          arguments: [0xFF, 0x01, 0x80] as [UInt8])
    func everySingleByteFlip(mask: UInt8) throws {
        let sections = Self.small.rawSections
        var opened = 0
        try withScratchFile { write in
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
                    #expect(result.failures == [])
                    // Only alignment padding lies outside every checksum (the header's reserved word must be zero).
                    #expect(position >= 32 + 32 * sections.count && Self.small[position] == 0, "byte \(position) is covered by nothing")
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
                    failedReads += result.readErrors
                }
            }
        }
        #expect(failedReads > 0, "flips of types, kinds, coordinates and attribute offsets must be caught when reading")
    }

    @Test("flipping bytes of any section, with its checksum recomputed, never crashes: open or each read fails with IndexError or succeeds",
          arguments: ["META", "STRS", "KIND", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "KLST", "TREE", "TOKN", "POST", "WORD"])
    func resealedFlips(name: String) throws {
        var opened = 0
        var failedReads = 0
        let fixtures = name == "TREE" ? [Self.small, Self.medium] : [Self.small]
        try withScratchFile { write in
            for fixture in fixtures {
                for position in fixture.section(name).range {
                    for mask: UInt8 in [0x01, 0x02, 0x10, 0x80, 0xFF] {
                        var bytes = fixture
                        bytes[position] ^= mask
                        bytes.resealSection(name)
                        let result = try Self.exercise(bytes, writing: write)
                        if let error = result.openError {
                            #expect(error.kind == .corrupt)
                            #expect(!["META", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "WORD"].contains(name), "\(name) is only read on demand: \(error)")
                            continue
                        }
                        opened += 1
                        failedReads += result.readErrors
                        #expect(result.badSections.isEmpty)
                    }
                }
            }
        }
        #expect(opened > 0)
        if ["META", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "KLST", "POST", "WORD"].contains(name) {
            #expect(failedReads > 0, "some damage to \(name) must be caught when reading")
        }
    }
}

@Suite("Hostile index headers")
struct HostileHeaderTests {
    static var small: [UInt8] { DamageTests.small }

    /// Patches `bytes` at `offset`, reseals the header checksum and expects a corrupt error on open.
    static func expectCorrupt<T: FixedWidthInteger>(
        patching value: T, at offset: Int, in bytes: [UInt8] = small, section: String? = nil, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var bytes = bytes
        bytes.store(value, at: offset)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        if let section { #expect(error?.section == section, comment, sourceLocation: sourceLocation) }
    }

    @Test("a recorded file size that differs from the file is corrupt", arguments: [0, 1, 31, UInt64.max, UInt64(Int64.max)] as [UInt64])
    func recordedSize(size: UInt64) throws {
        try Self.expectCorrupt(patching: size, at: 16)
        try Self.expectCorrupt(patching: UInt64(Self.small.count - 1), at: 16)
        try Self.expectCorrupt(patching: UInt64(Self.small.count + 1), at: 16)
    }

    @Test("section counts of zero, too few, too many, or a table past the end are corrupt", arguments: [0, 1, 4, 11, 12, 14, 64, 65, 1_000, UInt32.max] as [UInt32])
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
        let tableEnd = UInt64(32 + 32 * sections.count)
        for offset: UInt64 in [0, 8, 32, tableEnd - 8] {
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
        for (name, record) in [("SPOT", 24), ("KIND", 12), ("REFS", 4), ("MERG", 16), ("MRGO", 4), ("KLST", 4), ("TREE", 4), ("POST", 4)] {
            let section = Self.small.section(name)
            #expect(section.length % record == 0)
            try Self.expectCorrupt(patching: UInt64(section.length - 1), at: section.entryOffset + 16, section: name, "\(name) minus one")
            if section.length >= record {
                try Self.expectCorrupt(patching: UInt64(section.length - record / 2), at: section.entryOffset + 16, section: name, "\(name) half a record short")
            }
        }
    }

    @Test("a string count too large for its string table is corrupt on open", arguments: ["STRS", "TOKN"])
    func stringCountTooLarge(name: String) throws {
        let strings = Self.small.section(name)
        let fits = UInt32((strings.length - 4) / 4)
        for count in [fits + 1, fits + 1000, UInt32.max, UInt32(Int32.max)] {
            var bytes = Self.small
            bytes.store(count, at: strings.offset)
            bytes.resealSection(name)
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt, "count \(count)")
            #expect(error?.section == name)
        }
    }

    @Test("a string table shorter than its count word is corrupt on open", arguments: ["STRS", "TOKN"])
    func stringSectionTooShort(name: String) throws {
        let strings = Self.small.section(name)
        for length: UInt64 in [0, 3] {
            var bytes = Self.small
            bytes.store(length, at: strings.entryOffset + 16)
            bytes.resealHeader()
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt)
            #expect(error?.section == name)
        }
    }

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
            let bytes = Self.patched("META", with: patch + [UInt8](repeating: 0x20, count: Self.small.section("META").length - patch.count))
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                let error = #expect(throws: IndexError.self) { try reader.metadata() }
                #expect(error?.kind == .corrupt)
                #expect(error?.section == "META")
                #expect(try reader.categoryWords().count == 3, "the rest of the index still reads")
                try RoundTripTests.expectHolds(reader, DamageTests.smallSpots)
            }
        }
    }

    @Test("unknown categories in the words section throw on reading them, reported in WORD")
    func badWords() throws {
        let words = Self.small.section("WORD")
        let text = String(decoding: Self.small[words.range], as: UTF8.self)
        #expect(text == "cafe\tcafe\ncastle\tcastle\ndrinkingWater\twater\nfortress\tcastle\n")
        let unknown = Array(text.replacingOccurrences(of: "fortress", with: "fortres ").utf8)
        let glued = Array(text.replacingOccurrences(of: "castle\ndrinkingWater", with: "castle\tdrinkingWater").utf8)
        let spaces = [UInt8](repeating: 0x20, count: words.length)
        for patch in [Array("[".utf8), Array("\u{0}".utf8), Array("{\"cafe\":[\"cafe\"]}".utf8), unknown, Array(" cafe\tcafe".utf8), Array(text.uppercased().utf8)] {
            let bytes = Self.patched("WORD", with: patch + spaces.prefix(words.length - patch.count))
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                let error = #expect(throws: IndexError.self, "\(String(decoding: patch, as: UTF8.self).debugDescription)") { try reader.categoryWords() }
                #expect(error?.kind == .corrupt)
                #expect(error?.section == "WORD")
                #expect(try reader.metadata().generator == "spots", "the rest of the index still reads")
            }
        }
        // Lines run together read as other words, not as an error; the rest still reads.
        try withTemporaryFile(Self.patched("WORD", with: glued)) { path in
            let read = try SpotIndexReader(path: path).categoryWords()
            #expect(read["water"] == [.castle])
            #expect(read["drinkingWater"] == [.castle])
        }
    }

    /// Writes `bytes` to a fresh temporary file and returns its path (for exit tests, which capture nothing).
    static func temporaryIndex(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("SpotIndexTests-\(UUID().uuidString).spots").path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
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
                    _ = try reader.categoryWords()
                } catch {
                    guard error.kind == .corrupt, error.section == "WORD" else { exit(2) }
                }
            }
        }
    }

    @Test("kind records naming strings out of bounds or a string that is no category are corrupt on open, reported in KIND")
    func hostileKinds() throws {
        let raw = RawIndex(Self.small)
        let strings = raw.strings("STRS").map { String(decoding: $0, as: UTF8.self) }
        let count = UInt32(strings.count)
        let notACategory = UInt32(strings.firstIndex(of: "amenity")!)
        let kindWithCategory = raw.kinds.firstIndex { $0.category != UInt32.max }!
        let kind = Self.small.section("KIND").offset + 12 * kindWithCategory
        for (value, field) in [(count, 0), (UInt32.max, 0), (count, 4), (UInt32.max - 1, 4), (count, 8), (UInt32.max - 1, 8), (notACategory, 8)] {
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
            (DamageTests.medium, 8, 1), (DamageTests.medium, 8, 3), (DamageTests.medium, 12, 0), (DamageTests.medium, 12, 2),
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
                try Self.expectCorrupt(patching: UInt64(length), at: tree.entryOffset + 16, in: fixture, section: "TREE", "length \(length)")
            }
        }
    }

    @Test("a posting count that differs from the token count is corrupt on open, reported in POST")
    func postingCount() throws {
        let tokens = RawIndex(Self.small).strings("TOKN").count
        let post = Self.small.section("POST")
        for count in [0, tokens - 1, tokens + 1, Int(UInt32.max)] {
            var bytes = Self.small
            bytes.store(UInt32(count), at: post.offset)
            bytes.resealSection("POST")
            let error = try openingError(bytes)
            #expect(error?.kind == .corrupt, "count \(count)")
            #expect(error?.section == "POST", "count \(count)")
        }
        // The section too short for its own list ends.
        try Self.expectCorrupt(patching: UInt64(4 * tokens), at: post.entryOffset + 16, section: "POST")
    }

    /// Patches `value` at `offset` inside section `name` of `fixture`, recomputes its checksum,
    /// opens the index (which must succeed with valid checksums) and expects `read` to throw a
    /// corrupt IndexError, in `section` when given.
    static func expectReadCorrupt<T: FixedWidthInteger>(
        _ value: T, at offset: Int, in name: String, fixture: [UInt8] = small, section: String? = nil, _ comment: Comment? = nil,
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

    @Test("spot records with an impossible type, coordinate or kind throw IndexError when read, reported in SPOT")
    func hostileSpotRecords() throws {
        let kinds = UInt16(RawIndex(Self.small).kinds.count)
        for position in 0..<4 {
            let record = 24 * position
            for kind in [kinds, UInt16.max] {
                try Self.expectReadCorrupt(kind, at: record + 20, in: "SPOT", section: "SPOT", "kind \(kind)") { _ = try $0.kindNumber(at: position) }
                try Self.expectReadCorrupt(kind, at: record + 20, in: "SPOT", section: "SPOT", "kind \(kind)") { _ = try $0.kind(at: position) }
                try Self.expectReadCorrupt(kind, at: record + 20, in: "SPOT", section: "SPOT", "kind \(kind)") { _ = try $0.spot(at: position) }
            }
            for type: UInt8 in [3, 0x80, 0xFF] {
                try Self.expectReadCorrupt(type, at: record + 22, in: "SPOT", section: "SPOT", "type \(type)") { _ = try $0.ref(at: position) }
                try Self.expectReadCorrupt(type, at: record + 22, in: "SPOT", section: "SPOT", "type \(type)") { _ = try $0.spot(at: position) }
            }
            for (value, field) in [(Int32(900_000_001), 8), (Int32(-900_000_001), 8), (Int32.min, 8), (Int32(1_800_000_001), 12), (Int32.min, 12), (Int32.max, 12)] {
                try Self.expectReadCorrupt(value, at: record + field, in: "SPOT", section: "SPOT", "field \(field) = \(value)") { _ = try $0.coordinate(at: position) }
                try Self.expectReadCorrupt(value, at: record + field, in: "SPOT", section: "SPOT", "field \(field) = \(value)") { _ = try $0.spot(at: position) }
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
                try Self.expectReadCorrupt(offset, at: 24 * position + 16, in: "SPOT", section: "ATTR", "spot \(position) at \(offset)") {
                    _ = try $0.spot(at: position)
                }
                if position > 0 {
                    try Self.expectReadCorrupt(offset, at: 24 * position + 16, in: "SPOT", section: "ATTR", "spot \(position) at \(offset)") {
                        _ = try $0.spot(at: position - 1)
                    }
                }
            }
            // A spot whose attributes start after the next spot's start.
            if position > 0, records[position - 1].attributes > 0 {
                try Self.expectReadCorrupt(records[position - 1].attributes - 1, at: 24 * position + 16, in: "SPOT", section: "ATTR") {
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
        let pairs = raw.attributes
        let attributeLength = raw.section("ATTR").length
        let stringCount = raw.strings("STRS").count
        #expect(stringCount < 0x7F, "every string number fits one varint byte")
        var checked = 0
        for position in records.indices where !pairs[position].isEmpty {
            let start = Int(records[position].attributes)
            let end = position + 1 < records.count ? Int(records[position + 1].attributes) : attributeLength
            // A key, then a value, naming a string past the table.
            try Self.expectReadCorrupt(UInt8(0x7F), at: start, in: "ATTR", section: "STRS", "spot \(position) key") { _ = try $0.spot(at: position) }
            try Self.expectReadCorrupt(UInt8(0x7F), at: start + 1, in: "ATTR", section: "STRS", "spot \(position) value") { _ = try $0.spot(at: position) }
            // The last number continues past the spot's attributes.
            try Self.expectReadCorrupt(UInt8(0x81), at: end - 1, in: "ATTR", section: "ATTR", "spot \(position) last") { _ = try $0.spot(at: position) }
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

    @Test("merged references with an impossible type throw IndexError when their spot is read or they are looked up, reported in MERG")
    func hostileMergedRecords() throws {
        let raw = RawIndex(Self.small)
        let merged = raw.merged
        #expect(merged.count == 2)
        for (entry, record) in merged.enumerated() {
            let ref = try #require(record.ref)
            for type: UInt8 in [3, 7, 0xFF] {
                try Self.expectReadCorrupt(type, at: 16 * entry + 8, in: "MERG", section: "MERG", "MERG entry \(entry) type \(type), read") {
                    _ = try $0.spot(at: Int(record.spot))
                }
                try Self.expectReadCorrupt(type, at: 16 * entry + 8, in: "MERG", section: "MERG", "MERG entry \(entry) type \(type), looked up") {
                    _ = try $0.spotIndex(for: ref)
                }
            }
        }
    }

    @Test("merged references pointing past the last spot, or a merged order pointing past the merged references, throw IndexError when looked up")
    func hostileMergedPointers() throws {
        let raw = RawIndex(Self.small)
        let merged = raw.merged
        let order = raw.numbers("MRGO")
        for (entry, record) in merged.enumerated() {
            let ref = try #require(record.ref)
            for spot in [UInt32(4), UInt32.max] {
                try Self.expectReadCorrupt(spot, at: 16 * entry + 12, in: "MERG", section: "MERG", "\(ref) into spot \(spot)") {
                    _ = try $0.spotIndex(for: ref)
                }
            }
        }
        for (position, entry) in order.enumerated() {
            let ref = try #require(merged[Int(entry)].ref)
            for value in [UInt32(merged.count), UInt32.max] {
                try Self.expectReadCorrupt(value, at: 4 * position, in: "MRGO", section: "MRGO", "MRGO \(position) = \(value)") {
                    _ = try $0.spotIndex(for: ref)
                }
            }
        }
    }

    @Test("a reference order pointing past the last spot throws IndexError when looked up or walked, reported in REFS")
    func hostileReferenceOrder() throws {
        let raw = RawIndex(Self.small)
        let order = raw.numbers("REFS")
        #expect(order.count == 4)
        for (position, spot) in order.enumerated() {
            let record = raw.spots[Int(spot)]
            let ref = OSMRef(OSMType(rawValue: record.type)!, record.id)
            for value in [UInt32(4), UInt32.max, UInt32(1) << 31] {
                try Self.expectReadCorrupt(value, at: 4 * position, in: "REFS", section: "REFS", "REFS \(position) = \(value)") {
                    _ = try $0.spotIndex(for: ref)
                }
                try Self.expectReadCorrupt(value, at: 4 * position, in: "REFS", section: "REFS", "REFS \(position) = \(value)") {
                    try $0.forEachSpotInReferenceOrder { _ in true }
                }
            }
        }
    }

    @Test("reference tables whose length does not match the spots or the merged references are corrupt on open")
    func referenceTableCounts() throws {
        let refs = Self.small.section("REFS")
        let merged = Self.small.section("MERG")
        let order = Self.small.section("MRGO")
        try Self.expectCorrupt(patching: UInt64(refs.length - 4), at: refs.entryOffset + 16, section: "REFS", "REFS one spot short")
        try Self.expectCorrupt(patching: UInt64(0), at: refs.entryOffset + 16, section: "REFS", "REFS empty")
        try Self.expectCorrupt(patching: UInt64(order.length - 4), at: order.entryOffset + 16, section: "MRGO", "MRGO one short")
        try Self.expectCorrupt(patching: UInt64(merged.length - 16), at: merged.entryOffset + 16, section: "MRGO", "MERG one short")
    }

    @Test("posting lists past their section, running backwards or naming a spot past the last throw IndexError when read, reported in POST")
    func hostilePostings() throws {
        let raw = RawIndex(Self.small)
        let lists = raw.postings
        let tokens = lists.count
        #expect(tokens > 3)
        let listsStart = 4 + 4 * tokens
        for token in 0..<tokens {
            let end = 4 + 4 * token
            for value in [UInt32.max, UInt32(lists.joined().count + 1)] {
                try Self.expectReadCorrupt(value, at: end, in: "POST", section: "POST", "token \(token) ends at \(value)") { _ = try $0.postings(ofToken: token) }
                if token + 1 < tokens {
                    try Self.expectReadCorrupt(value, at: end, in: "POST", section: "POST", "token \(token) ends at \(value)") {
                        _ = try $0.postings(ofToken: token + 1)
                    }
                }
            }
            if token > 0, !lists[token - 1].isEmpty {
                // This list ends before the previous one does.
                try Self.expectReadCorrupt(UInt32(0), at: end, in: "POST", section: "POST", "token \(token) ends at 0") { _ = try $0.postings(ofToken: token) }
            }
        }
        let listEnds = lists.reduce(into: [Int]()) { ends, list in ends.append((ends.last ?? 0) + list.count) }
        for entry in 0..<listEnds.last! {
            let owner = listEnds.firstIndex { entry < $0 }!
            for spot in [UInt32(4), 0x7FFF_FFFF, 0x8000_0004, UInt32.max] {
                var bytes = Self.small
                bytes.store(spot, at: bytes.section("POST").offset + listsStart + 4 * entry)
                bytes.resealSection("POST")
                try withTemporaryFile(bytes) { path in
                    let reader = try SpotIndexReader(path: path)
                    let failing = (0..<tokens).filter { token in (try? reader.postings(ofToken: token)) == nil }
                    #expect(failing.contains(owner), "entry \(entry) = \(spot)")
                    let error = #expect(throws: IndexError.self) { try reader.postings(ofToken: failing.first ?? 0) }
                    #expect(error?.section == "POST")
                }
            }
        }
    }

    @Test("string end offsets past the text or running backwards: open fails for a kind's string, reading fails for an attribute's")
    func hostileStringEnds() throws {
        let raw = RawIndex(Self.small)
        let strings = raw.strings("STRS")
        let ends = raw.stringEnds("STRS")
        let textLength = UInt32(strings.map(\.count).reduce(0, +))
        let kindStrings = Set(raw.kinds.flatMap { [$0.key, $0.value, $0.category] })
        let categoryStrings = Set(raw.kinds.map(\.category))
        let attributes = raw.attributes
        var readFailures = 0
        var openFailures = 0
        for entry in strings.indices {
            let start = entry == 0 ? 0 : ends[entry - 1]
            for end in [UInt32.max, textLength + 1, UInt32(0)] {
                // Which strings the patch makes unreadable: this one, and (past the text) the next, which starts there.
                var broken: Set<UInt32> = []
                if end > textLength || start > end { broken.insert(UInt32(entry)) }
                if end > textLength, entry + 1 < strings.count { broken.insert(UInt32(entry + 1)) }
                if broken.isEmpty { continue }
                // Ending early also moves the next string's start to 0: it reads as other text.
                let changed: Set<UInt32> = end == 0 && entry + 1 < strings.count ? [UInt32(entry + 1)] : []
                var bytes = Self.small
                bytes.store(end, at: bytes.section("STRS").offset + 4 + 4 * entry)
                bytes.resealSection("STRS")
                let comment: Comment = "string \(entry) ending at \(end)"
                if !broken.isDisjoint(with: kindStrings) || !changed.isDisjoint(with: categoryStrings) {
                    let error = try openingError(bytes)
                    #expect(error?.kind == .corrupt, comment)
                    #expect(error?.section == "KIND", comment)
                    openFailures += 1
                    continue
                }
                try withTemporaryFile(bytes) { path in
                    let reader = try SpotIndexReader(path: path)
                    var failing: Set<Int> = []
                    for position in 0..<reader.count {
                        do throws(IndexError) {
                            _ = try reader.spot(at: position)
                        } catch {
                            #expect(error.kind == .corrupt, comment)
                            #expect(error.section == "STRS", comment)
                            failing.insert(position)
                        }
                    }
                    let expected = Set(attributes.indices.filter { position in
                        attributes[position].contains { broken.contains($0.key) || broken.contains($0.value) }
                    })
                    #expect(failing == expected, comment)
                    #expect(!failing.isEmpty, comment)
                    readFailures += failing.count
                }
            }
        }
        #expect(openFailures > 0 && readFailures > 0)
    }

    @Test("token end offsets past the text or running backwards never crash a prefix search")
    func hostileTokenEnds() throws {
        let raw = RawIndex(Self.small)
        let ends = raw.stringEnds("TOKN")
        try withScratchFile { write in
            for entry in ends.indices {
                for end in [UInt32.max, ends.last! + 1, 0] {
                    var bytes = Self.small
                    bytes.store(end, at: bytes.section("TOKN").offset + 4 + 4 * entry)
                    bytes.resealSection("TOKN")
                    let result = try DamageTests.exercise(bytes, writing: write)
                    #expect(result.openError == nil)
                    #expect(result.badSections.isEmpty)
                }
            }
        }
    }
}

@Suite("Hostile kind lists")
struct HostileKindListTests {
    static var small: [UInt8] { DamageTests.small }
    static var medium: [UInt8] { DamageTests.medium }
    static let empty = SpotIndexWriter.encode([], metadata: RoundTripTests.emptyMetadata)
    /// Twelve spots of three kinds (6, 3 and 3 spots), placed and numbered so that the file order
    /// differs from the reference order.
    static let shared: [UInt8] = {
        let kinds = ["cafe", "bench", "cafe", "toilets"]
        let spots = (0..<12).map { (i: Int) -> Spot in
            let ref = OSMRef(OSMType.allCases[i % 3], Int64(100 - 7 * i))
            let latitude = Int32(i * 5 % 12) * 1_000_000
            let longitude = Int32(i * 7 % 12) * 1_000_000
            let category: Category? = i % 2 == 0 ? .cafe : nil
            return Spot(
                ref: ref, coordinate: Coordinate(latitudeE7: latitude, longitudeE7: longitude)!, tagKey: "amenity", kind: kinds[i % 4],
                category: category)
        }
        return SpotIndexWriter.encode(spots, metadata: RoundTripTests.emptyMetadata)
    }()

    static func le32(_ values: [UInt32]) -> [UInt8] { values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } } }

    static func expectCorruptKindLists(_ bytes: [UInt8], _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == "KLST", comment, sourceLocation: sourceLocation)
    }

    @Test("the fixtures' kind lists are as the format says, and reassembling their sections gives the same bytes")
    func fixtures() throws {
        for fixture in [Self.small, Self.medium, Self.shared, Self.empty] {
            let raw = RawIndex(fixture)
            #expect(RawIndex.assemble(raw.sectionContents) == fixture)
            let lists = raw.kindLists
            #expect(Int(lists.count) == raw.kinds.count)
            #expect(lists.spots.count == raw.spots.count)
            #expect(lists.ends.last.map(Int.init) ?? 0 == raw.spots.count)
        }
        #expect(RawIndex(Self.small).kindLists.ends == [1, 2, 3, 4], "four kinds of one spot each")
        #expect(RawIndex(Self.medium).kinds.count > 2)
        #expect(RawIndex(Self.shared).kindLists.lists.map(\.count).sorted() == [3, 3, 6])
        let shared = RawIndex(Self.shared)
        #expect(shared.kindLists.spots != shared.numbers("REFS"), "the lists are not simply the reference order")
    }

    @Test("a kind count that differs from the KIND records is corrupt on open, reported in KLST, whether or not the length agrees")
    func wrongKindCount() throws {
        for fixture in [Self.small, Self.medium, Self.shared] {
            let raw = RawIndex(fixture)
            let kinds = raw.kinds.count
            let klst = fixture.section("KLST")
            // The count word alone: the length no longer agrees.
            for count in [0, kinds - 1, kinds + 1, 2 * kinds, Int(Int32.max), Int(UInt32.max)] {
                var bytes = fixture
                bytes.store(UInt32(count), at: klst.offset)
                bytes.resealSection("KLST")
                try Self.expectCorruptKindLists(bytes, "count \(count) of \(kinds)")
            }
            // Count and ends together, so that the length is 4 + 4K + 4N for the stated K, which is not KIND's.
            let lists = raw.kindLists
            let n = UInt32(raw.spots.count)
            #expect(kinds > 1)
            for ends in [lists.ends + [n], lists.ends + [n, n], Array(lists.ends.dropLast()), [n], []] {
                let contents = Self.le32([UInt32(ends.count)] + ends + lists.spots)
                try Self.expectCorruptKindLists(raw.replacing("KLST", with: contents), "\(ends.count) lists for \(kinds) kinds")
            }
        }
        // An index of no spots and no kinds, claiming one empty list.
        try Self.expectCorruptKindLists(RawIndex(Self.empty).replacing("KLST", with: Self.le32([1, 0])), "one list for no kinds")
    }

    @Test("a kind list section whose length is not 4 + 4K + 4N is corrupt on open, reported in KLST")
    func wrongLength() throws {
        for fixture in [Self.small, Self.medium, Self.shared, Self.empty] {
            let raw = RawIndex(fixture)
            let contents = Array(fixture[fixture.section("KLST").range])
            var variants: [(String, [UInt8])] = [
                ("one spot number more", contents + Self.le32([0])), ("two more", contents + Self.le32([0, 0])),
                ("a byte more", contents + [0]), ("three bytes more", contents + [0, 0, 0]),
                ("a byte less", Array(contents.dropLast())), ("empty", []), ("three bytes", Array(contents.prefix(3))),
                ("the count word alone, doubled", Array(contents.prefix(4)) + Array(contents.prefix(4))),
            ]
            if contents.count >= 8 {
                variants += [("one number less", Array(contents.dropLast(4))), ("the count word alone", Array(contents.prefix(4)))]
            }
            if contents.count >= 12 { variants.append(("two numbers less", Array(contents.dropLast(8)))) }
            for (label, variant) in variants {
                try Self.expectCorruptKindLists(raw.replacing("KLST", with: variant), "\(label), \(variant.count) bytes for \(raw.spots.count) spots")
            }
            // The section table's length shortened in place, the header resealed.
            let klst = fixture.section("KLST")
            for length in Set([0, 3, 4, klst.length - 4, klst.length - 1].filter { $0 >= 0 && $0 != klst.length }) {
                try HostileHeaderTests.expectCorrupt(patching: UInt64(length), at: klst.entryOffset + 16, in: fixture, section: "KLST", "length \(length)")
            }
        }
    }

    @Test("kind lists whose last end is not the spot count are corrupt on open, reported in KLST")
    func lastEndNotSpotCount() throws {
        for fixture in [Self.small, Self.medium, Self.shared] {
            let raw = RawIndex(fixture)
            let lists = raw.kindLists
            let n = UInt32(raw.spots.count)
            for value in Set([0, n - 1, n + 1, UInt32.max]) where value != n {
                let contents = Self.le32([UInt32(lists.ends.count)] + lists.ends.dropLast() + [value] + lists.spots)
                try Self.expectCorruptKindLists(raw.replacing("KLST", with: contents), "last end \(value) of \(n)")
            }
        }
    }

    @Test("kind list ends past the last spot or running backwards throw IndexError from kindListRange, reported in KLST")
    func hostileEnds() throws {
        for fixture in [Self.small, Self.medium, Self.shared] {
            let raw = RawIndex(fixture)
            let ends = raw.kindLists.ends
            let n = UInt32(raw.spots.count)
            // The last end is checked on open (lastEndNotSpotCount); these are the others.
            for kind in ends.indices.dropLast() {
                let offset = 4 + 4 * kind
                for value in [n + 1, 2 * n + 7, UInt32(Int32.max), UInt32.max] {
                    // Its own list ends past N; the next one starts past its end.
                    try HostileHeaderTests.expectReadCorrupt(value, at: offset, in: "KLST", fixture: fixture, section: "KLST", "kind \(kind) ends at \(value)") {
                        _ = try $0.kindListRange(ofKind: kind)
                    }
                    if kind + 1 < ends.count {
                        try HostileHeaderTests.expectReadCorrupt(value, at: offset, in: "KLST", fixture: fixture, section: "KLST", "kind \(kind) ends at \(value), next") {
                            _ = try $0.kindListRange(ofKind: kind + 1)
                        }
                    }
                }
                // This list ends before it starts.
                let start = kind == 0 ? 0 : ends[kind - 1]
                for value in Set([start &- 1, 0]) where start > 0 && value < start {
                    try HostileHeaderTests.expectReadCorrupt(value, at: offset, in: "KLST", fixture: fixture, section: "KLST", "kind \(kind) ends at \(value) before \(start)") {
                        _ = try $0.kindListRange(ofKind: kind)
                    }
                }
                // The previous list ends after this one does.
                if kind > 0 {
                    try HostileHeaderTests.expectReadCorrupt(ends[kind] + 1, at: offset - 4, in: "KLST", fixture: fixture, section: "KLST", "kind \(kind - 1) ends after \(kind)") {
                        _ = try $0.kindListRange(ofKind: kind)
                    }
                }
            }
        }
    }

    @Test("kind list entries naming a spot past the last throw IndexError from spot(inKindList:), reported in KLST")
    func hostileSpotNumbers() throws {
        for fixture in [Self.small, Self.medium, Self.shared] {
            let raw = RawIndex(fixture)
            let kinds = raw.kindLists.ends.count
            let n = UInt32(raw.spots.count)
            for position in 0..<Int(n) {
                for value in [n, n + 1, UInt32(1) << 31, UInt32.max] {
                    try HostileHeaderTests.expectReadCorrupt(
                        value, at: 4 + 4 * kinds + 4 * position, in: "KLST", fixture: fixture, section: "KLST", "entry \(position) = \(value)"
                    ) { _ = try $0.spot(inKindList: position) }
                }
            }
        }
    }

    @Test("any value in any end or entry of the kind lists opens (but a last end other than the spot count), and every read fails with IndexError naming KLST or succeeds, never a crash")
    func everyWordAnyValue() throws {
        try withScratchFile { write in
            for fixture in [Self.small, Self.medium, Self.shared] {
                let raw = RawIndex(fixture)
                let kinds = raw.kindLists.ends.count
                let n = UInt32(raw.spots.count)
                let klst = fixture.section("KLST")
                for word in 1..<klst.length / 4 {
                    let isEnd = word <= kinds
                    for value in [0, 1, n - 1, n, n + 1, UInt32(Int32.max), UInt32(1) << 31, UInt32.max] {
                        var bytes = fixture
                        bytes.store(value, at: klst.offset + 4 * word)
                        bytes.resealSection("KLST")
                        let comment: Comment = "\(isEnd ? "end" : "entry") \(word) = \(value)"
                        let result = try DamageTests.exercise(bytes, writing: write)
                        if word == kinds && value != n {
                            #expect(result.openError?.kind == .corrupt && result.openError?.section == "KLST", comment)
                            continue
                        }
                        #expect(result.openError == nil, comment)
                        #expect(result.badSections.isEmpty, comment)
                        #expect(result.failures.allSatisfy { $0.hasSuffix(": KLST") || !$0.hasPrefix("kind list") }, comment)
                        if isEnd ? value > n : value >= n {
                            #expect(result.failures.contains { $0.hasPrefix("kind list") && $0.hasSuffix(": KLST") }, comment)
                        }
                    }
                }
            }
        }
    }
}
