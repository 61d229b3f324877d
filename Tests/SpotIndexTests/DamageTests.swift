import Foundation
import SpotIndex
import SpotIndexWriting
import SpotTestSupport
import SpotText
import Spots
import Testing

@Suite("Damaged index files")
struct DamageTests {
    /// A small index: four spots at different places, with attributes, other names, CJK and Latin
    /// names, merged references, one spot with no attributes, and category words.
    static let smallSpots: [Spot] = {
        func at(_ latitudeE7: Int32, _ longitudeE7: Int32) -> Coordinate {
            Coordinate(latitudeE7: latitudeE7, longitudeE7: longitudeE7)!
        }
        var fountain = Spot(
            ref: OSMRef(.node, 6), coordinate: at(350_000_000, 1_350_000_000), tagKey: "amenity",
            kind: "drinking_water",
            category: .drinkingWater, name: "Fountain")
        fountain.otherNames = ["alt_name": "Trinkwasser"]
        return [
            Spot(
                ref: OSMRef(.node, 1), coordinate: at(347_839_000, 1_346_939_000), tagKey: "amenity", kind: "cafe",
                category: .cafe,
                name: "Café Central", names: ["ja": "カフェ"], address: ["street": "Main"],
                details: [.phone: "1", .cuisine: "coffee_shop;cake"]),
            Spot(
                ref: OSMRef(.way, -2), coordinate: at(348_391_000, 1_346_939_000), tagKey: "tourism", kind: "castle",
                category: .castle,
                name: "姫路城", merged: [OSMRef(.relation, 3), OSMRef(.node, 4)]),
            Spot(
                ref: OSMRef(.relation, 5), coordinate: at(347_000_000, 1_340_000_000), tagKey: "amenity", kind: "bench",
                category: nil),
            fountain,
        ]
    }()

    static let small: [UInt8] = {
        let metadata = IndexMetadata(
            generator: "spots", buildTime: nil, inputs: [.init(name: "x.osm", bytes: 9)], bbox: nil,
            statistics: ["spots": 4])
        return SpotIndexWriter.encode(
            smallSpots, metadata: metadata,
            words: SearchWords(
                categories: ["cafe": [.cafe], "castle": [.castle, .fortress], "water": [.drinkingWater]],
                values: ["cake": ["cuisine=cake"], "coffee": ["cuisine=coffee_shop"], "wasser": ["amenity=fountain"]],
                compounds: ["wasser": ["amenity=fountain", "castle"]]))
    }()

    /// The names of the entries of the small index's `WLST`.
    static let wordListNames = ["amenity=fountain", "castle", "cuisine=cake", "cuisine=coffee_shop"]

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
        return SpotIndexWriter.encode(
            spots, metadata: factory.metadata(count: spots.count),
            words: SearchWords(categories: factory.categoryWords()))
    }()

    /// Spots whose names and attributes make string tables of several blocks, with shared
    /// prefixes and byte-pair codes, and a text index of more than one block of tokens.
    static let wordySpots: [Spot] = {
        let kinds: [(String, Category)] = [("cafe", .cafe), ("restaurant", .restaurant), ("bar", .nightlife)]
        // Words that differ at the start and share their ends, so that front coding leaves pairs to code.
        let words = [
            "action", "caution", "diction", "edition", "fiction", "mention", "motion", "nation", "notion", "option",
            "portion", "potion",
            "ration", "section", "station", "suction", "tension", "version", "vision", "lotion", "fashion", "mission",
            "session", "passion",
        ]
        return words.indices.map { i in
            Spot(
                ref: OSMRef(OSMType.allCases[i % 3], Int64(i * 7 - 40)),
                coordinate: Coordinate(latitudeE7: Int32(i) * 100_000, longitudeE7: Int32(i % 5) * 100_000)!,
                tagKey: "amenity", kind: kinds[i % 3].0, category: kinds[i % 3].1,
                name: "Kahvila \(words[i].capitalized) \(i)",
                names: ["fi": "Kahvila \(i)", "en": "Café \(words[(i + 5) % words.count])"],
                address: ["street": "Kalevankatu", "housenumber": "\(i)"])
        }
    }()

    static let wordy = SpotIndexWriter.encode(wordySpots, metadata: RoundTripTests.emptyMetadata)

    /// References looked up on every damaged index: the small index's own and merged ones, and some it lacks.
    static let probeRefs: [OSMRef] =
        smallSpots.flatMap { [$0.ref] + $0.merged }
        + [
            OSMRef(.node, 2), OSMRef(.way, 1), OSMRef(.relation, -2), OSMRef(.node, Int64.min),
            OSMRef(.relation, Int64.max),
        ]
    /// Token prefixes looked up on every damaged index, partial UTF-8 sequences included.
    static let probePrefixes: [[UInt8]] = [
        [], Array("caf".utf8), Array("姫".utf8), Array("central".utf8), [0xFF], [0xE5], [0x00],
    ]

    /// Opens `bytes`, then reads everything the reader offers, each read either succeeding or
    /// throwing a corrupt IndexError, and verifies checksums.
    static func exercise(_ bytes: [UInt8]) throws -> ReadOutcome {
        try withScratchFile { write in try exercise(bytes, writing: write) }
    }

    /// As `exercise(_:)`, through a scratch file that `write` fills.
    static func exercise(
        _ bytes: [UInt8], writing write: (_ bytes: [UInt8]) throws -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws
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
            _ = attempt("quality \(position)") { try reader.quality(at: position) }
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
        // Every group of every token, each list read to its end: keys ascending.
        for token in 0..<reader.tokenCount {
            _ = attempt("token \(token)") { try reader.token(token) }
            guard let groups = attempt("postings \(token)", { try reader.postingGroups(ofToken: token) }) else {
                continue
            }
            #expect(zip(groups, groups.dropFirst()).allSatisfy { $0.key < $1.key }, sourceLocation: sourceLocation)
            for group in groups { drain(group.ranks, "postings \(token)") }
        }
        for kind in reader.kinds.indices {
            if let list = attempt("kind list \(kind)", { try reader.kindList(ofKind: kind) }) {
                drain(list, "kind list \(kind)")
            }
        }
        for prefix in probePrefixes {
            guard let range = attempt("tokens with prefix \(prefix)", { try reader.tokens(withPrefix: prefix) }) else {
                continue
            }
            #expect(range.lowerBound >= 0 && range.upperBound <= reader.tokenCount, sourceLocation: sourceLocation)
        }
        for (level, boxes) in reader.tree.levelCounts.enumerated() {
            for index in 0..<boxes { _ = reader.tree.box(level: level, node: index) }
        }
        _ = attempt("category words") { try reader.storedSearchWords() }
        for target in wordListNames + ["cafe", "zzz"] {
            if let list = attempt("word list \(target)", { try reader.wordList(of: target) }), let list {
                drain(list, "word list \(target)")
            }
        }
        _ = attempt("metadata") { try reader.metadata() }
        outcome.badSections = reader.verifyChecksums().filter { !$0.isValid }.map(\.section.name)
        return outcome
    }

    static func expectCorruptOnOpen(
        _ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).spots")
            .path
        let error = #expect(throws: IndexError.self) { try SpotIndexReader(path: path) }
        #expect(error?.kind == .unreadable)
        #expect(error?.file == path)
        #expect(error?.description.hasPrefix(path + ": ") == true)
    }

    @Test("a directory is unreadable")
    func directory() {
        let error = #expect(throws: IndexError.self) {
            try SpotIndexReader(path: FileManager.default.temporaryDirectory.path)
        }
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

    @Test(
        "another format version is corrupt, even with a matching header checksum",
        arguments: [0, 1, 2, 7, UInt32.max] as [UInt32])
    func wrongVersion(version: UInt32) throws {
        var bytes = Self.small
        bytes.store(version, at: 8)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("version") == true)
    }

    @Test("a version 1 to 5 file is refused, the message naming both versions", arguments: [1, 2, 3, 4, 5] as [UInt32])
    func olderVersion(version: UInt32) throws {
        let expected = "format version \(version); this reader knows version 6"
        var bytes = Self.small
        bytes.store(version, at: 8)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt)
        #expect(error?.section == "header")
        #expect(error?.message == expected)
        // The same sections in a container assembled as the older version, and as version 6.
        let sections = RawIndex(Self.small).sectionContents
        #expect(try openingError(RawIndex.assemble(sections, version: version))?.message == expected)
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
        #expect(tableEnd == 32 + 16 * 32)
        for position in Array(0..<28) + Array(32..<tableEnd) {
            var bytes = Self.small
            bytes[position] ^= 0x01
            try Self.expectCorruptOnOpen(bytes, "byte \(position)")
        }
    }

    @Test(
        "flipping any single byte never crashes: open or read fails with IndexError, or the checksum of its section fails",
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
                    #expect(
                        result.badSections == [section.name], "byte \(position) mask \(mask) lies in \(section.name)")
                } else {
                    #expect(result.badSections.isEmpty)
                    #expect(result.failures == [])
                    // Only alignment padding lies outside every checksum (the header's reserved word must be zero).
                    #expect(
                        position >= 32 + 32 * sections.count && Self.small[position] == 0,
                        "byte \(position) is covered by nothing")
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

    @Test(
        "flipping bytes of any section, with its checksum recomputed, never crashes: open or each read fails with IndexError or succeeds",
        arguments: [
            "META", "STRS", "KIND", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "KLST", "TREE", "TOKN", "POST", "QUAL",
            "WLST", "WORD",
        ])
    func resealedFlips(name: String) throws {
        var opened = 0
        var failedReads = 0
        // The small index, and where it has only one block or level, one that has several.
        let fixtures =
            switch name {
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
                            #expect(
                                !["META", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "WORD", "QUAL"].contains(name),
                                "\(name) is only read on demand: \(error)")
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
        if ["META", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "KLST", "POST", "WORD", "QUAL", "WLST"].contains(name) {
            #expect(failedReads > 0, "some damage to \(name) must be caught when reading")
        }
    }
}
