import CBzip2
import Foundation
import SpotTestSupport
import Testing

@testable import OSMInput

/// `bytes` compressed by libbz2 at `level` (1 to 9: blocks of 100 to 900 kB), one stream per
/// `streamSize` bytes of input, as pbzip2 writes them (one stream when `streamSize` is nil).
func bzip2(_ bytes: [UInt8], level: Int32 = 9, streamSize: Int? = nil) -> [UInt8] {
    var output: [UInt8] = []
    var start = 0
    repeat {
        let end = min(bytes.count, start + (streamSize ?? bytes.count))
        var piece = Array(bytes[start..<end])
        var size = UInt32(piece.count + piece.count / 100 + 600)
        var compressed = [UInt8](repeating: 0, count: Int(size))
        let status = compressed.withUnsafeMutableBytes { out in
            piece.withUnsafeMutableBytes { input in
                BZ2_bzBuffToBuffCompress(
                    out.baseAddress!.assumingMemoryBound(to: CChar.self), &size,
                    input.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(input.count), level, 0, 0)
            }
        }
        precondition(status == BZ_OK, "bzip2 failed")
        output += compressed[..<Int(size)]
        start = end
    } while start < bytes.count
    return output
}

/// The XML inside a gzip file (gzip -dc).
private func gunzip(_ path: String) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "gzip -dc '\(path)'"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](data)
}

/// Whether two reads of the same XML, compressed differently, hand over the same: everything
/// but the raw input bytes.
private func sameXML(_ outcome: ReadOutcome, _ reference: ReadOutcome) -> Bool {
    var outcome = outcome
    outcome.summary.inputBytes = reference.summary.inputBytes
    return outcome.matches(reference)
}

/// Reads `xml` and the same XML in each bzip2 form, on 1, 2 and 3 threads, and expects the
/// same elements and counts.
private func expectSameAsXML(_ xml: [UInt8], filter: OSMElementFilter) throws {
    let forms: [(String, [UInt8])] = [
        ("level 9, one stream", bzip2(xml)), ("level 1, one stream of many blocks", bzip2(xml, level: 1)),
        ("many streams, as pbzip2", bzip2(xml, level: 1, streamSize: 150_000)),
    ]
    try withTemporaryFolder { folder in
        let reference = readOutcome(try folder.write(xml, to: "plain.osm"), threads: 2, filter: filter)
        #expect(reference.error == nil)
        for (name, bytes) in forms {
            let path = try folder.write(bytes, to: "input.osm.bz2")
            for threads in [1, 2, 3] {
                let outcome = readOutcome(path, threads: threads, filter: filter)
                #expect(
                    sameXML(outcome, reference), "\(name), \(threads) threads: \(outcome.difference(from: reference))")
                #expect(outcome.summary.inputBytes == bytes.count)
            }
        }
    }
}

@Suite("Reading bzip2")
struct Bzip2ReaderTests {
    @Test("the Himeji sample and the areas fixture read the same as bzip2, one stream or many")
    func readsFixtures() throws {
        for file in ["Samples/himeji-castle.osm", "Tests/Fixtures/osm/areas.osm"] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(file)
            try expectSameAsXML([UInt8](try Data(contentsOf: url)), filter: areaElements)
        }
    }

    @Test(
        "every real extract reads the same as gzip, as plain XML and as bzip2 (one stream of many blocks, many streams)",
        .enabled(if: FileManager.default.fileExists(atPath: sharedData.path), "../shared/data is absent: skipped"),
        arguments: ["monaco-2021-04", "liechtenstein-2015-07", "andorra-2021-04", "helsinki-center", "pois-union"])
    func readsRealExtracts(_ name: String) throws {
        let gzipped = sharedData.appendingPathComponent(name + ".osm.gz").path
        let xml = try gunzip(gzipped)
        let fromGzip = readOutcome(gzipped, threads: 2, filter: areaElements)
        try withTemporaryFile(xml, named: "plain.osm") { path in
            #expect(sameXML(readOutcome(path, threads: 2, filter: areaElements), fromGzip))
        }
        try expectSameAsXML(xml, filter: areaElements)
    }

    @Test(
        "damaged bzip2 gives one line at the byte where it is found, the same on any thread count",
        arguments: [
            ("cut", "truncated bzip2 stream"), ("flipped", "corrupt bzip2 data"),
            ("junk", "bytes after a bzip2 stream that start no other"),
            ("crc", "corrupt bzip2 data (the stream's CRC does not match its blocks')"),
            ("header only", "truncated bzip2 stream"), ("no block", "no block after the stream header"),
        ])
    func refusesDamage(_ damage: String, _ message: String) throws {
        let xml = Array(document(nodes: 3000).utf8)
        let good = bzip2(xml, level: 1)
        var bytes = good
        switch damage {
        case "cut": bytes = Array(good.prefix(good.count * 2 / 3))
        case "flipped": bytes[good.count / 2] ^= 0x10
        case "junk": bytes += Array("garbage".utf8)
        case "crc": bytes[good.count - 2] ^= 1
        case "header only": bytes = Array("BZh9".utf8)
        default: bytes = Array("BZh9".utf8) + [UInt8](repeating: 7, count: 40)
        }
        try withTemporaryFile(bytes, named: "damaged.osm.bz2") { path in
            let outcomes = [1, 2, 4].map { readOutcome(path, threads: $0, filter: allTypes) }
            let error = try #require(outcomes[0].error, "\(damage): no error")
            #expect(error.kind == .malformed)
            #expect(error.message.contains(message), "\(damage): \(error.description)")
            guard case .byte? = error.location else {
                Issue.record("\(damage): no byte offset: \(error.description)")
                return
            }
            for outcome in outcomes.dropFirst() { #expect(outcome.error?.description == error.description) }
        }
    }
}
