import Foundation
import SpotIndex
import Spots
import Testing

@Suite("Index round trip")
struct RoundTripTests {
    /// Spots compare equal with String's canonical equivalence; the format promises the very bytes back.
    static func expectSameBytes(_ read: Spot, _ written: Spot, _ position: Int) {
        #expect(Array(read.tagKey.utf8) == Array(written.tagKey.utf8), "spot \(position)")
        #expect(Array(read.kind.utf8) == Array(written.kind.utf8), "spot \(position)")
        #expect(read.name.map { Array($0.utf8) } == written.name.map { Array($0.utf8) }, "spot \(position)")
        #expect(
            read.attributeTags.map { Array($0.key.utf8) + [0xFF] + Array($0.value.utf8) }
                == written.attributeTags.map { Array($0.key.utf8) + [0xFF] + Array($0.value.utf8) }, "spot \(position)")
    }

    static func roundTrip(seed: UInt64, count: Int) throws {
        var factory = SpotFactory(seed: seed)
        let spots = (0..<count).map { _ in factory.spot() }
        let metadata = factory.metadata(count: count)
        let bytes = SpotIndexWriter.encode(spots, metadata: metadata)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.count == spots.count)
            #expect(reader.fileSize == bytes.count)
            #expect(reader.file == path)
            #expect(try reader.metadata() == metadata)
            for (position, written) in spots.enumerated() {
                let read = try reader.spot(at: position)
                #expect(read == written, "spot \(position)")
                expectSameBytes(read, written, position)
            }
            let checks = reader.verifyChecksums()
            #expect(checks.count == 5)
            #expect(checks.allSatisfy { $0.isValid })
        }
    }

    @Test("random spots and metadata read back equal, byte for byte", arguments: [1, 2, 3, 4] as [UInt64])
    func randomRoundTrip(seed: UInt64) throws {
        try Self.roundTrip(seed: seed, count: 250)
    }

    @Test("a single spot and an index of no spots round trip")
    func smallAndEmpty() throws {
        try Self.roundTrip(seed: 99, count: 1)
        try Self.roundTrip(seed: 100, count: 0)
        let metadata = IndexMetadata(generator: "", buildTime: nil, inputs: [], bboxE7: nil, statistics: [:])
        let bytes = SpotIndexWriter.encode([], metadata: metadata)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.count == 0)
            #expect(try reader.metadata() == metadata)
            #expect(reader.verifyChecksums().allSatisfy { $0.isValid })
        }
    }

    @Test("spots at the limits of every field round trip")
    func extremes() throws {
        let spots = [
            Spot(ref: OSMRef(.node, Int64.min), coordinate: Coordinate(latitudeE7: -900_000_000, longitudeE7: -1_800_000_000)!, tagKey: "", kind: "", category: nil),
            Spot(ref: OSMRef(.relation, Int64.max), coordinate: Coordinate(latitudeE7: 900_000_000, longitudeE7: 1_800_000_000)!, tagKey: "tourism", kind: "", category: .touristInformation, name: ""),
            Spot(ref: OSMRef(.way, -1), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: "amenity", kind: "cafe", category: .cafe,
                 name: "\"quoted\" \\ back\nslash\u{0000}nul", names: ["ja": "", "zh-Hant": "咖啡"], address: ["full": "\r\n"],
                 details: [.website: String(repeating: "長い", count: 5000)],
                 merged: [OSMRef(.node, Int64.min), OSMRef(.way, Int64.max), OSMRef(.relation, 0), OSMRef(.node, Int64.min)]),
        ]
        let metadata = IndexMetadata(
            generator: "spots \"test\"\n", buildTime: "1970-01-01T00:00:00Z", inputs: [.init(name: "-", bytes: 0)],
            bboxE7: [-1_800_000_000, -900_000_000, 1_800_000_000, 900_000_000], statistics: ["max": Int.max, "min": Int.min])
        try withTemporaryFile(SpotIndexWriter.encode(spots, metadata: metadata)) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(try reader.metadata() == metadata)
            #expect(try (0..<reader.count).map { try reader.spot(at: $0) } == spots)
        }
    }

    @Test("encoding equal spots twice gives identical bytes, whatever order the attributes were set in")
    func reproducible() {
        var factory = SpotFactory(seed: 7)
        let spots = (0..<100).map { _ in factory.spot() }
        let metadata = factory.metadata(count: spots.count)
        // The same spots, built again with attributes set in reverse order into differently sized dictionaries.
        let rebuilt = spots.map { spot in
            var copy = Spot(ref: spot.ref, coordinate: spot.coordinate, tagKey: spot.tagKey, kind: spot.kind, category: spot.category, merged: spot.merged)
            copy.names.reserveCapacity(64)
            copy.address.reserveCapacity(64)
            copy.details.reserveCapacity(32)
            for tag in spot.attributeTags.reversed() { copy.setAttribute(key: tag.key, value: tag.value) }
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

    @Test("spots keep their order, and the string pool stores each distinct string once")
    func orderAndPooling() throws {
        let base = Spot(ref: OSMRef(.node, 1), coordinate: Coordinate(latitudeE7: 1, longitudeE7: 2)!, tagKey: "amenity", kind: "cafe", category: .cafe, name: "Same name")
        let spots = (0..<50).map { i in
            var spot = base
            spot.ref = OSMRef(.node, Int64(50 - i))
            return spot
        }
        let bytes = SpotIndexWriter.encode(spots, metadata: IndexMetadata(generator: "g", buildTime: nil, inputs: [], bboxE7: nil, statistics: [:]))
        let strings = bytes.section("STRS")
        // "cafe" (kind, and category name), "amenity" and "Same name" and "name".
        #expect(bytes.load(UInt32.self, at: strings.offset) == 4)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(try (0..<reader.count).map { try reader.spot(at: $0).ref.id } == (1...50).reversed().map(Int64.init))
        }
    }

    @Test("canonically equivalent but differently encoded strings keep their own bytes")
    func canonicalEquivalentsKeepTheirBytes() throws {
        // "é" as one scalar (NFC) and as e + combining acute (NFD): equal as Swift Strings, different in UTF-8.
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        let coordinate = Coordinate(latitudeE7: 0, longitudeE7: 0)!
        let spots = [
            Spot(ref: OSMRef(.node, 1), coordinate: coordinate, tagKey: "amenity", kind: "cafe", category: .cafe, name: composed),
            Spot(ref: OSMRef(.node, 2), coordinate: coordinate, tagKey: "amenity", kind: "cafe", category: .cafe, name: decomposed),
        ]
        let bytes = SpotIndexWriter.encode(spots, metadata: IndexMetadata(generator: "g", buildTime: nil, inputs: [], bboxE7: nil, statistics: [:]))
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            let first = try reader.spot(at: 0)
            let second = try reader.spot(at: 1)
            #expect(Array(first.name!.utf8) == Array(composed.utf8))
            #expect(Array(second.name!.utf8) == Array(decomposed.utf8), "the second spot's name comes back with the first spot's bytes")
        }
    }
}

@Suite("Index layout")
struct LayoutTests {
    static let bytes: [UInt8] = {
        var factory = SpotFactory(seed: 11)
        let spots = (0..<20).map { _ in factory.spot() }
        return SpotIndexWriter.encode(spots, metadata: factory.metadata(count: spots.count))
    }()

    @Test("the header holds the magic, version 1, five sections, the file size and zlib's CRC of header and table")
    func header() {
        let bytes = Self.bytes
        #expect(Array(bytes[0..<8]) == [0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A])
        #expect(bytes.load(UInt32.self, at: 8) == 1)
        #expect(bytes.load(UInt32.self, at: 12) == 5)
        #expect(bytes.load(UInt64.self, at: 16) == UInt64(bytes.count))
        #expect(bytes.load(UInt32.self, at: 24) == zlibCRC32(bytes[32..<32 + 5 * 32], continuing: zlibCRC32(bytes[0..<24])))
    }

    @Test("sections are META, STRS, SPOT, ATTR, MERG, 8-byte aligned, in order, with zlib's CRC, as the reader reports")
    func sections() throws {
        let bytes = Self.bytes
        let sections = bytes.rawSections
        #expect(sections.map(\.name) == ["META", "STRS", "SPOT", "ATTR", "MERG"])
        var end = 32 + 5 * 32
        for section in sections {
            #expect(section.offset % 8 == 0)
            #expect(section.offset >= end)
            #expect(section.offset - end < 8, "no more padding than alignment needs")
            #expect(section.checksum == zlibCRC32(bytes[section.range]))
            end = section.offset + section.length
        }
        #expect(end == bytes.count)
        #expect(bytes.section("SPOT").length == 20 * 48)
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.sections.map(\.name) == sections.map(\.name))
            #expect(reader.sections.map(\.offset) == sections.map(\.offset))
            #expect(reader.sections.map(\.length) == sections.map(\.length))
            #expect(reader.sections.map(\.checksum) == sections.map(\.checksum))
        }
    }

    @Test("the metadata section is sorted snake_case JSON")
    func metadataJSON() throws {
        let bytes = Self.bytes
        let meta = bytes.section("META")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes[meta.range])) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["generator", "inputs", "bbox_e7", "statistics"]))
        let text = String(decoding: bytes[meta.range], as: UTF8.self)
        #expect(text.range(of: "\"bbox_e7\"")!.lowerBound < text.range(of: "\"generator\"")!.lowerBound)
    }
}
