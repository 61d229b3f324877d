import Foundation
import InputStreams
import SpotTestSupport
import Testing

@testable import OSMInput

/// A PBF file of a header and one data block holding `block`, zlib-compressed or raw.
private func file(block: [UInt8], compressed: Bool = true) -> [UInt8] {
    PBFTestFile.bytes([]) + PBFTestFile.block(type: "OSMData", blob: PBFTestFile.blob(block, compressed: compressed))
}

/// A data block with one dense node tagged `tags`, its string table as given.
private func denseBlock(strings: [String], keysValues: [UInt64]) -> [UInt8] {
    var table = ProtoMessage()
    for string in strings { table.string(1, string) }
    var nodes = ProtoMessage()
    nodes.packedSigned(1, [1], delta: true)
    nodes.packedSigned(8, [0], delta: true)
    nodes.packedSigned(9, [0], delta: true)
    nodes.packed(10, keysValues)
    var group = ProtoMessage()
    group.message(2, nodes)
    var block = ProtoMessage()
    block.message(1, table)
    block.message(2, group)
    return block.bytes
}

/// A blob with zlib data and a declared raw size.
private func zlibBlob(_ data: [UInt8], declaring size: Int) -> ProtoMessage {
    var blob = ProtoMessage()
    blob.varint(2, UInt64(size))
    blob.bytes(3, PBFTestFile.zlib(data))
    return blob
}

private let good = PBFTestFile.bytes([
    .node(1, 10, 20, [("amenity", "cafe")]), .way(5, [1, 1], [("amenity", "parking")]),
])
private let oneNode = denseBlock(strings: ["", "amenity", "cafe"], keysValues: [1, 2, 0])

/// Damaged PBF, each with a part of the one-line message it must give.
private let damaged: [(name: String, bytes: [UInt8], message: String)] = [
    ("truncated blob", Array(good.dropLast(3)), "truncated blob"),
    ("truncated block length", good + [0, 0], "truncated block length"),
    ("truncated BlobHeader", good + [0, 0, 0, 40, 0x0A], "truncated BlobHeader"),
    ("BlobHeader over 64 KiB", good + [0, 1, 0, 1], "BlobHeader of 65537 bytes, over the format's limit of 65536"),
    (
        "blob over 32 MiB",
        {
            var header = ProtoMessage()
            header.string(1, "OSMData")
            header.varint(3, 32 << 20 + 1)
            return good + [0, 0, 0, UInt8(header.bytes.count)] + header.bytes
        }(), "blob of 33554433 bytes, over the format's limit of 33554432"
    ),
    (
        "blob declared over 32 MiB inflated",
        PBFTestFile.bytes([]) + PBFTestFile.block(type: "OSMData", blob: zlibBlob(oneNode, declaring: 32 << 20 + 1)),
        "over the format's limit"
    ),
    (
        "inflates to less than declared",
        PBFTestFile.bytes([])
            + PBFTestFile.block(type: "OSMData", blob: zlibBlob(oneNode, declaring: oneNode.count + 5)),
        "inflates to \(oneNode.count) bytes, not the \(oneNode.count + 5) declared"
    ),
    (
        "inflates to more than declared",
        PBFTestFile.bytes([])
            + PBFTestFile.block(type: "OSMData", blob: zlibBlob(oneNode, declaring: oneNode.count - 1)),
        "inflates to more than the \(oneNode.count - 1) bytes declared"
    ),
    (
        "corrupt zlib data",
        {
            var blob = ProtoMessage()
            blob.varint(2, 100)
            blob.bytes(3, [0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF])
            return PBFTestFile.bytes([]) + PBFTestFile.block(type: "OSMData", blob: blob)
        }(), "corrupt zlib data"
    ),
    (
        "zstd blob",
        {
            var blob = ProtoMessage()
            blob.varint(2, 10)
            blob.bytes(7, [1, 2, 3])
            return PBFTestFile.bytes([]) + PBFTestFile.block(type: "OSMData", blob: blob)
        }(), "a blob compressed with zstd, which Spots does not read (it reads zlib and uncompressed blobs)"
    ),
    (
        "lzma blob",
        {
            var blob = ProtoMessage()
            blob.bytes(4, [1, 2, 3])
            return PBFTestFile.bytes([]) + PBFTestFile.block(type: "OSMData", blob: blob)
        }(), "compressed with lzma"
    ),
    (
        "history file", PBFTestFile.bytes([], required: ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]),
        "bad OSMHeader block: the file requires HistoricalInformation, which Spots does not read (it reads DenseNodes and OsmSchema-V0.6)"
    ),
    (
        "bad varint",
        file(
            block: {
                var block = ProtoMessage()
                // Field 17 (granularity), a varint of eleven bytes.
                block.append(raw: [0x88, 0x01] + [UInt8](repeating: 0xFF, count: 10) + [0x01])
                return block.bytes
            }()), "bad OSMData block: bad varint"
    ),
    ("varint cut by the end of its block", file(block: [0x88, 0x01, 0xFF]), "bad OSMData block: truncated data"),
    ("length past the end of its block", file(block: [0x0A, 0x7F, 0x01]), "truncated data"),
    ("group wire type", file(block: [0x0B]), "unknown wire type 3"),
    ("wrong wire type", file(block: [0x10, 0x01]), "field 2 has the wrong wire type"),
    (
        "string index out of range", file(block: denseBlock(strings: ["", "amenity"], keysValues: [1, 7, 0])),
        "a string index of 7, beyond the 2 strings of its block"
    ),
    ("keys_vals cut", file(block: denseBlock(strings: ["", "amenity", "cafe"], keysValues: [1])), "truncated data"),
    (
        "more coordinates than ids",
        file(
            block: {
                var nodes = ProtoMessage()
                nodes.packedSigned(1, [1], delta: true)
                nodes.packedSigned(8, [0, 1], delta: true)
                nodes.packedSigned(9, [0, 1], delta: true)
                var group = ProtoMessage()
                group.message(2, nodes)
                var block = ProtoMessage()
                block.message(1, ProtoMessage())
                block.message(2, group)
                return block.bytes
            }()), "dense nodes with more coordinates than ids"
    ),
    (
        "granularity 0",
        file(
            block: {
                var block = ProtoMessage()
                block.varint(17, 0)
                return block.bytes
            }()), "a granularity of 0"
    ),
]

@Suite("Damaged PBF")
struct PBFDamageTests {
    @Test(
        "each damage gives one line naming it at the block's offset, the same on any thread count",
        arguments: damaged.indices)
    func refusesDamage(_ index: Int) throws {
        let (name, bytes, message) = damaged[index]
        try withTemporaryFile(bytes, named: "damaged.osm.pbf") { path in
            let outcomes = [1, 2, 4].map { readOutcome(path, threads: $0, filter: areaElements) }
            let error = try #require(outcomes[0].error, "\(name): read without an error")
            #expect(error.kind == .malformed, "\(name)")
            #expect(error.message.contains(message), "\(name): \(error.description)")
            #expect(!error.description.contains("\n"))
            guard case .byte? = error.location else {
                Issue.record("\(name): no byte offset in \(error.description)")
                return
            }
            for outcome in outcomes.dropFirst() {
                #expect(outcome.error?.description == error.description, "\(name)")
            }
        }
    }

    @Test("the reader's limits apply to PBF elements as to XML ones")
    func appliesLimits() throws {
        let manyTags = (0..<11).map { ("k\($0)", "v") } + [("amenity", "cafe")]
        let cases: [(PBFTestElement, OSMReadLimits, String)] = [
            (
                .node(1, 0, 0, manyTags), OSMReadLimits(maxElementBytes: 1 << 20, maxTags: 10, maxValueBytes: 100),
                "more than 10 tags on one element (max_tags)"
            ),
            (
                .node(1, 0, 0, [("amenity", String(repeating: "x", count: 101))]),
                OSMReadLimits(maxElementBytes: 1 << 20, maxTags: 10, maxValueBytes: 100),
                "longer than 100 bytes (max_value_bytes)"
            ),
            (
                .way(1, Array(1...400), [("amenity", "parking")]),
                OSMReadLimits(maxElementBytes: 300, maxTags: 10, maxValueBytes: 100),
                "element larger than the limit of 300 bytes (max_element_bytes)"
            ),
        ]
        for (element, limits, message) in cases {
            for dense in [true, false] {
                try withTemporaryFile(PBFTestFile.bytes([element], dense: dense), named: "limits.osm.pbf") { path in
                    var collector = Collector()
                    #expect {
                        _ = try OSMReader(file: path, filter: areaElements, limits: limits, threads: 2).read(
                            into: &collector)
                    } throws: { ($0 as! OSMInputError).message.contains(message) }
                }
            }
        }
    }

    @Test("the elements of the blocks before a damaged one are handed over first")
    func handsOverWhatCameBefore() throws {
        let bytes = PBFTestFile.bytes((1...300).map { .node(Int64($0), 0, 0, [("amenity", "cafe")]) }, perBlock: 100)
        try withTemporaryFile(Array(bytes.dropLast(2)), named: "cut.osm.pbf") { path in
            for threads in [1, 2] {
                let outcome = readOutcome(path, threads: threads, filter: poiNodes)
                #expect(outcome.error?.message.contains("truncated blob") == true)
                #expect(outcome.elements.map(\.id) == Array(1...200))
            }
        }
    }
}
