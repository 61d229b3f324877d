import CZlib
import Foundation
import InputStreams
import SpotTestSupport
import Testing

@testable import OSMInput

// Reading in pieces on several threads must give exactly what one sequential parser gives: the
// same elements in the same order, the same counts, the same first error at the same place.

/// One delivered element, compact enough to keep hundreds of thousands of them.
struct Fingerprint: Equatable, CustomStringConvertible {
    var type: OSMElementType
    var id: Int64
    var version: Int64
    var line: Int
    var latitudeE7: Int32?
    var longitudeE7: Int32?
    var tagCount: Int
    /// FNV-1a of every tag's key and value bytes, in order.
    var tagDigest: UInt64

    var description: String { "\(type) \(id) v\(version) line \(line) tags \(tagCount)" }
}

/// Collects fingerprints of what the reader hands over.
struct FingerprintCollector: OSMElementHandler {
    var elements: [Fingerprint] = []

    mutating func handle(_ element: OSMElement) {
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
            digest = (digest ^ 0xFF) &* 0x100_0000_01B3
        }
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            mix(tag.key.buffer)
            mix(tag.value.buffer)
        }
        func mix(_ number: Int64) {
            withUnsafeBytes(of: number) { mix($0.bindMemory(to: UInt8.self)) }
        }
        for ref in element.nodeRefs { mix(ref) }
        for index in 0..<element.memberCount {
            let member = element.member(at: index)
            mix(Int64(member.type?.rawValue ?? 9))
            mix(member.ref ?? 0)
            mix(member.role.buffer)
        }
        elements.append(
            Fingerprint(
                type: element.type, id: element.id, version: element.version, line: element.line,
                latitudeE7: element.latitudeE7, longitudeE7: element.longitudeE7, tagCount: element.tagCount,
                tagDigest: digest))
    }
}

/// Everything a read gives: the elements, or the error.
struct ReadOutcome {
    var elements: [Fingerprint] = []
    var summary = OSMReadSummary()
    var error: OSMInputError?

    /// The same elements and counts, however the input was cut; or the same error (the elements
    /// handed over before an error depend on where the pieces end).
    func matches(_ other: ReadOutcome) -> Bool {
        if error != nil || other.error != nil { return error?.description == other.error?.description }
        return elements == other.elements && summary.sameContents(as: other.summary)
    }

    /// Where two outcomes first differ, for a failure message.
    func difference(from other: ReadOutcome) -> String {
        if error?.description != other.error?.description {
            return "error \(error?.description ?? "none") ≠ \(other.error?.description ?? "none")"
        }
        if let index = zip(elements, other.elements).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        {
            return "element \(index): \(elements[index]) ≠ \(other.elements[index])"
        }
        if elements.count != other.elements.count { return "\(elements.count) elements ≠ \(other.elements.count)" }
        return "summary \(summary) ≠ \(other.summary)"
    }
}

let allTypes = OSMElementFilter(types: [.node, .way, .relation])
/// The filter a build uses: nodes with a selecting key.
let poiNodes = OSMElementFilter(types: [.node], tagKeys: ["amenity", "tourism", "shop"])
/// The filter a build with areas uses: tagged elements, and every node and way bare.
let areaElements = OSMElementFilter(
    types: [.node, .way, .relation], tagKeys: ["amenity", "tourism"], bareTypes: [.node, .way])

/// Reads `path` with `threads` threads in pieces of `pieceSize` bytes; with `expatAlone`, every
/// piece by the one sequential parser (the reference).
func readOutcome(
    _ path: String, threads: Int, pieceSize: Int = OSMReader.defaultPieceSize, filter: OSMElementFilter = allTypes,
    expatAlone: Bool = false
) -> ReadOutcome {
    var collector = FingerprintCollector()
    var outcome = ReadOutcome()
    do {
        outcome.summary = try OSMReader(
            file: path, filter: filter, threads: threads, pieceSize: pieceSize, parsesApart: !expatAlone
        )
        .read(into: &collector)
    } catch {
        outcome.error = error
    }
    outcome.elements = collector.elements
    return outcome
}

/// `text` as gzip, one member per `memberSize` bytes of it (several members, cut anywhere).
func gzip(_ bytes: [UInt8], memberSize: Int = .max) -> [UInt8] {
    var output: [UInt8] = []
    var start = 0
    repeat {
        let end = min(bytes.count, start + max(1, memberSize))
        var stream = z_stream()
        deflateInit2_(
            &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        var member = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(end - start))) + 64)
        var input = Array(bytes[start..<end])
        input.withUnsafeMutableBufferPointer { input in
            member.withUnsafeMutableBufferPointer { out in
                stream.next_in = input.baseAddress
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                _ = deflate(&stream, Z_FINISH)
            }
        }
        output += member[..<Int(stream.total_out)]
        deflateEnd(&stream)
        start = end
    } while start < bytes.count
    return output
}

/// Reads `bytes` (as a file) with expat alone, then with 1 and with several threads in pieces of
/// each of `pieceSizes`, and expects the same outcome every time, and the same pieces parsed
/// apart with any thread count; returns the reference and the outcomes cut in pieces.
@discardableResult
func expectSameOutcome(
    _ bytes: [UInt8], pieceSizes: [Int], threads: [Int] = [1, 3], filter: OSMElementFilter = allTypes,
    suffix: String = ".osm", sourceLocation: SourceLocation = #_sourceLocation
) throws -> (reference: ReadOutcome, cut: [ReadOutcome]) {
    try withTemporaryFile(bytes, named: "input" + suffix) { path in
        let reference = readOutcome(path, threads: 1, pieceSize: 1 << 24, filter: filter, expatAlone: true)
        var outcomes: [ReadOutcome] = []
        for pieceSize in pieceSizes {
            var first: ReadOutcome?
            for count in threads {
                let outcome = readOutcome(path, threads: count, pieceSize: pieceSize, filter: filter)
                let same = outcome.matches(reference)
                #expect(
                    same, "\(count) threads, pieces of \(pieceSize): \(outcome.difference(from: reference))",
                    sourceLocation: sourceLocation)
                if let first {
                    // The same pieces: the same elements before an error too.
                    let identical =
                        outcome.elements == first.elements && outcome.error?.description == first.error?.description
                        && outcome.summary.parallelPieces == first.summary.parallelPieces
                    #expect(
                        identical, "\(count) threads, pieces of \(pieceSize): \(outcome.difference(from: first))",
                        sourceLocation: sourceLocation)
                }
                first = first ?? outcome
                outcomes.append(outcome)
            }
        }
        return (reference, outcomes)
    }
}

/// A document of `nodes` generated top-level elements (nodes with and without tags, ways with
/// and without children, relations), each on a line of its own after `indent`, or all on one
/// line when `indent` is nil; `insertions[id]` goes just before element `id`.
func document(
    prolog: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
    root: String = "<osm version=\"0.6\" generator=\"test\" timestamp=\"2020-01-01T00:00:00Z\">",
    indent: String? = "  ", lineEnd: String = "\n", nodes: Int = 40, insertions: [Int: String] = [:]
) -> String {
    let separator = indent.map { lineEnd + $0 } ?? ""
    var text = prolog + root + separator + "<bounds minlat=\"0\" minlon=\"0\" maxlat=\"1\" maxlon=\"1\"/>"
    for id in 1...nodes {
        if let insertion = insertions[id] { text += separator + insertion }
        switch id % 4 {
        case 0:
            text +=
                separator
                + "<node id=\"\(id)\" lat=\"\(id).5\" lon=\"-\(id).25\" timestamp=\"2021-0\(id % 9 + 1)-01T00:00:00Z\"/>"
        case 1:
            text +=
                separator + "<node id=\"\(id)\" version=\"2\" lat=\"1.0\" lon=\"2.0\">"
                + separator + (indent ?? "") + "<tag k=\"amenity\" v=\"cafe \(id)\"/>"
                + separator + (indent ?? "") + "<tag k=\"name\" v=\"Café ünïcödé №\(id)\"/>" + separator + "</node>"
        case 2:
            text += separator + "<way id=\"\(id)\"><nd ref=\"1\"/><nd ref=\"2\"/><tag k=\"building\" v=\"yes\"/></way>"
        default:
            text +=
                separator + "<way id=\"\(id)\"/>" + separator + "<relation id=\"\(id)\" version=\"3\">"
                + "<member type=\"way\" ref=\"2\" role=\"outer\"/><tag k=\"tourism\" v=\"museum\"/></relation>"
        }
    }
    return text + (indent == nil ? "" : lineEnd) + "</osm>" + lineEnd
}

/// Piece sizes that move every boundary around: all small sizes in a range, some larger ones.
let smallPieces = Array(64...128) + [150, 200, 256, 333, 512, 1000, 4096]
/// Fewer of them, for the many variants of a document.
let somePieces = [64, 65, 71, 83, 97, 128, 200, 512]
