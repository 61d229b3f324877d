import Foundation
import InputStreams
import SpotTestSupport
import Testing

@testable import OSMInput

@Suite("Errors when reading in pieces")
struct ChunkedErrorTests {
    /// The error a read of `text` gives with one thread, checked to be the same with several
    /// threads and every small piece size.
    func error(_ text: String, pieceSizes: [Int] = smallPieces, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> OSMInputError?
    {
        let (reference, _) = try expectSameOutcome(
            Array(text.utf8), pieceSizes: pieceSizes, sourceLocation: sourceLocation)
        return reference.error
    }

    @Test("a malformed element deep in the file: same line and column")
    func mismatchedTag() throws {
        let text = document(
            nodes: 200, insertions: [150: "<node id=\"150150\" lat=\"0\" lon=\"0\"><tag k=\"a\" v=\"b\"></node>"])
        let error = try #require(try self.error(text))
        #expect(error.message == "mismatched tag")
        // Expat points at the end tag's name.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = lines.firstIndex { $0.contains("150150") }!
        let column =
            lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: "</node>")!.lowerBound) + 3
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
                #expect(try self.error(bad, pieceSizes: somePieces) != nil, "\(insertion)")
            }
        }
    }

    @Test("invalid UTF-8, CRLF lines and a byte order mark: same positions")
    func positions() throws {
        var bytes = Array(
            document(
                indent: "", lineEnd: "\r\n", nodes: 30,
                insertions: [20: "<node id=\"1\" lat=\"0\" lon=\"0\" user=\"Zürich XX\"/>"]
            ).utf8)
        let marker = bytes.indices.first { bytes[$0] == UInt8(ascii: "X") && bytes[$0 + 1] == UInt8(ascii: "X") }!
        bytes[marker] = 0xC3
        bytes[marker + 1] = 0x28
        let (reference, _) = try expectSameOutcome(bytes, pieceSizes: smallPieces)
        #expect(reference.error?.message == "invalid UTF-8: the input must be UTF-8")

        // A value without quotes: expat refuses its first byte before it has the whole
        // character, so the message must not depend on where the input was split after it. After
        // a DOCTYPE every piece is parsed in order, so pieces end anywhere, in a character too.
        let doctype = "<?xml version=\"1.0\"?>\n<!DOCTYPE osm>\n"
        for (value, message) in [
            ("\u{FEFF}x\"", "not well-formed (invalid token)"), ("€\"", "not well-formed (invalid token)"),
        ] {
            let text = document(prolog: doctype, nodes: 30, insertions: [20: "<node id=\"1\" user=\(value)/>"])
            let (unquoted, _) = try expectSameOutcome(Array(text.utf8), pieceSizes: smallPieces)
            #expect(unquoted.error?.message == message, "\(value)")
        }
        var invalid = Array(document(prolog: doctype, nodes: 30, insertions: [20: "<node id=\"1\" user=XX/>"]).utf8)
        let unquoted = invalid.indices.first {
            invalid[$0] == UInt8(ascii: "X") && invalid[$0 + 1] == UInt8(ascii: "X")
        }!
        invalid[unquoted] = 0xE2
        invalid[unquoted + 1] = 0x28
        let (refused, _) = try expectSameOutcome(invalid, pieceSizes: smallPieces)
        #expect(refused.error?.message == "invalid UTF-8: the input must be UTF-8")

        let oneLine =
            "\u{FEFF}"
            + document(
                prolog: "", indent: nil, nodes: 30, insertions: [25: "<node id=\"1\" lat=\"0\" lon=\"0\" lon=\"1\"/>"])
        let error = try #require(try self.error(oneLine))
        guard case .line(1, let column)? = error.location else {
            Issue.record("expected an error on line 1: \(error)")
            return
        }
        let prefix = oneLine[..<oneLine.range(of: "lon=\"0\" lon")!.lowerBound]
        #expect(column > prefix.count - 100 && column <= prefix.count + 10, "\(error)")
    }

    @Test("junk after the root element: one error, where the junk starts, however the input is split")
    func junkAfterRoot() throws {
        let long = String(repeating: "a", count: 1500)
        for (junk, line, column) in [
            (long + "\u{1}", 1, 7),  // a name that runs into an invalid character, unless split first
            (long + "\u{E9}", 1, 7),
            ("\r\n  " + long + "\u{1}", 2, 3),
            ("\n<!-- fine -->\n<?pi fine?>\n 12 ", 4, 2),
            ("<node id=\"1\"/>", 1, 7),
            ("<!-- no end", 1, 7),
            ("\u{1}", 1, 7),
        ] {
            for prolog in ["", "<!DOCTYPE osm>\n"] {
                let text = String(document(prolog: prolog, nodes: 30).dropLast()) + junk  // after "</osm>"
                let error = try #require(
                    try self.error(text, pieceSizes: somePieces + [1024, 1600]), "\(junk.debugDescription)")
                #expect(error.message == "junk after document element", "\(junk.debugDescription)")
                // Lines after the end tag, which closes the generated document's last line.
                let lastLine =
                    text.split(separator: "\n", omittingEmptySubsequences: false).count
                    - junk.split(separator: "\n", omittingEmptySubsequences: false).count + 1
                #expect(error.location == .line(lastLine + line - 1, column: column), "\(junk.debugDescription)")
            }
        }
        // Whitespace, comments and processing instructions are allowed after the root element.
        let (fine, _) = try expectSameOutcome(
            Array((document(nodes: 30) + "\n<!-- a comment -->\r\n<?pi x?>\n\n").utf8), pieceSizes: somePieces)
        #expect(fine.error == nil)
    }

    @Test("a value with no closing quote before a cut: the error a sequential read reports")
    func unclosedValueBeforeCut() throws {
        // The comment makes the piece around the unclosed value sequential; the cutter, which
        // proves cuts for well-formed text only, sees a cut before the next node.
        for unclosed in ["<node id=\"1\" lat=\"1.0\" lon=\"2.0/>", "<node id=\"1\" lat=\"1.0\" lon=\"2.0\""] {
            let text = document(nodes: 60, insertions: [21: "<!-- a comment -->\n  " + unclosed])
            let error = try #require(try self.error(text), "\(unclosed)")
            // Expat stops at the `<` of the next node, inside the value or the tag.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = lines.firstIndex { $0.contains(unclosed) }! + 2
            #expect(error.message == "not well-formed (invalid token)")
            #expect(error.location == .line(line, column: 3), "\(unclosed)")
        }
    }

    @Test("of several malformed pieces, the first is reported")
    func firstErrorWins() throws {
        let text = document(
            nodes: 200,
            insertions: [
                90: "<node id=\"first\" lat=\"0\" lon=\"0\"/>", 150: "<node lat=\"0\"></way>",
                190: "<node id=\"1\" a=\"1\" a=\"2\"/>",
            ])
        let error = try #require(try self.error(text))
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
            let (reference, _) = try expectSameOutcome(bytes, pieceSizes: [64, 150, 1000], suffix: ".osm.gz")
            let error = try #require(reference.error)
            guard case .byte? = error.location else {
                Issue.record("expected a byte offset: \(error)")
                continue
            }
            #expect(error.message.contains("gzip"))
        }
        #expect(
            try withTemporaryFile([], named: "input.osm", { readOutcome($0, threads: 4) }).error?.message
                == "empty input: no XML")
    }
}
