import Foundation
import SpotIndex
import SpotIndexWriting
import SpotTestSupport
import SpotText
import Spots
import Testing

@Suite("Index round trip")
struct RoundTripTests {
    static let emptyMetadata = IndexMetadata(generator: "g", buildTime: nil, inputs: [], bbox: nil, statistics: [:])

    /// Spots compare equal with String's canonical equivalence; the format promises the very bytes back.
    static func expectSameBytes(
        _ read: Spot, _ written: Spot, _ position: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            Array(read.tagKey.utf8) == Array(written.tagKey.utf8), "spot \(position)", sourceLocation: sourceLocation)
        #expect(Array(read.kind.utf8) == Array(written.kind.utf8), "spot \(position)", sourceLocation: sourceLocation)
        #expect(
            read.name.map { Array($0.utf8) } == written.name.map { Array($0.utf8) }, "spot \(position)",
            sourceLocation: sourceLocation)
        #expect(
            read.attributeTags.map { Array($0.key.utf8) + [0xFF] + Array($0.value.utf8) }
                == written.attributeTags.map { Array($0.key.utf8) + [0xFF] + Array($0.value.utf8) }, "spot \(position)",
            sourceLocation: sourceLocation)
    }

    /// Checks that `reader` holds exactly `spots` (in whatever order the index chose), each found by
    /// its own reference, equal and byte for byte the same, with the per-field readers agreeing.
    static func expectHolds(
        _ reader: SpotIndexReader, _ spots: [Spot], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(reader.count == spots.count, sourceLocation: sourceLocation)
        var positions = Set<Int>()
        for written in spots {
            let position = try #require(
                try reader.spotNumber(for: written.ref), "\(written.ref)", sourceLocation: sourceLocation)
            #expect(
                positions.insert(position).inserted, "two spots at position \(position)", sourceLocation: sourceLocation
            )
            let read = try reader.spot(at: position)
            #expect(read == written, "spot \(written.ref)", sourceLocation: sourceLocation)
            expectSameBytes(read, written, position, sourceLocation: sourceLocation)
            #expect(try reader.ref(at: position) == written.ref, sourceLocation: sourceLocation)
            #expect(try reader.coordinate(at: position) == written.coordinate, sourceLocation: sourceLocation)
            #expect(
                try reader.name(at: position).map { Array($0.utf8) } == written.name.map { Array($0.utf8) },
                sourceLocation: sourceLocation)
            let kind = try reader.kind(at: position)
            #expect(kind == reader.kinds[try reader.kindNumber(at: position)], sourceLocation: sourceLocation)
            #expect(Array(kind.key.utf8) == Array(written.tagKey.utf8), sourceLocation: sourceLocation)
            #expect(Array(kind.value.utf8) == Array(written.kind.utf8), sourceLocation: sourceLocation)
            #expect(kind.category == written.category, sourceLocation: sourceLocation)
        }
        #expect(
            positions == Set(0..<reader.count), "every position holds one of the spots", sourceLocation: sourceLocation)
    }

    static func roundTrip(seed: UInt64, count: Int) throws {
        var factory = SpotFactory(seed: seed)
        let spots = factory.uniqueSpots(count)
        let metadata = factory.metadata(count: count)
        let words = factory.categoryWords()
        let bytes = SpotIndexWriter.encode(spots, metadata: metadata, words: SearchWords(categories: words))
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.fileSize == bytes.count)
            #expect(reader.file == path)
            #expect(try reader.metadata() == metadata)
            #expect(try reader.storedSearchWords()?.categories == storedCategoryWords(words))
            try expectHolds(reader, spots)
            let checks = reader.verifyChecksums()
            #expect(checks.count == 16)
            #expect(checks.allSatisfy { $0.isValid })
        }
    }

    @Test(
        "random spots and metadata read back equal, byte for byte, each found by its reference",
        arguments: [1, 2, 3, 4] as [UInt64])
    func randomRoundTrip(seed: UInt64) throws {
        try Self.roundTrip(seed: seed, count: 250)
    }

    @Test("a single spot and an index of no spots round trip")
    func smallAndEmpty() throws {
        try Self.roundTrip(seed: 99, count: 1)
        try Self.roundTrip(seed: 100, count: 0)
        let metadata = IndexMetadata(generator: "", buildTime: nil, inputs: [], bbox: nil, statistics: [:])
        let bytes = SpotIndexWriter.encode([], metadata: metadata)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.count == 0)
            #expect(try reader.metadata() == metadata)
            #expect(try reader.storedSearchWords()?.categories.isEmpty == true)
            #expect(reader.tree.levelCounts.isEmpty)
            #expect(reader.tokenCount == 0)
            #expect(try reader.tokens(withPrefix: []) == 0..<0)
            #expect(try reader.tokens(withPrefix: Array("a".utf8)) == 0..<0)
            #expect(try reader.spotNumber(for: OSMRef(.node, 1)) == nil)
            #expect(reader.verifyChecksums().allSatisfy { $0.isValid })
        }
    }

    @Test("spots at the limits of every field round trip")
    func extremes() throws {
        let ids = SpotIndexWriter.storableIDs
        let spots = [
            Spot(
                ref: OSMRef(.node, ids.lowerBound),
                coordinate: Coordinate(latitudeE7: -900_000_000, longitudeE7: -1_800_000_000)!, tagKey: "", kind: "",
                category: nil),
            Spot(
                ref: OSMRef(.relation, ids.upperBound),
                coordinate: Coordinate(latitudeE7: 900_000_000, longitudeE7: 1_800_000_000)!, tagKey: "tourism",
                kind: "", category: .touristInformation, name: ""),
            // Merged references at both ends of Int64 (MERG stores 8 bytes), one listed twice: kept as given, in order.
            Spot(
                ref: OSMRef(.way, -1), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: "amenity",
                kind: "cafe", category: .cafe,
                name: "\"quoted\" \\ back\nslash\u{0000}nul", names: ["ja": "", "zh-Hant": "咖啡"],
                address: ["full": "\r\n"],
                details: [.website: String(repeating: "長い", count: 5000)],
                merged: [
                    OSMRef(.way, Int64.min), OSMRef(.way, Int64.max), OSMRef(.relation, 0), OSMRef(.way, Int64.min),
                ]),
        ]
        let metadata = IndexMetadata(
            generator: "spots \"test\"\n", buildTime: "1970-01-01T00:00:00Z", inputs: [.init(name: "-", bytes: 0)],
            bbox: .world, statistics: ["max": Int.max, "min": Int.min])
        let words: [String: [Category]] = [
            "a": [.cafe], "ωμέγα": [.zoo, .airport], "日本語": Category.allCases, "🏳️‍🌈": [.nightlife],
        ]
        try withTemporaryFile(SpotIndexWriter.encode(spots, metadata: metadata, words: SearchWords(categories: words)))
        { path in
            let reader = try SpotIndexReader(path: path)
            #expect(try reader.metadata() == metadata)
            #expect(try reader.storedSearchWords()?.categories == storedCategoryWords(words))
            #expect(
                try (0..<reader.count).map { try reader.spot(at: $0) }.sorted { $0.ref < $1.ref }
                    == spots.sorted { $0.ref < $1.ref })
            try Self.expectHolds(reader, spots)
            let holder = try #require(try reader.spotNumber(for: OSMRef(.way, -1)))
            for merged in spots[2].merged {
                #expect(try reader.spotNumber(for: merged) == holder, "\(merged)")
            }
        }
    }

    @Test(
        "a spot's own id round trips for every OSM type anywhere in storableIDs, -2^45 ... 2^45-1, negative ids included"
    )
    func storableIDs() throws {
        let bound: Int64 = 1 << 45
        #expect(SpotIndexWriter.storableIDs.lowerBound == -bound)
        #expect(SpotIndexWriter.storableIDs.upperBound == bound - 1)
        let ids: [Int64] = [
            -bound, -bound + 1, -bound + 2, -(1 << 34), -1_000_000, -2, -1, 0, 1, 2, 1 << 32, 1 << 34, bound - 2,
            bound - 1,
        ]
        var spots: [Spot] = []
        for type in OSMType.allCases {
            for (number, id) in ids.enumerated() {
                let coordinate = Coordinate(
                    latitudeE7: Int32(number) * 1_000, longitudeE7: Int32(type.rawValue) * 1_000)!
                spots.append(
                    Spot(ref: OSMRef(type, id), coordinate: coordinate, tagKey: "amenity", kind: "bench", category: nil)
                )
            }
        }
        let bytes = SpotIndexWriter.encode(spots, metadata: Self.emptyMetadata)
        // The records, decoded by the tests' own decoder, hold exactly these references.
        let records = RawIndex(bytes).spots
        #expect(Set(records.compactMap(\.ref)) == Set(spots.map(\.ref)))
        #expect(records.count == spots.count)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            try Self.expectHolds(reader, spots)
            #expect(try (0..<reader.count).map { try reader.ref(at: $0) } == records.map(\.ref))
        }
    }

    @Test(
        "the writer refuses a spot whose own id lies outside storableIDs rather than write it wrong",
        arguments: [-(1 << 45) - 1, 1 << 45, Int64.min, Int64.max] as [Int64])
    func unstorableID(id: Int64) async {
        await #expect(processExitsWith: .failure) { [id] in
            let spot = Spot(
                ref: OSMRef(.way, id), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: "amenity",
                kind: "bench", category: nil)
            _ = SpotIndexWriter.encode(
                [spot], metadata: IndexMetadata(generator: "g", buildTime: nil, inputs: [], bbox: nil, statistics: [:]))
        }
    }

    @Test("encoding equal spots twice gives identical bytes, whatever order the attributes were set in")
    func reproducible() {
        var factory = SpotFactory(seed: 7)
        let spots = factory.uniqueSpots(100)
        let metadata = factory.metadata(count: spots.count)
        // The same spots, built again with attributes set in reverse order into differently sized dictionaries.
        let rebuilt = spots.map { spot in
            var copy = Spot(
                ref: spot.ref, coordinate: spot.coordinate, tagKey: spot.tagKey, kind: spot.kind,
                category: spot.category, merged: spot.merged)
            copy.names.reserveCapacity(64)
            copy.address.reserveCapacity(64)
            copy.details.reserveCapacity(32)
            copy.otherNames.reserveCapacity(16)
            for tag in spot.attributeTags.reversed() { copy.setAttribute(key: tag.key, value: tag.value) }
            copy.hasWikipedia = spot.hasWikipedia
            return copy
        }
        #expect(rebuilt == spots)
        var statistics: [String: Int] = [:]
        statistics.reserveCapacity(100)
        for key in metadata.statistics.keys.sorted().reversed() { statistics[key] = metadata.statistics[key] }
        var metadataAgain = metadata
        metadataAgain.statistics = statistics
        let first = SpotIndexWriter.encode(spots, metadata: metadata)
        #expect(SpotIndexWriter.encode(spots, metadata: metadata) == first)
        #expect(SpotIndexWriter.encode(rebuilt, metadata: metadataAgain) == first)
    }

    @Test("spots at one place are ordered by reference, and the string pool stores each distinct string once")
    func orderAndPooling() throws {
        let base = Spot(
            ref: OSMRef(.node, 1), coordinate: Coordinate(latitudeE7: 1, longitudeE7: 2)!, tagKey: "amenity",
            kind: "cafe", category: .cafe, name: "Same name")
        let spots = (0..<50).map { i in
            var spot = base
            spot.ref = OSMRef(i % 2 == 0 ? .way : .node, Int64(50 - i))
            return spot
        }
        let bytes = SpotIndexWriter.encode(spots, metadata: Self.emptyMetadata)
        let raw = RawIndex(bytes)
        // "amenity", "cafe" (kind, and category name), "name" and "Same name".
        // Sorted by their bytes: upper case before lower.
        #expect(
            try raw.strings("STRS").map { String(decoding: $0, as: UTF8.self) } == [
                "Same name", "amenity", "cafe", "name",
            ])
        #expect(raw.kinds.count == 1)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(try (0..<reader.count).map { try reader.ref(at: $0) } == spots.map(\.ref).sorted())
        }
    }

    @Test("canonically equivalent but differently encoded strings keep their own bytes")
    func canonicalEquivalentsKeepTheirBytes() throws {
        // "é" as one scalar (NFC) and as e + combining acute (NFD): equal as Swift Strings, different in UTF-8.
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        let coordinate = Coordinate(latitudeE7: 0, longitudeE7: 0)!
        let spots = [
            Spot(
                ref: OSMRef(.node, 1), coordinate: coordinate, tagKey: "amenity", kind: "cafe", category: .cafe,
                name: composed),
            Spot(
                ref: OSMRef(.node, 2), coordinate: coordinate, tagKey: "amenity", kind: "cafe", category: .cafe,
                name: decomposed),
        ]
        let bytes = SpotIndexWriter.encode(spots, metadata: Self.emptyMetadata)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            let first = try reader.spot(at: try #require(try reader.spotNumber(for: OSMRef(.node, 1))))
            let second = try reader.spot(at: try #require(try reader.spotNumber(for: OSMRef(.node, 2))))
            #expect(Array(first.name!.utf8) == Array(composed.utf8))
            #expect(
                Array(second.name!.utf8) == Array(decomposed.utf8),
                "the second spot's name comes back with the first spot's bytes")
        }
    }

    @Test("category and value words read back with each list sorted by name")
    func categoryWords() throws {
        let words: [String: [Category]] = [
            "kahvila": [.cafe, .bakery], "cafe": [.cafe], "zoo": [.zoo, .aquarium, .zoo], "日本": [.museum],
        ]
        let values = ["zahnarzt": ["amenity=dentist"], "cafe": ["amenity=cafe", "amenity=internet_cafe"]]
        let bytes = SpotIndexWriter.encode(
            [], metadata: Self.emptyMetadata, words: SearchWords(categories: words, values: values))
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            let read = try #require(try reader.storedSearchWords()).categories
            #expect(Set(read.keys) == Set(words.keys))
            #expect(read["kahvila"] == [.bakery, .cafe])
            #expect(read["zoo"]?.contains(.aquarium) == true)
            #expect(read["日本"] == [.museum])
            #expect(read["cafe"] == [.cafe])
            let readValues = try #require(try reader.storedSearchWords()).values
            #expect(readValues["zahnarzt"] == ["amenity=dentist"])
            #expect(readValues["cafe"] == ["amenity=cafe", "amenity=internet_cafe"])
            #expect(readValues.count == 2)
        }
    }
}
