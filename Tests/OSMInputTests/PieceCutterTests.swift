import Foundation
import Testing

@testable import OSMInput

@Suite("The cutter proves every cut")
struct PieceCutterTests {
    /// Cuts `bytes` as the reading thread does, with buffers of `capacity` bytes; returns the
    /// pieces' ranges and kinds.
    func pieces(_ bytes: [UInt8], capacity: Int) -> [(range: Range<Int>, parallel: Bool)] {
        var cutter = PieceCutter()
        var pieces: [(Range<Int>, Bool)] = []
        var start = 0
        while bytes.count - start > capacity {
            let cut = bytes.withUnsafeBytes {
                cutter.cut(UnsafeRawBufferPointer(rebasing: $0[start..<(start + capacity)]))
            }
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
        let text =
            "<?xml version=\"1.0\"?>"
            + document(
                prolog: "", nodes: 60,
                insertions: [
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
                !rest.starts(with: "<node id=\"77\"".utf8)
            else { continue }
            let lineStart = (bytes[..<index].lastIndex(of: 0x0A) ?? -1) + 1
            if bytes[lineStart..<index].allSatisfy({ $0 == 0x20 }) { allowed.insert(index) }
        }
        for capacity in [64, 80, 99, 120, 200, 500] {
            var cutter = PieceCutter()
            var start = 0
            var parallelPieces = 0
            while bytes.count - start > capacity {
                let cut = bytes.withUnsafeBytes {
                    cutter.cut(UnsafeRawBufferPointer(rebasing: $0[start..<(start + capacity)]))
                }
                #expect(cut.end > 0)
                let piece = start..<(start + cut.end)
                if cut.proven {
                    #expect(allowed.contains(piece.upperBound), "capacity \(capacity): cut at \(piece.upperBound)")
                }
                if cut.parallel {
                    parallelPieces += 1
                    #expect(cut.proven && allowed.contains(piece.lowerBound), "capacity \(capacity): piece \(piece)")
                    let special = piece.dropLast().contains {
                        bytes[$0] == UInt8(ascii: "<")
                            && (bytes[$0 + 1] == UInt8(ascii: "!") || bytes[$0 + 1] == UInt8(ascii: "?"))
                    }
                    #expect(!special, "capacity \(capacity): piece \(piece)")
                }
                start = piece.upperBound
            }
            #expect(parallelPieces > 0)
        }
    }
}
