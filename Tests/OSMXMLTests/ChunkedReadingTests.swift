import CZlib
import Foundation
import Testing

@testable import OSMXML

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
        elements.append(Fingerprint(
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
        if let index = zip(elements, other.elements).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "element \(index): \(elements[index]) ≠ \(other.elements[index])"
        }
        if elements.count != other.elements.count { return "\(elements.count) elements ≠ \(other.elements.count)" }
        return "summary \(summary) ≠ \(other.summary)"
    }
}

let allTypes = OSMElementFilter(types: [.node, .way, .relation])
/// The filter a build uses: nodes with a selecting key.
let poiNodes = OSMElementFilter(types: [.node], tagKeys: ["amenity", "tourism", "shop"])

/// Reads `path` with `threads` threads in pieces of `pieceSize` bytes.
func readOutcome(_ path: String, threads: Int, pieceSize: Int = OSMReader.defaultPieceSize, filter: OSMElementFilter = allTypes) -> ReadOutcome {
    var collector = FingerprintCollector()
    var outcome = ReadOutcome()
    do {
        outcome.summary = try OSMReader(file: path, filter: filter, threads: threads, pieceSize: pieceSize).read(into: &collector)
    } catch {
        outcome.error = error
    }
    outcome.elements = collector.elements
    return outcome
}

/// A temporary file holding `bytes`, removed after `body`.
func withTemporaryFile<T>(_ bytes: [UInt8], suffix: String = ".osm", _ body: (String) throws -> T) rethrows -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("osmxml-\(UUID().uuidString)\(suffix)")
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
}

/// `text` as gzip, one member per `memberSize` bytes of it (several members, cut anywhere).
func gzip(_ bytes: [UInt8], memberSize: Int = .max) -> [UInt8] {
    var output: [UInt8] = []
    var start = 0
    repeat {
        let end = min(bytes.count, start + max(1, memberSize))
        var stream = z_stream()
        deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
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

/// Reads `bytes` (as a file) with one thread in one piece, then with several threads in pieces of
/// each of `pieceSizes`, and expects the same outcome every time; returns the reference and the
/// outcomes cut in pieces.
@discardableResult
func expectSameOutcome(
    _ bytes: [UInt8], pieceSizes: [Int], threads: [Int] = [1, 3], filter: OSMElementFilter = allTypes,
    suffix: String = ".osm", sourceLocation: SourceLocation = #_sourceLocation
) -> (reference: ReadOutcome, cut: [ReadOutcome]) {
    withTemporaryFile(bytes, suffix: suffix) { path in
        let reference = readOutcome(path, threads: 1, pieceSize: 1 << 24, filter: filter)
        var outcomes: [ReadOutcome] = []
        for pieceSize in pieceSizes {
            var first: ReadOutcome?
            for count in threads {
                let outcome = readOutcome(path, threads: count, pieceSize: pieceSize, filter: filter)
                let same = outcome.matches(reference)
                #expect(same, "\(count) threads, pieces of \(pieceSize): \(outcome.difference(from: reference))", sourceLocation: sourceLocation)
                if let first {
                    // The same pieces: the same elements before an error too.
                    let identical = outcome.elements == first.elements && outcome.error?.description == first.error?.description
                    #expect(identical, "\(count) threads, pieces of \(pieceSize): \(outcome.difference(from: first))", sourceLocation: sourceLocation)
                }
                if count == 1 { #expect(outcome.summary.parallelPieces == 0, sourceLocation: sourceLocation) }
                first = first ?? outcome
                outcomes.append(outcome)
            }
        }
        return (reference, outcomes)
    }
}

/// A document with every awkward place for a boundary; `body` lines go between the generated
/// nodes, `nodes` of them, one line each unless `indent` is nil (then none, no newline).
func document(
    prolog: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", root: String = "<osm version=\"0.6\" generator=\"test\" timestamp=\"2020-01-01T00:00:00Z\">",
    indent: String? = "  ", lineEnd: String = "\n", nodes: Int = 40, insertions: [Int: String] = [:]
) -> String {
    let separator = indent.map { lineEnd + $0 } ?? ""
    var text = prolog + root + separator + "<bounds minlat=\"0\" minlon=\"0\" maxlat=\"1\" maxlon=\"1\"/>"
    for id in 1...nodes {
        if let insertion = insertions[id] { text += separator + insertion }
        switch id % 4 {
        case 0:
            text += separator + "<node id=\"\(id)\" lat=\"\(id).5\" lon=\"-\(id).25\" timestamp=\"2021-0\(id % 9 + 1)-01T00:00:00Z\"/>"
        case 1:
            text += separator + "<node id=\"\(id)\" version=\"2\" lat=\"1.0\" lon=\"2.0\">"
                + separator + (indent ?? "") + "<tag k=\"amenity\" v=\"cafe \(id)\"/>"
                + separator + (indent ?? "") + "<tag k=\"name\" v=\"Café ünïcödé №\(id)\"/>" + separator + "</node>"
        case 2:
            text += separator + "<way id=\"\(id)\"><nd ref=\"1\"/><nd ref=\"2\"/><tag k=\"building\" v=\"yes\"/></way>"
        default:
            text += separator + "<way id=\"\(id)\"/>" + separator + "<relation id=\"\(id)\" version=\"3\">"
                + "<member type=\"way\" ref=\"2\" role=\"outer\"/><tag k=\"tourism\" v=\"museum\"/></relation>"
        }
    }
    return text + (indent == nil ? "" : lineEnd) + "</osm>" + lineEnd
}

/// Piece sizes that move every boundary around: all small sizes in a range, some larger ones.
let smallPieces = Array(64...128) + [150, 200, 256, 333, 512, 1000, 4096]
/// Fewer of them, for the many variants of a document.
let somePieces = [64, 65, 71, 83, 97, 128, 200, 512]

@Suite("Reading in pieces on several threads")
struct ChunkedReadingTests {
    @Test("the default thread count is the number of active cores; 1 parses everything in order")
    func defaultThreads() {
        #expect(OSMReader(file: "-", filter: allTypes).threads == ProcessInfo.processInfo.activeProcessorCount)
        #expect(OSMReader(file: "-", filter: allTypes, threads: 0).threads == 1)
    }

    @Test("plain documents: every boundary, and most pieces are parsed apart")
    func plainDocument() throws {
        let text = document(nodes: 120)
        let (reference, cut) = expectSameOutcome(Array(text.utf8), pieceSizes: smallPieces)
        #expect(reference.elements.count == 150 && reference.summary.nodes == 60)
        #expect(cut.contains { $0.summary.parallelPieces > 0 })
        for outcome in expectSameOutcome(Array(text.utf8), pieceSizes: [400, 1000], threads: [2]).cut {
            #expect(outcome.summary.parallelPieces > outcome.summary.sequentialPieces, "\(outcome.summary)")
        }
        expectSameOutcome(Array(text.utf8), pieceSizes: [64, 100, 300], filter: poiNodes)
    }

    @Test("tabs, no indentation at all, CRLF and CR line ends, a byte order mark, single quotes")
    func layouts() throws {
        for text in [
            document(indent: "\t", nodes: 30),
            document(indent: nil, nodes: 30),
            document(indent: "", nodes: 30),
            document(indent: " ", lineEnd: "\r\n", nodes: 30),
            document(indent: "", lineEnd: "\r", nodes: 30),
            "\u{FEFF}" + document(prolog: "<?xml version='1.0' encoding='UTF-8'?>", indent: nil, nodes: 30),
            document(root: "<osm\n  version='0.6'\n  generator='osmconvert'>", nodes: 30).replacingOccurrences(of: "\"", with: "'"),
        ] {
            let (_, cut) = expectSameOutcome(Array(text.utf8), pieceSizes: smallPieces)
            #expect(cut.contains { $0.summary.parallelPieces > 0 })
        }
    }

    @Test("markup inside attribute values: > and /> and the other quote")
    func valuesWithMarkup() throws {
        let insertions = [
            5: "<node id=\"1005\" lat=\"0\" lon=\"0\"><tag k=\"a\" v=\"x/>\"/><tag k=\"b\" v=\"/> >\n  > \"/></node>",
            9: "<node id=\"1009\" lat=\"0\" lon=\"0\" user='say \"/>\" &amp; &lt;node id=&quot;1&quot;/&gt;'/>",
            13: "<way id=\"1013\"><tag k=\"a\" v=\"&gt;\n  &lt;node id='2'/&gt;\"/></way>",
        ]
        let text = document(nodes: 30, insertions: insertions)
        let (reference, _) = expectSameOutcome(Array(text.utf8), pieceSizes: smallPieces)
        #expect(reference.elements.contains { $0.id == 1005 && $0.tagCount == 2 })
        #expect(reference.elements.contains { $0.id == 1009 } && reference.elements.contains { $0.id == 1013 })
    }

    @Test("comments, CDATA sections and processing instructions, holding what looks like elements")
    func specialMarkup() throws {
        let fake = "\n  <node id=\"77\" lat=\"0\" lon=\"0\"/>\n  </node>\n  <way id=\"78\"/>\n"
        let insertions = [
            3: "<!-- a comment" + fake + String(repeating: "-", count: 1) + " x -->",
            8: "<![CDATA[" + fake + "]] ]>" + fake + "]]>",
            12: "<?spots" + fake + "?>",
            16: "<!--" + String(repeating: fake, count: 20) + "-->",
            20: "<node id=\"2020\" lat=\"0\" lon=\"0\"><!--" + fake + "--><![CDATA[" + fake + "]]><?pi" + fake + "?></node>",
        ]
        let text = "<?xml version=\"1.0\"?>\n<!-- before the root" + fake + "-->\n<?pi before?>"
            + document(prolog: "", nodes: 30, insertions: insertions) + "<!-- after" + fake + "-->\n"
        let (reference, cut) = expectSameOutcome(Array(text.utf8), pieceSizes: smallPieces)
        #expect(!reference.elements.contains { $0.id == 77 || $0.id == 78 })
        #expect(reference.elements.contains { $0.id == 2020 })
        #expect(cut.contains { $0.summary.parallelPieces > 0 })
    }

    @Test("elements larger than a piece, and nodes nested in an unknown element")
    func largeAndNestedElements() throws {
        let members = (1...300).map { "<member type=\"node\" ref=\"\($0)\" role=\"stop\"/>" }.joined(separator: "\n    ")
        let insertions = [
            4: "<relation id=\"4004\">\n    " + members + "\n  </relation>",
            10: "<node id=\"4010\" lat=\"0\" lon=\"0\"><tag k=\"note\" v=\"" + String(repeating: "ü", count: 3000) + "\"/></node>",
            15: "<extension>\n  <node id=\"4015\" lat=\"0\" lon=\"0\"/>\n  <node id=\"4016\" lat=\"0\" lon=\"0\"/>\n  <way id=\"4017\"/>\n  </extension>",
            25: "<extension note=\"/>\">\n  <node id=\"4025\" lat=\"0\" lon=\"0\"/>\n  <way id=\"4026\" note='/>'>\n  <nd ref=\"1\"/>\n  </way>\n  </extension>",
        ]
        let text = document(nodes: 40, insertions: insertions)
        let (reference, cut) = expectSameOutcome(Array(text.utf8), pieceSizes: smallPieces)
        #expect(reference.elements.contains { $0.id == 4004 && $0.tagCount == 0 })
        #expect(!reference.elements.contains { [4015, 4016, 4017, 4025, 4026].contains($0.id) })
        #expect(cut.contains { $0.summary.parallelPieces > 0 })
    }

    @Test("a DOCTYPE declares entities and attribute defaults: everything after it is parsed in order")
    func doctype() throws {
        let prolog = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE osm [
              <!ENTITY cafe "caf&#233;">
              <!ATTLIST way visible CDATA "false">
            ]>

            """
        let text = document(prolog: prolog, nodes: 40, insertions: [7: "<node id=\"7007\" lat=\"0\" lon=\"0\"><tag k=\"amenity\" v=\"&cafe;\"/></node>"])
        let (reference, cut) = expectSameOutcome(Array(text.utf8), pieceSizes: smallPieces)
        #expect(reference.error == nil)
        #expect(reference.summary.deleted == 20)  // every way, by the declared default
        #expect(cut.allSatisfy { $0.summary.parallelPieces == 0 })
        // Without the DOCTYPE the same document is parsed apart.
        let plain = document(nodes: 40)
        let (_, plainCut) = expectSameOutcome(Array(plain.utf8), pieceSizes: [100])
        #expect(plainCut.contains { $0.summary.parallelPieces > 0 })
    }

    @Test("gzip with a member boundary anywhere reads the same as plain")
    func gzipMembers() throws {
        let text = Array(document(nodes: 60).utf8)
        let plain = withTemporaryFile(text) { readOutcome($0, threads: 1) }
        for memberSize in [1, 7, 100, 333, 4096] {
            var (reference, _) = expectSameOutcome(gzip(text, memberSize: memberSize), pieceSizes: [64, 97, 256, 1000], suffix: ".osm.gz")
            reference.summary.inputBytes = plain.summary.inputBytes
            let same = reference.matches(plain)
            #expect(same, "members of \(memberSize) bytes: \(reference.difference(from: plain))")
        }
    }
}

@Suite("Errors when reading in pieces")
struct ChunkedErrorTests {
    /// The error a read of `text` gives with one thread, checked to be the same with several
    /// threads and every small piece size.
    func error(_ text: String, pieceSizes: [Int] = smallPieces, sourceLocation: SourceLocation = #_sourceLocation) -> OSMInputError? {
        let (reference, _) = expectSameOutcome(Array(text.utf8), pieceSizes: pieceSizes, sourceLocation: sourceLocation)
        return reference.error
    }

    @Test("a malformed element deep in the file: same line and column")
    func mismatchedTag() throws {
        let text = document(nodes: 200, insertions: [150: "<node id=\"150150\" lat=\"0\" lon=\"0\"><tag k=\"a\" v=\"b\"></node>"])
        let error = try #require(self.error(text))
        #expect(error.message == "mismatched tag")
        // Expat points at the end tag's name.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = lines.firstIndex { $0.contains("150150") }!
        let column = lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: "</node>")!.lowerBound) + 3
        #expect(error.location == .line(line + 1, column: column))
    }

    @Test("errors expat finds and errors the reader finds, on lines and on one long line")
    func otherErrors() throws {
        for insertion in [
            "<node id=\"x\" lat=\"0\" lon=\"0\"/>",  // the reader's own rule
            "<node id=\"1\" lat=\"0\" lat=\"1\"/>",  // duplicate attribute
            "<node id=\"1\" lat=\"0\" lon=\"0\" user=\"a<b\"/>",
            "<node id=\"1\" lat=\"0\" lon=\"0\" user=\"\u{1}\"/>",
            "<node id=\"1\" lat=\"0\" lon=\"0\" user=\"&undefined;\"/>",
            "<node id=\"1\"/></osm><osm>",
            "<!DOCTYPE osm>",
        ] {
            for indent in ["  ", nil] {
                let bad = document(indent: indent, nodes: 30, insertions: [21: insertion])
                #expect(self.error(bad, pieceSizes: somePieces) != nil, "\(insertion)")
            }
        }
    }

    @Test("invalid UTF-8, CRLF lines and a byte order mark: same positions")
    func positions() throws {
        var bytes = Array(document(indent: "", lineEnd: "\r\n", nodes: 30, insertions: [20: "<node id=\"1\" lat=\"0\" lon=\"0\" user=\"Zürich XX\"/>"]).utf8)
        let marker = bytes.indices.first { bytes[$0] == UInt8(ascii: "X") && bytes[$0 + 1] == UInt8(ascii: "X") }!
        bytes[marker] = 0xC3
        bytes[marker + 1] = 0x28
        let (reference, _) = expectSameOutcome(bytes, pieceSizes: smallPieces)
        #expect(reference.error?.message == "invalid UTF-8: the input must be UTF-8")

        let oneLine = "\u{FEFF}" + document(prolog: "", indent: nil, nodes: 30, insertions: [25: "<node id=\"1\" lat=\"0\" lon=\"0\" lon=\"1\"/>"])
        let error = try #require(self.error(oneLine))
        guard case .line(1, let column)? = error.location else {
            Issue.record("expected an error on line 1: \(error)")
            return
        }
        let prefix = oneLine[..<oneLine.range(of: "lon=\"0\" lon")!.lowerBound]
        #expect(column > prefix.count - 100 && column <= prefix.count + 10, "\(error)")
    }

    @Test("of several malformed pieces, the first is reported")
    func firstErrorWins() throws {
        let text = document(nodes: 200, insertions: [
            90: "<node id=\"first\" lat=\"0\" lon=\"0\"/>", 150: "<node lat=\"0\"></way>", 190: "<node id=\"1\" a=\"1\" a=\"2\"/>",
        ])
        let error = try #require(self.error(text))
        #expect(error.message.contains("id attribute"))
    }

    @Test("a truncated or corrupt gzip stream fails the same way with any thread count")
    func gzipErrors() throws {
        let text = Array(document(nodes: 300).utf8)
        let compressed = gzip(text, memberSize: 2000)
        let truncated = Array(compressed[..<(compressed.count - 300)])
        // The second member's header names an unknown compression method.
        let first = gzip(Array(text[..<5000]))
        var second = gzip(Array(text[5000...]))
        second[2] = 7
        for bytes in [truncated, first + second] {
            let (reference, _) = expectSameOutcome(bytes, pieceSizes: [64, 150, 1000], suffix: ".osm.gz")
            let error = try #require(reference.error)
            guard case .byte? = error.location else {
                Issue.record("expected a byte offset: \(error)")
                continue
            }
            #expect(error.message.contains("gzip"))
        }
        #expect(withTemporaryFile([], { readOutcome($0, threads: 4) }).error?.message == "empty input: no XML")
    }
}

@Suite("The cutter proves every cut")
struct PieceCutterTests {
    /// Cuts `bytes` as the reading thread does, with buffers of `capacity` bytes; returns the
    /// pieces' ranges and kinds.
    func pieces(_ bytes: [UInt8], capacity: Int) -> [(range: Range<Int>, parallel: Bool)] {
        var cutter = PieceCutter()
        var pieces: [(Range<Int>, Bool)] = []
        var start = 0
        while bytes.count - start > capacity {
            let cut = bytes.withUnsafeBytes { cutter.cut(UnsafeRawBufferPointer(rebasing: $0[start..<(start + capacity)])) }
            pieces.append((start..<(start + cut.end), cut.parallel))
            start += cut.end
        }
        pieces.append((start..<bytes.count, false))
        return pieces
    }

    @Test("cuts fall only before top-level start tags; pieces parsed apart hold plain markup")
    func cutsAreProven() throws {
        // The fakes (id 77) are inside a comment, a CDATA section, an unknown element and a value.
        let fake = "\n  <node id=\"77\"/>\n"
        let text = "<?xml version=\"1.0\"?>" + document(prolog: "", nodes: 60, insertions: [
            3: "<!--" + fake + "-->", 9: "<extension>" + fake + "</extension>", 14: "<![CDATA[" + fake + "]]>",
            20: "<node id=\"1\" v=\"a>b\" w='/>" + fake.replacingOccurrences(of: "<", with: "&lt;") + "'/>",
            25: "<extension note=\"/>\" other='\"/>'>" + fake + "</extension>",
        ])
        let bytes = Array(text.utf8)
        // Where a cut may fall: before a real top-level start tag that begins its line.
        var allowed = Set<Int>()
        for index in bytes.indices where bytes[index] == UInt8(ascii: "<") {
            let rest = bytes[index...]
            guard ["<node ", "<way ", "<relation "].contains(where: { rest.starts(with: $0.utf8) }),
                  !rest.starts(with: "<node id=\"77\"".utf8) else { continue }
            let lineStart = (bytes[..<index].lastIndex(of: 0x0A) ?? -1) + 1
            if bytes[lineStart..<index].allSatisfy({ $0 == 0x20 }) { allowed.insert(index) }
        }
        for capacity in [64, 80, 99, 120, 200, 500] {
            var cutter = PieceCutter()
            var start = 0
            var parallelPieces = 0
            while bytes.count - start > capacity {
                let cut = bytes.withUnsafeBytes { cutter.cut(UnsafeRawBufferPointer(rebasing: $0[start..<(start + capacity)])) }
                #expect(cut.end > 0)
                let piece = start..<(start + cut.end)
                if cut.proven { #expect(allowed.contains(piece.upperBound), "capacity \(capacity): cut at \(piece.upperBound)") }
                if cut.parallel {
                    parallelPieces += 1
                    #expect(cut.proven && allowed.contains(piece.lowerBound), "capacity \(capacity): piece \(piece)")
                    let special = piece.dropLast().contains { bytes[$0] == UInt8(ascii: "<") && (bytes[$0 + 1] == UInt8(ascii: "!") || bytes[$0 + 1] == UInt8(ascii: "?")) }
                    #expect(!special, "capacity \(capacity): piece \(piece)")
                }
                start = piece.upperBound
            }
            #expect(parallelPieces > 0)
        }
    }
}

/// ../shared/data, found from this file.
let sharedData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
/// The extracts there.
let sharedExtracts = ((try? FileManager.default.contentsOfDirectory(atPath: sharedData.path)) ?? [])
    .filter { $0.hasSuffix(".osm.gz") || $0.hasSuffix(".osm") }.sorted()

@Suite("Real extracts in pieces", .enabled(if: !sharedExtracts.isEmpty, "../shared/data is absent: real-data tests skipped"))
struct RealExtractPieceTests {
    @Test("an extract reads the same in pieces on several threads, most pieces parsed apart", arguments: sharedExtracts)
    func readsTheSame(_ name: String) throws {
        let path = sharedData.appendingPathComponent(name).path
        for filter in [allTypes, poiNodes] {
            let reference = readOutcome(path, threads: 1, filter: filter)
            #expect(reference.error == nil && reference.summary.parallelPieces == 0)
            #expect(reference.summary.nodes > 1000)
            for (threads, pieceSize) in [(2, OSMReader.defaultPieceSize), (4, 16 << 10), (3, 4096)] {
                let outcome = readOutcome(path, threads: threads, pieceSize: pieceSize, filter: filter)
                let same = outcome.matches(reference)
                #expect(same, "\(threads) threads, pieces of \(pieceSize): \(outcome.difference(from: reference))")
                let summary = outcome.summary
                // Every element larger than a piece makes two or three pieces sequential.
                if pieceSize < 1 << 20 {
                    #expect(summary.parallelPieces > (pieceSize > 8192 ? 2 : 1) * summary.sequentialPieces, "\(summary)")
                }
            }
        }
    }
}

@Suite("Positions in the whole input")
struct TextPositionTests {
    /// Lines and columns as expat counts them, byte by byte over the whole text.
    func reference(_ bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: (line, column) = (line + 1, 0)
            case 0x0D:
                (line, column) = (line + 1, 0)
                if index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
            case let byte where byte & 0xC0 != 0x80: column += 1
            default: break
            }
            index += 1
        }
        return (line, column)
    }

    @Test("advancing over any split of the text counts LF, CR, CRLF and UTF-8 characters as expat does")
    func advancesOverSplits() {
        var random = SystemRandomNumberGenerator()
        let alphabet: [[UInt8]] = [[0x61], [0x20], [0x0A], [0x0D], [0x0D, 0x0A], Array("é".utf8), Array("€".utf8), Array("🗺".utf8), [0x3C]]
        for _ in 0..<300 {
            let count = Int.random(in: 0...200, using: &random)
            let bytes = (0..<count).flatMap { _ in alphabet.randomElement(using: &random)! }
            var position = TextPosition()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...40, using: &random))
                bytes[start..<end].withUnsafeBytes { position.advance(over: $0) }
                start = end
            }
            let expected = reference(bytes)
            #expect(position.line == expected.line && position.column == expected.column, "\(bytes)")
        }
    }
}
