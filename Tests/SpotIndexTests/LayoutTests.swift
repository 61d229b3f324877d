import Foundation
import SpotIndex
import SpotTestSupport
import SpotText
import Spots
import Testing

@testable import SpotIndexWriting

@Suite("Index layout")
struct LayoutTests {
    static let spots: [Spot] = {
        var factory = SpotFactory(seed: 11)
        return factory.uniqueSpots(20)
    }()

    static let bytes: [UInt8] = {
        var factory = SpotFactory(seed: 12)
        return SpotIndexWriter.encode(
            spots, metadata: factory.metadata(count: spots.count),
            words: SearchWords(categories: ["cafe": [.cafe], "bar": [.nightlife]]))
    }()

    /// Enough spots that the string tables have many blocks and byte-pair codes, and names shared by many spots.
    static let manySpots: [Spot] = {
        var factory = SpotFactory(seed: 14)
        return factory.uniqueSpots(400, excluding: Set(IndexStructureTests.namedSpots.map(\.ref)))
            + IndexStructureTests.namedSpots
    }()

    /// The fixtures whose layout is checked against what the spots call for: each spot list with its index.
    static let fixtures: [(spots: [Spot], bytes: [UInt8])] = [
        (spots, bytes), (manySpots, SpotIndexWriter.encode(manySpots, metadata: RoundTripTests.emptyMetadata)),
        (
            IndexStructureTests.namedSpots,
            SpotIndexWriter.encode(IndexStructureTests.namedSpots, metadata: RoundTripTests.emptyMetadata)
        ),
        ([], SpotIndexWriter.encode([], metadata: RoundTripTests.emptyMetadata)),
    ]

    static let sectionNames = [
        "META", "STRS", "KIND", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "KLST", "TREE", "TOKN", "POST", "QUAL",
        "WLST", "WORD", "HNUM",
    ]

    @Test("the header holds the magic, version 6, sixteen sections, the file size and zlib's CRC of header and table")
    func header() {
        let bytes = Self.bytes
        #expect(Array(bytes[0..<8]) == [0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A])
        #expect(bytes.load(UInt32.self, at: 8) == 6)
        #expect(SpotIndexReader.formatVersion == 6)
        #expect(bytes.load(UInt32.self, at: 12) == 16)
        #expect(bytes.load(UInt64.self, at: 16) == UInt64(bytes.count))
        #expect(
            bytes.load(UInt32.self, at: 24) == zlibCRC32(bytes[32..<32 + 16 * 32], continuing: zlibCRC32(bytes[0..<24]))
        )
        #expect(bytes.load(UInt32.self, at: 28) == 0)
        for entry in 0..<16 {
            #expect(bytes.load(UInt32.self, at: 32 + 32 * entry + 4) == 0, "reserved word after the tag")
            #expect(bytes.load(UInt32.self, at: 32 + 32 * entry + 28) == 0, "reserved word after the checksum")
        }
    }

    @Test(
        "sections are META STRS KIND SPOT ATTR REFS MERG MRGO KLST TREE TOKN POST QUAL WLST WORD HNUM, 8-byte aligned, in order, with zlib's CRC, as the reader reports"
    )
    func sections() throws {
        let bytes = Self.bytes
        let sections = bytes.rawSections
        #expect(sections.map(\.name) == Self.sectionNames)
        var end = 32 + 16 * 32
        for section in sections {
            #expect(section.offset % 8 == 0)
            #expect(section.offset >= end)
            #expect(section.offset - end < 8, "no more padding than alignment needs")
            #expect(bytes[end..<section.offset].allSatisfy { $0 == 0 }, "padding is zeros")
            #expect(section.checksum == zlibCRC32(bytes[section.range]))
            end = section.offset + section.length
        }
        #expect(end == bytes.count)
        let mergedCount = Self.spots.map(\.merged.count).reduce(0, +)
        #expect(bytes.section("SPOT").length == 20 * 20)
        #expect(bytes.section("REFS").length == 20, "20 spots: one byte each")
        #expect(bytes.section("MERG").length == mergedCount * 16)
        #expect(bytes.section("MRGO").length == mergedCount, "a few merged references: one byte each")
        #expect(bytes.section("QUAL").length == 20)
        let kindCount = Set(Self.spots.map { [$0.tagKey, $0.kind, $0.category?.rawValue ?? "\u{0}none"] }).count
        #expect(bytes.section("KIND").length == kindCount * 12)
        #expect(kindCount > 1, "the fixture has several kinds")
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.sections.map(\.name) == sections.map(\.name))
            #expect(reader.sections.map(\.offset) == sections.map(\.offset))
            #expect(reader.sections.map(\.length) == sections.map(\.length))
            #expect(reader.sections.map(\.checksum) == sections.map(\.checksum))
        }
    }

    @Test(
        "STRS and TOKN are string tables of exactly the strings the spots give, sorted, in blocks, front-coded and byte-pair coded",
        arguments: ["STRS", "TOKN"])
    func stringTables(name: String) throws {
        var pairsSeen = 0
        var blocksSeen = 0
        var sharedSeen = 0
        for (spots, bytes) in Self.fixtures {
            let expected = ExpectedIndex(spots)
            let want = name == "STRS" ? expected.strings : expected.tokens
            let table = try RawIndex(bytes).stringTable(name)
            #expect(table.encoded == bytes.contents(of: name), "the parts make up the whole section")
            // The strings, decoded by the tests' own decoder (which checks the pair table's rules).
            #expect(try table.strings() == want)
            #expect(zip(want, want.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) }, "distinct and sorted")
            #expect(Int(table.count) == want.count)
            // Any block size of at least 1 is valid; the writer picks one per table.
            let blockSize = Int(table.blockSize)
            #expect(blockSize >= 1)
            #expect(Int(table.pairCount) == table.pairs.count)
            #expect(table.padding.allSatisfy { $0 == 0 } && (12 + 3 * table.pairs.count + table.padding.count) % 4 == 0)
            // Each block's offset is where its first entry starts; that entry shares nothing, the others their common prefix.
            let entries = try table.entries()
            let offsets = try table.entryOffsets()
            #expect(table.blockOffsets == stride(from: 0, to: entries.count, by: blockSize).map { offsets[$0] })
            for (index, entry) in entries.enumerated() {
                let common = index % blockSize == 0 ? 0 : zip(want[index - 1], want[index]).prefix { $0 == $1 }.count
                #expect(
                    entry.shared == common, "entry \(index) shares the prefix it has in common with the string before")
                #expect(entry.length == entry.coded.count)
            }
            // Codes are byte values no string uses, so that any other byte stands for itself.
            let used = Set(want.joined())
            #expect(table.pairs.allSatisfy { !used.contains($0.code) }, "codes are bytes no string uses")
            pairsSeen += table.pairs.count
            blocksSeen = max(blocksSeen, table.blockOffsets.count)
            sharedSeen += entries.filter { $0.shared > 0 }.count
            if !table.pairs.isEmpty {
                let rests = entries.enumerated().map { want[$0.offset].count - $0.element.shared }.reduce(0, +)
                #expect(entries.map(\.coded.count).reduce(0, +) < rests, "byte-pair coding shortens the text")
            }
        }
        #expect(
            pairsSeen > 0 && blocksSeen > 2 && sharedSeen > 0, "the fixtures exercise codes, blocks and shared prefixes"
        )
    }

    @Test(
        "string tables in blocks of any size, with or without codes, read the same strings and find the same prefixes")
    func anyBlockSize() throws {
        let spots = DamageTests.wordySpots
        let fixture = DamageTests.wordy
        let raw = RawIndex(fixture)
        let strings = try raw.strings("STRS")
        let tokens = try raw.strings("TOKN")
        for blockSize in [1, 2, 3, 5, 8, 16, tokens.count, strings.count + 7] {
            let bytes = RawIndex(
                raw.replacing("STRS", with: RawStringTable(plain: strings, blockSize: blockSize).encoded)
            )
            .replacing("TOKN", with: RawStringTable(plain: tokens, blockSize: blockSize).encoded)
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                try RoundTripTests.expectHolds(reader, spots)
                #expect(reader.tokenCount == tokens.count)
                for (number, token) in tokens.enumerated() {
                    let range = try reader.tokens(withPrefix: token)
                    #expect(range.lowerBound == number, "block size \(blockSize), token \(number)")
                    #expect(
                        range.upperBound == tokens[number...].firstIndex { !$0.starts(with: token) } ?? tokens.count,
                        "block size \(blockSize), token \(number)")
                }
                #expect(try reader.tokens(withPrefix: []) == 0..<tokens.count)
                #expect(try reader.tokens(withPrefix: [0xFF]) == tokens.count..<tokens.count)
            }
        }
    }

    @Test(
        "POST holds, per token in TOKN order, its groups, keys ascending, each key, byte length and rank list, in blocks"
    )
    func postingLayout() throws {
        for (spots, bytes) in Self.fixtures {
            let expected = ExpectedIndex(spots)
            let post = try RawIndex(bytes).postingSection()
            #expect(post.encoded == bytes.contents(of: "POST"), "the parts make up the whole section")
            #expect(Int(post.count) == expected.tokens.count)
            let blockSize = Int(post.blockSize)
            #expect(blockSize >= 1)
            let entries = try post.entries()
            #expect(
                post.blockOffsets
                    == stride(from: 0, to: entries.count, by: blockSize).map { UInt32(entries[$0].offset) })
            for (token, entry) in entries.enumerated() {
                let groups = try entry.entry.decodedGroups()
                let want = expected.postings[token]
                #expect(entry.entry.groupCount == want.count, "token \(token)")
                #expect(groups.map(\.key) == want.map(\.rawKey), "token \(token): the keys")
                #expect(groups.map(\.ranks) == want.map(\.ranks), "token \(token): the spots of each key")
            }
            #expect(
                bytes.contents(of: "POST") == expected.encodedPostings(blockSize: blockSize),
                "byte for byte as the format prescribes")
        }
    }

    @Test(
        "KLST is one rank list per KIND record, in reference order, the ends ascending to the lists' length, every rank once"
    )
    func kindListLayout() throws {
        for (spots, bytes) in Self.fixtures {
            let expected = ExpectedIndex(spots)
            let raw = RawIndex(bytes)
            let records = raw.spots
            let strings = try raw.strings("STRS")
            let klst = try raw.kindListSection()
            #expect(klst.encoded == bytes.contents(of: "KLST"), "the parts make up the whole section")
            #expect(Int(klst.count) == raw.kinds.count)
            let lists = try klst.lists()
            let order = raw.numbers("REFS").map(Int.init)
            for (kind, ranks) in lists.enumerated() {
                #expect(!ranks.isEmpty, "a kind exists because a spot has it")
                #expect(
                    ranks.allSatisfy { $0 < records.count && Int(records[order[$0]].kind) == kind },
                    "kind \(kind) lists only its spots")
                let record = raw.kinds[kind]
                let key = ExpectedIndex.kindKey(
                    String(decoding: strings[Int(record.key)], as: UTF8.self),
                    String(decoding: strings[Int(record.value)], as: UTF8.self),
                    record.category == UInt32.max ? nil : String(decoding: strings[Int(record.category)], as: UTF8.self)
                )
                #expect(expected.kindRanks[key] == ranks, "kind \(kind): the ranks of the spots written with its tag")
            }
            #expect(lists.joined().sorted() == Array(0..<records.count), "every rank in one list, once")
        }
    }

    @Test("spot records are latitude, longitude, attribute offset, kind number and the 48-bit id × 4 + type")
    func spotRecords() throws {
        let raw = RawIndex(Self.bytes)
        let strings = try raw.strings("STRS").map { String(decoding: $0, as: UTF8.self) }
        let kinds = raw.kinds
        let attributes = try raw.attributes()
        var attributeEnd: UInt32 = 0
        try withTemporaryFile(Self.bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.kinds.count == kinds.count)
            for (position, record) in raw.spots.enumerated() {
                let spot = try reader.spot(at: position)
                #expect(record.id == spot.ref.id)
                #expect(record.typeCode == spot.ref.type.rawValue)
                #expect(record.latitudeE7 == spot.coordinate.latitudeE7)
                #expect(record.longitudeE7 == spot.coordinate.longitudeE7)
                #expect(record.attributes >= attributeEnd, "attribute offsets ascend")
                attributeEnd = record.attributes
                #expect(Int(record.kind) == (try reader.kindNumber(at: position)))
                let kind = kinds[Int(record.kind)]
                #expect(strings[Int(kind.key)] == spot.tagKey)
                #expect(strings[Int(kind.value)] == spot.kind)
                #expect(
                    kind.category == (spot.category.map { UInt32(strings.firstIndex(of: $0.rawValue)!) } ?? UInt32.max))
                #expect(
                    attributes[position].map { strings[Int($0.key)] + "=" + strings[Int($0.value)] }
                        == spot.attributeTags.map { $0.key + "=" + $0.value })
            }
        }
        #expect(raw.section("ATTR").length >= Int(attributeEnd))
        #expect(Set(raw.spots.compactMap(\.ref)) == Set(Self.spots.map(\.ref)))
    }

    @Test(
        "the reference field holds id × 4 + type as 48-bit two's complement, low 16 bits then high 32",
        arguments: [
            (OSMRef(.node, 0), [0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
            (OSMRef(.relation, 1), [0x06, 0x00, 0x00, 0x00, 0x00, 0x00]),
            (OSMRef(.way, -2), [0xF9, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            (OSMRef(.way, 0x1234_5678_9A), [0x69, 0xE2, 0x59, 0xD1, 0x48, 0x00]),
            (OSMRef(.relation, (1 << 45) - 1), [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
            (OSMRef(.node, -(1 << 45)), [0x00, 0x00, 0x00, 0x00, 0x00, 0x80]),
            (OSMRef(.way, -(1 << 45)), [0x01, 0x00, 0x00, 0x00, 0x00, 0x80]),
        ] as [(OSMRef, [UInt8])])
    func referenceField(ref: OSMRef, field: [UInt8]) throws {
        let spot = Spot(
            ref: ref, coordinate: Coordinate(latitudeE7: 1, longitudeE7: 2)!, tagKey: "amenity", kind: "bench",
            category: nil)
        let bytes = SpotIndexWriter.encode([spot], metadata: RoundTripTests.emptyMetadata)
        #expect(Array(bytes.contents(of: "SPOT")[14..<20]) == field)
        #expect(RawIndex(bytes).spots.map(\.ref) == [ref])
        try withTemporaryFile(bytes) { path throws in
            #expect(try SpotIndexReader(path: path).ref(at: 0) == ref)
        }
    }

    @Test("a one-spot index is laid out byte for byte as the format describes")
    func oneSpotBytes() {
        let spot = Spot(
            ref: OSMRef(.way, -2), coordinate: Coordinate(latitudeE7: -3, longitudeE7: 4)!, tagKey: "amenity",
            kind: "cafe", category: .cafe,
            name: "Kahvila", merged: [OSMRef(.node, 0x0102_0304_0506_0708)])
        let bytes = SpotIndexWriter.encode(
            [spot], metadata: RoundTripTests.emptyMetadata, words: SearchWords(categories: ["kahvi": [.cafe]]))
        func section(_ name: String) -> [UInt8] { bytes.contents(of: name) }
        func entry(_ text: String) -> [UInt8] { [0, UInt8(text.utf8.count)] + Array(text.utf8) }
        // The block sizes the writer chose (any of at least 1 is valid); at least 4, so each table here is one block.
        let poolBlockSize = section("STRS").load(UInt32.self, at: 4)
        let tokenBlockSize = section("TOKN").load(UInt32.self, at: 4)
        #expect(poolBlockSize >= 4 && tokenBlockSize >= 4)
        // Strings sorted by bytes, no pair worth a code: count, block size, no pairs, the block's offset, entries.
        #expect(
            section("STRS") == le32(4, poolBlockSize, 0, 0) + entry("Kahvila") + entry("amenity") + entry("cafe")
                + entry("name"))
        // amenity, cafe, and the category's name cafe.
        #expect(section("KIND") == le32(1, 2, 2))
        // Latitude, longitude, attribute offset, kind 0, then -2 × 4 + 1 = -7 in 48 bits.
        #expect(section("SPOT") == le32(UInt32(bitPattern: -3), 4, 0) + [0, 0] + [0xF9, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        // name = Kahvila.
        #expect(section("ATTR") == [3, 0])
        #expect(section("REFS") == [0])
        #expect(section("MERG") == [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0, 0, 0, 0] + le32(0))
        #expect(section("MRGO") == [0])
        // One kind, its list ending at 2: one rank, rank 0.
        #expect(section("KLST") == le32(1, 2) + [1, 0])
        #expect(section("TREE") == le32(16, 1, 1, 0, 4, UInt32(bitPattern: -3), 4, UInt32(bitPattern: -3)))
        #expect(section("TOKN") == le32(1, tokenBlockSize, 0, 0) + entry("kahvila"))
        // One token, one group: the name's only word, in `name`, score 1 (an area): key 0 × 16 + 9; a
        // list of 2 bytes, one rank, 0.
        #expect(section("POST") == le32(1, 16, 0) + [1] + [9, 2] + [1, 0])
        #expect(section("WORD") == Array("cafe\tkahvi\n".utf8))
        // A way: the area flag, bit 5.
        #expect(section("QUAL") == [0x20])
        // No spot meets a category or value beyond its kind: no entries.
        #expect(section("WLST") == le32(0))
    }

    @Test(
        "WLST lists by name the spots that meet a value by an attribute or a category or value by a compound name word, not those of its kind"
    )
    func wordLists() throws {
        var cursor = ByteCursor(DamageTests.small.contents(of: "WLST"))
        let count = Int(try cursor.word())
        let ends = try (0..<count).map { _ in Int(try cursor.word()) }
        let entries = try cursor.take(cursor.end - cursor.position)
        var decoded: [String: [Int]] = [:]
        var start = 0
        for end in ends {
            var entry = ByteCursor(entries, from: start, to: end)
            let name = String(decoding: try entry.take(try entry.varint()), as: UTF8.self)
            decoded[name] = try decodeRankList(try entry.take(end - entry.position))
            start = end
        }
        #expect(ends.last == entries.count)
        // Ranks by reference: node 1 (Café Central, cuisine coffee_shop;cake) 0, node 6 (the
        // fountain, kind drinking_water, alt_name Trinkwasser) 1, way -2 (the castle) 2.
        #expect(
            decoded == [
                "amenity=fountain": [1], "castle": [1], "cuisine=cake": [0], "cuisine=coffee_shop": [0],
            ])
        #expect(DamageTests.wordListNames == decoded.keys.sorted(), "the names sorted by their bytes, as written")
        let reader = try openIndex(DamageTests.small)
        for (name, ranks) in decoded {
            var list = try #require(try reader.wordList(of: name))
            #expect(try list.drain() == ranks)
        }
        #expect(try reader.wordList(of: "cafe") == nil)
    }

    @Test(
        "REFS lists every spot once in order of its reference; MERG holds the merged references by spot; MRGO lists MERG in reference order"
    )
    func referenceTables() throws {
        let raw = RawIndex(Self.bytes)
        let records = raw.spots
        let order = raw.numbers("REFS").map(Int.init)
        #expect(order.sorted() == Array(records.indices), "every spot once")
        let ordered = try order.map { try #require(records[$0].ref) }
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0 < $1 }, "strictly ascending references")
        #expect(ordered == Self.spots.map(\.ref).sorted())
        let merged = raw.merged
        #expect(merged.allSatisfy { $0.reserved == [0, 0, 0] })
        #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.spot <= $1.spot }, "grouped by ascending spot")
        for spot in Self.spots {
            let position = UInt32(raw.spotPosition(of: spot.ref)!)
            #expect(
                merged.filter { $0.spot == position }.compactMap(\.ref) == spot.merged,
                "merged references keep their order")
        }
        let mergedOrder = raw.numbers("MRGO").map(Int.init)
        #expect(mergedOrder.sorted() == Array(merged.indices), "every merged reference once")
        let mergedRefs = mergedOrder.compactMap { merged[$0].ref }
        #expect(mergedRefs.count == merged.count)
        #expect(zip(mergedRefs, mergedRefs.dropFirst()).allSatisfy { $0 < $1 }, "strictly ascending merged references")
        #expect(Set(mergedRefs) == Set(Self.spots.flatMap(\.merged)))
    }

    @Test("KLST is the kind count, each kind's end in bytes, then each kind's rank list, byte for byte")
    func kindListBytes() throws {
        // Four spots placed so that Hilbert order (the spot numbers) differs from reference order:
        // the corners (0, 0), (0, max), (max, max), (max, 0) of their extent come in that order.
        func at(_ latitudeE7: Int32, _ longitudeE7: Int32) -> Coordinate {
            Coordinate(latitudeE7: latitudeE7, longitudeE7: longitudeE7)!
        }
        let spots = [
            Spot(ref: OSMRef(.node, 2), coordinate: at(0, 100), tagKey: "amenity", kind: "cafe", category: .cafe),
            Spot(ref: OSMRef(.way, 7), coordinate: at(100, 0), tagKey: "amenity", kind: "bench", category: nil),
            Spot(ref: OSMRef(.relation, 1), coordinate: at(0, 0), tagKey: "amenity", kind: "cafe", category: .cafe),
            Spot(ref: OSMRef(.node, 9), coordinate: at(100, 100), tagKey: "amenity", kind: "cafe", category: .cafe),
        ]
        let bytes = SpotIndexWriter.encode(spots, metadata: RoundTripTests.emptyMetadata)
        let raw = RawIndex(bytes)
        // Spot numbers: 0 r1 (cafe), 1 w7 (bench), 2 n9 (cafe), 3 n2 (cafe); kinds by first use: cafe 0, bench 1.
        // Ranks: n2 0, n9 1, w7 2, r1 3.
        #expect(raw.spots.map(\.id) == [1, 7, 9, 2])
        #expect(raw.numbers("REFS") == [3, 2, 1, 0])
        // cafe: ranks 0, 1, 3 as count 3, first 0, gaps less 1: 0, 1; bench: count 1, rank 2.
        #expect(bytes.contents(of: "KLST") == le32(2, 4, 6) + [3, 0, 0, 1] + [1, 2])
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(try reader.kindRanks(ofKind: 0) == [0, 1, 3])
            #expect(try reader.kindRanks(ofKind: 1) == [2])
            #expect(try [0, 1, 3].map { try reader.spot(atRank: $0) } == [3, 2, 0])
            #expect(try reader.spot(atRank: 2) == 1)
        }
        // No spots: one count word of zero, no ends, no lists.
        let empty = SpotIndexWriter.encode([], metadata: RoundTripTests.emptyMetadata)
        #expect(empty.contents(of: "KLST") == le32(0))
    }

    @Test(
        "the tree section is node size, level count, box counts, padding to 8 bytes, then the boxes lowest level first")
    func treeLayout() throws {
        var factory = SpotFactory(seed: 13)
        for count in [0, 1, 16, 17, 300] {
            let bytes = SpotIndexWriter.encode(factory.uniqueSpots(count), metadata: RoundTripTests.emptyMetadata)
            let tree = RawIndex(bytes).tree
            var expected: [Int] = []
            var below = count
            while below > 1 || (expected.isEmpty && below == 1) {
                below = (below + 15) / 16
                expected.append(below)
            }
            #expect(tree.nodeSize == 16)
            #expect(tree.levelCounts == expected, "\(count) spots")
            #expect(tree.padding.allSatisfy { $0 == 0 })
            #expect(
                bytes.section("TREE").length == 8 + 4 * expected.count + (expected.count % 2) * 4 + 16
                    * expected.reduce(0, +))
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                #expect(reader.tree.nodeSize == 16)
                #expect(reader.tree.levelCounts == expected)
            }
        }
    }

    @Test(
        "the metadata section is sorted snake_case JSON; the words section a line per category, its words after tabs, sorted"
    )
    func metadataJSON() throws {
        let bytes = Self.bytes
        let meta = bytes.section("META")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes[meta.range])) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["generator", "inputs", "bbox_e7", "statistics"]))
        let text = String(decoding: bytes[meta.range], as: UTF8.self)
        #expect(text.range(of: "\"bbox_e7\"")!.lowerBound < text.range(of: "\"generator\"")!.lowerBound)
        #expect(bytes.contents(of: "WORD") == Array("cafe\tcafe\nnightlife\tbar\n".utf8))
    }
}
