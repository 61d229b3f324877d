import Foundation
import Testing

@testable import OSMInput

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
        let alphabet: [[UInt8]] = [
            [0x61], [0x20], [0x0A], [0x0D], [0x0D, 0x0A], Array("é".utf8), Array("€".utf8), Array("🗺".utf8), [0x3C],
        ]
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
