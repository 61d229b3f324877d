import Foundation
import SpotIndex
import Spots
import SpotTestSupport
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
        let metadata = IndexMetadata(generator: "spots", buildTime: nil, inputs: [.init(name: "x.osm", bytes: 9)], bbox: nil, statistics: ["spots": 4])
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

    /// Spots whose names and attributes make string tables of several blocks, with shared
    /// prefixes and byte-pair codes, and a text index of more than one block of tokens.
    static let wordySpots: [Spot] = {
        let kinds: [(String, Category)] = [("cafe", .cafe), ("restaurant", .restaurant), ("bar", .nightlife)]
        // Words that differ at the start and share their ends, so that front coding leaves pairs to code.
        let words = [
            "action", "caution", "diction", "edition", "fiction", "mention", "motion", "nation", "notion", "option", "portion", "potion",
            "ration", "section", "station", "suction", "tension", "version", "vision", "lotion", "fashion", "mission", "session", "passion",
        ]
        return words.indices.map { i in
            Spot(
                ref: OSMRef(OSMType.allCases[i % 3], Int64(i * 7 - 40)),
                coordinate: Coordinate(latitudeE7: Int32(i) * 100_000, longitudeE7: Int32(i % 5) * 100_000)!,
                tagKey: "amenity", kind: kinds[i % 3].0, category: kinds[i % 3].1, name: "Kahvila \(words[i].capitalized) \(i)",
                names: ["fi": "Kahvila \(i)", "en": "Café \(words[(i + 5) % words.count])"], address: ["street": "Kalevankatu", "housenumber": "\(i)"])
        }
    }()

    static let wordy = SpotIndexWriter.encode(wordySpots, metadata: RoundTripTests.emptyMetadata)

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
        for rank in 0..<reader.count {
            if let spot = attempt("rank \(rank)", { try reader.spot(atRank: rank) }) {
                #expect((0..<reader.count).contains(spot), sourceLocation: sourceLocation)
            }
        }
        for ref in probeRefs {
            if let found = attempt("lookup \(ref)", { try reader.spotNumber(for: ref) }), let found {
                #expect((0..<reader.count).contains(found), sourceLocation: sourceLocation)
            }
        }
        _ = attempt("reference order") {
            try reader.forEachSpotInReferenceOrder { position in
                #expect((0..<reader.count).contains(position), sourceLocation: sourceLocation)
                return true
            }
        }
        // Reads `list` to its end: ranks ascending, below the spot count, as many as it said.
        func drain(_ list: RankList, _ what: String) {
            var list = list
            let length = list.remaining
            if let ranks = attempt(what, { try list.drain() }) {
                #expect(ranks.count == length, sourceLocation: sourceLocation)
                #expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 }, sourceLocation: sourceLocation)
                #expect(ranks.allSatisfy { (0..<reader.count).contains($0) }, sourceLocation: sourceLocation)
            }
        }
        for token in 0..<reader.tokenCount {
            if let lists = attempt("postings \(token)", { try reader.postingLists(ofToken: token) }) {
                drain(lists.startingName, "postings \(token)")
                drain(lists.others, "postings \(token)")
            }
        }
        for kind in reader.kinds.indices {
            if let list = attempt("kind list \(kind)", { try reader.kindList(ofKind: kind) }) {
                drain(list, "kind list \(kind)")
            }
        }
        for prefix in probePrefixes {
            guard let range = attempt("tokens with prefix \(prefix)", { try reader.tokens(withPrefix: prefix) }) else { continue }
            #expect(range.lowerBound >= 0 && range.upperBound <= reader.tokenCount, sourceLocation: sourceLocation)
            _ = attempt("postings of prefix \(prefix)") {
                try reader.forEachPosting(ofTokens: range) { spot, _ in
                    #expect((0..<reader.count).contains(spot), sourceLocation: sourceLocation)
                }
            }
        }
        for (level, boxes) in reader.tree.levelCounts.enumerated() {
            for index in 0..<boxes { _ = reader.tree.box(level: level, node: index) }
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
        for bytes in [Self.small, Self.medium, Self.wordy] {
            let result = try Self.exercise(bytes)
            #expect(result.openError == nil)
            #expect(result.failures == [])
            #expect(result.badSections.isEmpty)
        }
        try withTemporaryFile(Self.small) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.count == 4)
            #expect(reader.tree.levelCounts == [1])
            try RoundTripTests.expectHolds(reader, Self.smallSpots)
        }
        try withTemporaryFile(Self.medium) { path throws in
            #expect(try SpotIndexReader(path: path).tree.levelCounts == [2, 1])
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

    @Test("another format version is corrupt, even with a matching header checksum", arguments: [0, 1, 3, UInt32.max] as [UInt32])
    func wrongVersion(version: UInt32) throws {
        var bytes = Self.small
        bytes.store(version, at: 8)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("version") == true)
    }

    @Test("a version 1 file is refused, the message naming both versions")
    func versionOne() throws {
        let expected = "format version 1; this reader knows version 2"
        var bytes = Self.small
        bytes.store(UInt32(1), at: 8)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt)
        #expect(error?.section == "header")
        #expect(error?.message == expected)
        // The same sections in a container assembled as version 1, and as version 2.
        let sections = RawIndex(Self.small).sectionContents
        #expect(try openingError(RawIndex.assemble(sections, version: 1))?.message == expected)
        #expect(try openingError(RawIndex.assemble(sections)) == nil)
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
        // The small index, and where it has only one block or level, one that has several.
        let fixtures = switch name {
        case "TREE": [Self.small, Self.medium]
        case "STRS", "TOKN", "POST": [Self.small, Self.wordy]
        default: [Self.small]
        }
        try withScratchFile { write in
            for fixture in fixtures {
                for position in fixture.section(name).range {
                    // Fewer masks on the larger fixtures, to keep the run short.
                    for mask: UInt8 in fixture == Self.small ? [0x01, 0x02, 0x10, 0x80, 0xFF] : [0x01, 0xFF] {
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
        for (name, record) in [("SPOT", 20), ("KIND", 12), ("REFS", 4), ("MERG", 16), ("MRGO", 4), ("TREE", 4)] {
            let section = Self.small.section(name)
            #expect(section.length % record == 0)
            try Self.expectCorrupt(patching: UInt64(section.length - 1), at: section.entryOffset + 16, section: name, "\(name) minus one")
            if section.length >= record {
                try Self.expectCorrupt(patching: UInt64(section.length - record / 2), at: section.entryOffset + 16, section: name, "\(name) half a record short")
            }
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
        let strings = try raw.strings("STRS").map { String(decoding: $0, as: UTF8.self) }
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

    @Test("spot records with OSM type code 3, an impossible coordinate or kind throw IndexError when read, reported in SPOT")
    func hostileSpotRecords() throws {
        let raw = RawIndex(Self.small)
        let kinds = UInt16(raw.kinds.count)
        for (position, spot) in raw.spots.enumerated() {
            let record = 20 * position
            for kind in [kinds, UInt16.max] {
                try Self.expectReadCorrupt(kind, at: record + 12, in: "SPOT", section: "SPOT", "kind \(kind)") { _ = try $0.kindNumber(at: position) }
                try Self.expectReadCorrupt(kind, at: record + 12, in: "SPOT", section: "SPOT", "kind \(kind)") { _ = try $0.kind(at: position) }
                try Self.expectReadCorrupt(kind, at: record + 12, in: "SPOT", section: "SPOT", "kind \(kind)") { _ = try $0.spot(at: position) }
            }
            // The low 16 bits of the reference with type code 3: this id's, all ones, and id 0's.
            for low in [spot.referenceLow | 3, 0xFFFF, 3] as [UInt16] {
                try Self.expectReadCorrupt(low, at: record + 14, in: "SPOT", section: "SPOT", "type 3, low bits \(low)") { _ = try $0.ref(at: position) }
                try Self.expectReadCorrupt(low, at: record + 14, in: "SPOT", section: "SPOT", "type 3, low bits \(low)") { _ = try $0.spot(at: position) }
            }
            for (value, field) in [(Int32(900_000_001), 0), (Int32(-900_000_001), 0), (Int32.min, 0), (Int32(1_800_000_001), 4), (Int32.min, 4), (Int32.max, 4)] {
                try Self.expectReadCorrupt(value, at: record + field, in: "SPOT", section: "SPOT", "field \(field) = \(value)") { _ = try $0.coordinate(at: position) }
                try Self.expectReadCorrupt(value, at: record + field, in: "SPOT", section: "SPOT", "field \(field) = \(value)") { _ = try $0.spot(at: position) }
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
                try Self.expectReadCorrupt(offset, at: 20 * position + 8, in: "SPOT", section: "ATTR", "spot \(position) at \(offset)") {
                    _ = try $0.spot(at: position)
                }
                if position > 0 {
                    try Self.expectReadCorrupt(offset, at: 20 * position + 8, in: "SPOT", section: "ATTR", "spot \(position) at \(offset)") {
                        _ = try $0.spot(at: position - 1)
                    }
                }
            }
            // A spot whose attributes start after the next spot's start.
            if position > 0, records[position - 1].attributes > 0 {
                try Self.expectReadCorrupt(records[position - 1].attributes - 1, at: 20 * position + 8, in: "SPOT", section: "ATTR") {
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
                    _ = try $0.spotNumber(for: ref)
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
                    _ = try $0.spotNumber(for: ref)
                }
            }
        }
        for (position, entry) in order.enumerated() {
            let ref = try #require(merged[Int(entry)].ref)
            for value in [UInt32(merged.count), UInt32.max] {
                try Self.expectReadCorrupt(value, at: 4 * position, in: "MRGO", section: "MRGO", "MRGO \(position) = \(value)") {
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
        for (position, spot) in order.enumerated() {
            let ref = try #require(raw.spots[Int(spot)].ref)
            for value in [UInt32(4), UInt32.max, UInt32(1) << 31] {
                try Self.expectReadCorrupt(value, at: 4 * position, in: "REFS", section: "REFS", "REFS \(position) = \(value)") {
                    _ = try $0.spotNumber(for: ref)
                }
                try Self.expectReadCorrupt(value, at: 4 * position, in: "REFS", section: "REFS", "REFS \(position) = \(value)") {
                    try $0.forEachSpotInReferenceOrder { _ in true }
                }
                try Self.expectReadCorrupt(value, at: 4 * position, in: "REFS", section: "REFS", "REFS \(position) = \(value)") {
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
        try Self.expectCorrupt(patching: UInt64(refs.length - 4), at: refs.entryOffset + 16, section: "REFS", "REFS one spot short")
        try Self.expectCorrupt(patching: UInt64(0), at: refs.entryOffset + 16, section: "REFS", "REFS empty")
        try Self.expectCorrupt(patching: UInt64(order.length - 4), at: order.entryOffset + 16, section: "MRGO", "MRGO one short")
        try Self.expectCorrupt(patching: UInt64(merged.length - 16), at: merged.entryOffset + 16, section: "MRGO", "MERG one short")
    }
}

@Suite("Hostile string tables")
struct HostileStringTableTests {
    static let fixtures = [DamageTests.small, DamageTests.medium, DamageTests.wordy]

    /// The first IndexError that opening `bytes` and decoding every string of both tables throws,
    /// or nil: reading every spot decodes every string of STRS (the pool holds only strings in
    /// use, so each block's last string is read), and a search for the empty prefix decodes every
    /// token of TOKN.
    static func firstError(_ bytes: [UInt8]) throws -> IndexError? {
        try withTemporaryFile(bytes) { path -> IndexError? in
            do throws(IndexError) {
                let reader = try SpotIndexReader(path: path)
                for position in 0..<reader.count { _ = try reader.spot(at: position) }
                _ = try reader.tokens(withPrefix: [])
                return nil
            } catch {
                return error
            }
        }
    }

    /// Expects `bytes` to fail with a corrupt IndexError naming `name`: on open when `onOpen`,
    /// else on open or when its strings are read.
    static func expectRefused(
        _ bytes: [UInt8], _ name: String, onOpen: Bool = false, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try onOpen ? openingError(bytes) : firstError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == name, comment, sourceLocation: sourceLocation)
    }

    /// `fixture` with string table `name` replaced by `table`.
    static func replacing(_ name: String, in fixture: [UInt8], with table: RawStringTable) -> [UInt8] {
        RawIndex(fixture).replacing(name, with: table.encoded)
    }

    @Test("the fixtures' tables decode, every string is read by the probe, and reassembling a decoded table changes nothing")
    func fixtures() throws {
        for fixture in Self.fixtures {
            #expect(try Self.firstError(fixture) == nil)
            for name in ["STRS", "TOKN"] {
                let table = try RawIndex(fixture).stringTable(name)
                #expect(Self.replacing(name, in: fixture, with: table) == fixture)
            }
        }
        for name in ["STRS", "TOKN"] {
            let table = try RawIndex(DamageTests.wordy).stringTable(name)
            // The wordy fixture's tables have several blocks, codes and shared prefixes.
            #expect(table.blockOffsets.count > 1, "\(name)")
            #expect(!table.pairs.isEmpty, "\(name)")
            #expect(try table.entries().contains { $0.shared > 0 }, "\(name)")
        }
        // Reading the spots reads every string of the pool: each is a kind's or an attribute's.
        let raw = RawIndex(DamageTests.small)
        let used = Set(raw.kinds.flatMap { [$0.key, $0.value, $0.category] } + (try raw.attributes()).joined().flatMap { [$0.key, $0.value] })
        #expect(used.subtracting([UInt32.max]) == Set(0..<UInt32(try raw.strings("STRS").count)))
    }

    @Test("a string table too short for its header, or whose string count needs more block offsets than fit, is corrupt on open",
          arguments: ["STRS", "TOKN"])
    func countTooLarge(name: String) throws {
        for fixture in Self.fixtures {
            let table = try RawIndex(fixture).stringTable(name)
            let section = fixture.section(name)
            let offsetsStart = 12 + 3 * table.pairs.count + table.padding.count
            // The largest count whose block offsets fit, and no larger than the section.
            let fits = min(section.length, (section.length - offsetsStart) / 4 * Int(table.blockSize))
            for count in [fits + 1, fits + 16, fits + 1_000, Int(Int32.max), Int(UInt32.max)] {
                var bytes = fixture
                bytes.store(UInt32(count), at: section.offset)
                bytes.resealSection(name)
                try Self.expectRefused(bytes, name, onOpen: true, "count \(count)")
            }
            for length in [0, 3, 4, 11] {
                try Self.expectRefused(RawIndex(fixture).replacing(name, with: Array(table.encoded.prefix(length))), name, onOpen: true, "\(length) bytes")
            }
        }
    }

    @Test("a block size of 0 or a pair count over 256 is corrupt on open", arguments: ["STRS", "TOKN"])
    func badHeader(name: String) throws {
        for fixture in Self.fixtures {
            let section = fixture.section(name)
            for (field, value) in [(4, UInt32(0)), (8, 257), (8, 1_000), (8, UInt32.max)] {
                var bytes = fixture
                bytes.store(value, at: section.offset + field)
                bytes.resealSection(name)
                try Self.expectRefused(bytes, name, onOpen: true, "field \(field) = \(value)")
            }
        }
    }

    @Test("a pair table that defines a code twice, by itself, or longer than 64 bytes is corrupt on open; one that keeps the rules opens",
          arguments: ["STRS", "TOKN"])
    func badPairs(name: String) throws {
        for fixture in Self.fixtures {
            let table = try RawIndex(fixture).stringTable(name)
            // Byte values in no entry and no pair, so that new codes change no string.
            let free = (0...255).map(UInt8.init).filter { byte in
                !table.entryBytes.contains(byte) && !table.pairs.contains { [$0.code, $0.left, $0.right].contains(byte) }
            }
            #expect(free.count >= 8)
            let c = Array(free.prefix(8))
            let a = UInt8(ascii: "a")
            let b = UInt8(ascii: "b")
            typealias Pair = RawStringTable.Pair
            // c[0] ... c[5] stand for 2, 4, ... 64 a's.
            let doubling = [Pair(code: c[0], left: a, right: a)] + (1..<6).map { Pair(code: c[$0], left: c[$0 - 1], right: c[$0 - 1]) }
            let valid: [(String, [Pair])] = [("one more pair", [Pair(code: c[0], left: a, right: b)]), ("codes up to 64 bytes", doubling)]
            for (label, pairs) in valid {
                var changed = table
                changed.appendPairs(pairs)
                let bytes = Self.replacing(name, in: fixture, with: changed)
                #expect(try Self.firstError(bytes) == nil, "\(label)")
                #expect(try RawIndex(bytes).strings(name) == table.strings(), "\(label)")
            }
            var broken: [(String, [Pair])] = [
                ("a code twice", [Pair(code: c[0], left: a, right: a), Pair(code: c[0], left: a, right: b)]),
                ("a code as its own left", [Pair(code: c[0], left: c[0], right: a)]),
                ("a code as its own right", [Pair(code: c[0], left: a, right: c[0])]),
                ("a code of 65 bytes", doubling + [Pair(code: c[6], left: c[5], right: a)]),
                ("a code of 128 bytes", doubling + [Pair(code: c[6], left: c[5], right: c[5])]),
            ]
            if let first = table.pairs.first {
                broken.append(("a code of the table again", [Pair(code: first.code, left: a, right: a)]))
            }
            for (label, pairs) in broken {
                var changed = table
                changed.appendPairs(pairs)
                try Self.expectRefused(Self.replacing(name, in: fixture, with: changed), name, onOpen: true, "\(label)")
            }
        }
    }

    @Test("a pair that uses a code defined only by a later pair is corrupt on open (FORMAT.md: pair k may use only plain bytes and earlier codes)",
          arguments: ["STRS", "TOKN"])
    func forwardCode(name: String) throws {
        let table = try RawIndex(DamageTests.small).stringTable(name)
        let free = (0...255).map(UInt8.init).filter { byte in
            !table.entryBytes.contains(byte) && !table.pairs.contains { [$0.code, $0.left, $0.right].contains(byte) }
        }
        let a = UInt8(ascii: "a")
        var changed = table
        changed.appendPairs([.init(code: free[0], left: free[1], right: a), .init(code: free[1], left: a, right: a)])
        #expect(throws: FormatViolation.self, "the tests' decoder refuses it") { try changed.expansions() }
        try Self.expectRefused(Self.replacing(name, in: DamageTests.small, with: changed), name, onOpen: true, "code \(free[0]) uses the later code \(free[1])")
    }

    @Test("a block offset at or past the end of the entries throws IndexError naming the table", arguments: ["STRS", "TOKN"])
    func blockOffsetPastEnd(name: String) throws {
        for fixture in Self.fixtures {
            let table = try RawIndex(fixture).stringTable(name)
            let end = UInt32(table.entryBytes.count)
            for block in table.blockOffsets.indices {
                for value in [end, end + 1, end + 1_000, UInt32.max] {
                    var changed = table
                    changed.blockOffsets[block] = value
                    try Self.expectRefused(Self.replacing(name, in: fixture, with: changed), name, "block \(block) at \(value) of \(end)")
                }
            }
        }
    }

    @Test("an entry sharing more bytes than the string before it has (any, at a block's start) throws IndexError naming the table",
          arguments: ["STRS", "TOKN"])
    func sharedTooLong(name: String) throws {
        for fixture in Self.fixtures {
            var table = try RawIndex(fixture).stringTable(name)
            let entries = try table.entries()
            let strings = try table.strings()
            for index in entries.indices {
                let available = index % Int(table.blockSize) == 0 ? 0 : strings[index - 1].count
                for shared in [available + 1, available + 200, Int(UInt32.max)] {
                    var changed = entries
                    changed[index].shared = shared
                    table.setEntries(changed)
                    try Self.expectRefused(Self.replacing(name, in: fixture, with: table), name, "entry \(index) shares \(shared) of \(available)")
                }
            }
        }
    }

    @Test("an entry whose length runs past the end of the table throws IndexError naming the table", arguments: ["STRS", "TOKN"])
    func lengthPastEnd(name: String) throws {
        for fixture in Self.fixtures {
            var table = try RawIndex(fixture).stringTable(name)
            let entries = try table.entries()
            let offsets = try table.entryOffsets()
            for index in entries.indices {
                // Just past the end: the entry's bytes and all that follow it, and one more.
                let rest = table.entryBytes.count - Int(offsets[index]) - entries[index].encoded.count + entries[index].length
                for length in [rest + 1, rest + 1_000, Int(UInt32.max)] {
                    var changed = entries
                    changed[index].length = length
                    table.setEntries(changed)
                    try Self.expectRefused(Self.replacing(name, in: fixture, with: table), name, "entry \(index) of length \(length), \(rest) left")
                }
            }
        }
    }
}

@Suite("Hostile posting lists")
struct HostilePostingTests {
    static let expected = ExpectedIndex(DamageTests.wordySpots)
    /// The wordy index with POST as the tests encode it from FORMAT.md.
    static let base = RawIndex(DamageTests.wordy).replacing("POST", with: expected.encodedPostings())
    static let tokens = expected.tokens.count
    static let spots = DamageTests.wordySpots.count

    /// `base` with POST encoded from the expected entries, changed by `change`.
    static func changed(blockSize: Int = 16, _ change: (inout [RawPostings.Entry]) -> Void) -> [UInt8] {
        var entries = expected.postings.map { RawPostings.Entry(starting: $0.starting, others: $0.others) }
        change(&entries)
        return RawIndex(base).replacing("POST", with: RawPostings(entries: entries, blockSize: blockSize).encoded)
    }

    /// `base` with POST's bytes replaced by `contents`.
    static func replaced(_ contents: [UInt8]) -> [UInt8] { RawIndex(base).replacing("POST", with: contents) }

    /// Expects reading token `token`'s lists, and every posting of every token, to throw a corrupt IndexError naming POST.
    static func expectReadRefused(_ bytes: [UInt8], token: Int, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let errors = try readingErrors(bytes, [{ _ = try $0.postingRanks(ofToken: token) }, { _ = try $0.allPostings(ofTokens: 0..<tokens) }])
        for error in errors {
            #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
            #expect(error?.section == "POST", comment, sourceLocation: sourceLocation)
        }
    }

    static func expectOpenRefused(_ bytes: [UInt8], _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == "POST", comment, sourceLocation: sourceLocation)
    }

    @Test("POST encoded as FORMAT.md prescribes reads back every token's lists")
    func base() throws {
        #expect(Self.tokens > 16, "more than one block")
        try withTemporaryFile(Self.base) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.tokenCount == Self.tokens)
            for token in 0..<Self.tokens {
                let read = try reader.postingRanks(ofToken: token)
                #expect(read.starting == Self.expected.postings[token].starting)
                #expect(read.others == Self.expected.postings[token].others)
            }
            #expect(try reader.allPostings(ofTokens: 0..<Self.tokens).count == Self.expected.postings.map { $0.starting.count + $0.others.count }.reduce(0, +))
        }
        #expect(try DamageTests.exercise(Self.base).failures == [])
    }

    @Test("a token count other than TOKN's, a block size of 0, or block offsets that do not fit are corrupt on open, reported in POST")
    func header() throws {
        let contents = Self.base.contents(of: "POST")
        for count in [0, Self.tokens - 1, Self.tokens + 1, 2 * Self.tokens, Int(UInt32.max)] {
            try Self.expectOpenRefused(Self.replaced(le32(UInt32(count)) + contents.dropFirst(4)), "count \(count) of \(Self.tokens)")
        }
        try Self.expectOpenRefused(Self.replaced(Array(contents.prefix(4)) + le32(0) + contents.dropFirst(8)), "block size 0")
        let blocks = (Self.tokens + 15) / 16
        for length in [0, 4, 7, 8, 8 + 4 * blocks - 1] {
            try Self.expectOpenRefused(Self.replaced(Array(contents.prefix(length))), "\(length) bytes")
        }
        // Blocks of one token need an offset per token; the section holds them but not the entries.
        let offsetsWithoutEntries = le32(UInt32(Self.tokens), 1) + [UInt8](repeating: 0, count: 4 * Self.tokens - 1)
        try Self.expectOpenRefused(Self.replaced(offsetsWithoutEntries), "block size 1, one offset byte short")
    }

    @Test("an entry whose stated list lengths run past the section throws IndexError on reading it or a later token of its block, reported in POST")
    func lengthsPastSection() throws {
        for token in 0..<Self.tokens {
            for (label, change) in [
                ("name-starting list", { (entry: inout RawPostings.Entry) in entry.startingLength = 0x0FFF_FFFF }),
                ("other list", { (entry: inout RawPostings.Entry) in entry.othersLength = 0x0FFF_FFFF }),
                ("both lists", { (entry: inout RawPostings.Entry) in entry.othersLength = Int(UInt32.max) }),
            ] as [(String, (inout RawPostings.Entry) -> Void)] {
                let bytes = Self.changed { change(&$0[token]) }
                try Self.expectReadRefused(bytes, token: token, "token \(token), \(label)")
                if token % 16 != 15 && token + 1 < Self.tokens {
                    try Self.expectReadRefused(bytes, token: token + 1, "token \(token + 1) after \(token), \(label)")
                }
            }
        }
        // The last entry just one byte too long.
        let last = Self.tokens - 1
        try Self.expectReadRefused(Self.changed { $0[last].othersLength += 1 }, token: last, "the last entry one byte long")
    }

    @Test("a block offset at or past the end of the entries throws IndexError on reading the block's tokens, reported in POST")
    func blockOffsetPastEnd() throws {
        var post = try RawPostings(Self.base.contents(of: "POST"))
        let end = UInt32(post.entryBytes.count)
        let original = post.blockOffsets
        for block in original.indices {
            for value in [end, end + 1, UInt32.max] {
                post.blockOffsets = original
                post.blockOffsets[block] = value
                let bytes = Self.replaced(post.encoded)
                for token in stride(from: 16 * block, to: min(16 * block + 16, Self.tokens), by: 5) {
                    try Self.expectReadRefused(bytes, token: token, "block \(block) at \(value), token \(token)")
                }
            }
        }
    }

    @Test("a rank list whose count is longer than its bytes, or whose ranks run past the last spot, throws IndexError when read, reported in POST")
    func hostileRankLists() throws {
        let n = Self.spots
        let lists: [(String, [UInt8])] = [
            ("count 3 of one rank", varint(3) + varint(0)), ("count 2 of one rank", varint(2) + varint(0)),
            ("count 2^28 in 5 bytes", varint(1 << 28) + [0]), ("count alone", varint(1)), ("no bytes", []),
            ("rank N", rankList([n])), ("ranks 0 and N", rankList([0, n])), ("ranks 1 and N + 5", rankList([1, n + 5])),
            ("a gap of 2^32 - 1", varint(1) + varint(Int(UInt32.max))), ("a varint past 32 bits", varint(1) + [0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
            ("a last varint cut short", varint(1) + [0x80]),
        ]
        for token in 0..<Self.tokens {
            for (label, list) in lists {
                try Self.expectReadRefused(Self.changed { entries in
                    entries[token] = RawPostings.Entry(startingBytes: list, othersBytes: entries[token].others)
                }, token: token, "token \(token), name-starting list: \(label)")
                try Self.expectReadRefused(Self.changed { entries in
                    entries[token] = RawPostings.Entry(startingBytes: entries[token].starting, othersBytes: list)
                }, token: token, "token \(token), other list: \(label)")
            }
        }
    }

    @Test("an entry's lists are skipped unread: damage inside them leaves the other tokens of its block readable")
    func damageStaysInItsEntry() throws {
        for token in 0..<Self.tokens {
            let bytes = Self.changed { $0[token] = RawPostings.Entry(startingBytes: rankList([Self.spots]), othersBytes: varint(7)) }
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                for other in 0..<Self.tokens where other != token {
                    let read = try reader.postingRanks(ofToken: other)
                    #expect(read.starting == Self.expected.postings[other].starting, "token \(other) beside \(token)")
                    #expect(read.others == Self.expected.postings[other].others, "token \(other) beside \(token)")
                }
            }
        }
    }

    @Test("blocks of any size read the same lists")
    func blockSizes() throws {
        for blockSize in [1, 2, 7, 16, Self.tokens, Self.tokens + 1, Int(UInt32.max)] {
            let bytes = Self.changed(blockSize: blockSize) { _ in }
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                for token in 0..<Self.tokens {
                    let read = try reader.postingRanks(ofToken: token)
                    #expect(read.starting == Self.expected.postings[token].starting, "block size \(blockSize), token \(token)")
                    #expect(read.others == Self.expected.postings[token].others, "block size \(blockSize), token \(token)")
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
    static var fixtures: [[UInt8]] { [small, medium, shared] }

    static func expectCorruptOnOpen(_ bytes: [UInt8], _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == "KLST", comment, sourceLocation: sourceLocation)
    }

    /// Expects reading kind `kind`'s list to its end to throw a corrupt IndexError naming KLST.
    static func expectReadRefused(_ bytes: [UInt8], kind: Int, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try readingError(bytes) { _ = try $0.kindRanks(ofKind: kind) }
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == "KLST", comment, sourceLocation: sourceLocation)
    }

    @Test("the fixtures' kind lists are as the format says, and reassembling their sections gives the same bytes")
    func fixtures() throws {
        for fixture in Self.fixtures + [Self.empty] {
            let raw = RawIndex(fixture)
            #expect(RawIndex.assemble(raw.sectionContents) == fixture)
            let klst = try raw.kindListSection()
            #expect(Int(klst.count) == raw.kinds.count)
            #expect(try klst.lists().joined().sorted() == Array(0..<raw.spots.count))
        }
        #expect(try RawIndex(Self.small).kindListSection().lists().map(\.count) == [1, 1, 1, 1], "four kinds of one spot each")
        #expect(RawIndex(Self.medium).kinds.count > 2)
        let shared = try RawIndex(Self.shared).kindListSection().lists()
        #expect(shared.map(\.count).sorted() == [3, 3, 6])
        #expect(shared.contains { list in zip(list, list.dropFirst()).contains { $1 > $0 + 1 } }, "some lists skip ranks")
    }

    @Test("a kind count that differs from the KIND records is corrupt on open, reported in KLST, whether or not the lists agree with it")
    func wrongKindCount() throws {
        for fixture in Self.fixtures {
            let raw = RawIndex(fixture)
            let kinds = raw.kinds.count
            let klst = fixture.section("KLST")
            // The count word alone.
            for count in [0, kinds - 1, kinds + 1, 2 * kinds, Int(Int32.max), Int(UInt32.max)] {
                var bytes = fixture
                bytes.store(UInt32(count), at: klst.offset)
                bytes.resealSection("KLST")
                try Self.expectCorruptOnOpen(bytes, "count \(count) of \(kinds)")
            }
            // Whole lists added or taken away, so that count, ends and lists agree with each other.
            let lists = try raw.kindListSection().lists()
            #expect(kinds > 1)
            for changed in [lists + [[]], lists + [[0], []], Array(lists.dropLast()), [Array(0..<raw.spots.count)], []] {
                try Self.expectCorruptOnOpen(raw.replacing("KLST", with: RawKindLists(lists: changed).encoded), "\(changed.count) lists for \(kinds) kinds")
            }
        }
        // An index of no spots and no kinds, claiming one empty list.
        try Self.expectCorruptOnOpen(RawIndex(Self.empty).replacing("KLST", with: RawKindLists(lists: [[]]).encoded), "one list for no kinds")
    }

    @Test("a kind list section too short for its ends, or whose last end is not the length of its lists, is corrupt on open, reported in KLST")
    func lastEndNotLength() throws {
        for fixture in Self.fixtures + [Self.empty] {
            let raw = RawIndex(fixture)
            let contents = fixture.contents(of: "KLST")
            var variants: [(String, [UInt8])] = [
                ("a byte more", contents + [0]), ("an empty list more", contents + rankList([])), ("empty", []),
                ("three bytes", Array(contents.prefix(3))),
            ]
            let klst = try raw.kindListSection()
            if klst.count > 0 {
                let length = UInt32(klst.listBytes.count)
                variants += [("a byte less", Array(contents.dropLast())), ("the count word alone", Array(contents.prefix(4))),
                             ("the ends alone", Array(contents.prefix(4 + 4 * Int(klst.count))))]
                for value in Set([0, length - 1, length + 1, 2 * length, UInt32.max]) where value != length {
                    var changed = klst
                    changed.ends[changed.ends.count - 1] = value
                    variants.append(("last end \(value) of \(length)", changed.encoded))
                }
            }
            for (label, variant) in variants {
                try Self.expectCorruptOnOpen(raw.replacing("KLST", with: variant), "\(label), \(variant.count) bytes")
            }
        }
    }

    @Test("a kind list ending past the lists or before it starts throws IndexError from kindList(ofKind:), reported in KLST")
    func hostileEnds() throws {
        for fixture in Self.fixtures {
            let raw = RawIndex(fixture)
            let klst = try raw.kindListSection()
            let length = UInt32(klst.listBytes.count)
            // The last end is checked on open (lastEndNotLength); these are the others.
            for kind in klst.ends.indices.dropLast() {
                func with(_ value: UInt32, at index: Int) -> [UInt8] {
                    var changed = klst
                    changed.ends[index] = value
                    return raw.replacing("KLST", with: changed.encoded)
                }
                for value in [length + 1, 2 * length + 7, UInt32(Int32.max), UInt32.max] {
                    // Its own list ends past the lists; the next one starts past its end.
                    try Self.expectReadRefused(with(value, at: kind), kind: kind, "kind \(kind) ends at \(value)")
                    try Self.expectReadRefused(with(value, at: kind), kind: kind + 1, "kind \(kind) ends at \(value), next")
                }
                // This list ends before it starts.
                let start = kind == 0 ? 0 : klst.ends[kind - 1]
                if start > 0 {
                    try Self.expectReadRefused(with(start - 1, at: kind), kind: kind, "kind \(kind) ends at \(start - 1) before \(start)")
                }
                // The next list starts after its end.
                try Self.expectReadRefused(with(klst.ends[kind + 1] + 1, at: kind), kind: kind + 1, "kind \(kind) ends after \(kind + 1)")
            }
        }
    }

    @Test("a kind list whose count is longer than its bytes, or whose ranks run past the last spot, throws IndexError when read; the other lists still read")
    func hostileRanks() throws {
        for fixture in Self.fixtures {
            let raw = RawIndex(fixture)
            let lists = try raw.kindListSection().lists()
            let n = raw.spots.count
            let variants: [(String, [UInt8])] = [
                ("rank N", rankList([n])), ("ranks 0 and N", rankList([0, n])), ("a gap of 2^32 - 1", varint(1) + varint(Int(UInt32.max))),
                ("count 3 of one rank", varint(3) + varint(0)), ("count 2 of one rank", varint(2) + varint(0)), ("no bytes", []),
                ("a varint past 32 bits", varint(1) + [0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), ("N + 1 ranks", rankList(Array(0...n))),
            ]
            for kind in lists.indices {
                for (label, list) in variants {
                    var encoded = lists.map(rankList)
                    encoded[kind] = list
                    let bytes = raw.replacing("KLST", with: RawKindLists(listBytes: encoded).encoded)
                    try Self.expectReadRefused(bytes, kind: kind, "kind \(kind): \(label)")
                    try withTemporaryFile(bytes) { path in
                        let reader = try SpotIndexReader(path: path)
                        for other in lists.indices where other != kind {
                            #expect(try reader.kindRanks(ofKind: other) == lists[other], "kind \(other) beside \(kind): \(label)")
                        }
                    }
                }
            }
        }
    }

    @Test("any value in any end or list byte of the kind lists opens (but a last end other than the lists' length), and every read fails with IndexError naming KLST or succeeds, never a crash")
    func everyWordAnyValue() throws {
        try withScratchFile { write in
            for fixture in Self.fixtures {
                let klst = try RawIndex(fixture).kindListSection()
                let kinds = Int(klst.count)
                let length = UInt32(klst.listBytes.count)
                let section = fixture.section("KLST")
                var variants: [(String, offset: Int, bytes: [UInt8], opens: Bool)] = []
                for kind in 0..<kinds {
                    for value in [0, 1, length - 1, length, length + 1, UInt32(Int32.max), UInt32(1) << 31, UInt32.max] {
                        variants.append(("end \(kind) = \(value)", 4 + 4 * kind, le32(value), kind < kinds - 1 || value == length))
                    }
                }
                for position in klst.listBytes.indices {
                    for value: UInt8 in [0, 1, 0x7F, 0x80, 0xFF] {
                        variants.append(("list byte \(position) = \(value)", 4 + 4 * kinds + position, [value], true))
                    }
                }
                for (label, offset, patch, opens) in variants {
                    var bytes = fixture
                    bytes.replaceSubrange(section.offset + offset..<section.offset + offset + patch.count, with: patch)
                    bytes.resealSection("KLST")
                    let result = try DamageTests.exercise(bytes, writing: write)
                    guard opens else {
                        #expect(result.openError?.kind == .corrupt && result.openError?.section == "KLST", "\(label)")
                        continue
                    }
                    #expect(result.openError == nil, "\(label)")
                    #expect(result.badSections.isEmpty, "\(label)")
                    let kindListFailures = result.failures.filter { $0.hasPrefix("kind list") }
                    #expect(kindListFailures.allSatisfy { $0.hasSuffix(": KLST") }, "\(label)")
                    if label.hasPrefix("end"), Int(label.split(separator: " ")[1])! < kinds - 1, patch.load(UInt32.self, at: 0) > length {
                        #expect(!kindListFailures.isEmpty, "\(label): an end past the lists must be caught")
                    }
                }
            }
        }
    }
}
