import Foundation
import SeededRandom
import SpotIndex
import SpotTestSupport
import Spots
import Testing

/// The token cursor (`SpotIndexReader.tokenCursor`) against the sorted list of tokens: reading
/// on, skipping the tokens that share a prefix, and moving forward to a key land where a scan
/// of the list says, at block boundaries and at the end of a last block that is full or not.
@Suite("Token cursor")
struct TokenCursorTests {
    @Test(
        "reading, skipping and seeking forward land where a scan of the sorted tokens does",
        arguments: [1, 15, 16, 17, 300])
    func againstTheList(spotCount: Int) throws {
        var random = SplitMix64(seed: UInt64(spotCount))
        let letters = Array("abcä日")
        func word() -> String {
            String((0..<Int.random(in: 1...5, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        let spots = (0..<spotCount).map { number in
            Spot(
                ref: OSMRef(.node, Int64(number)), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!,
                tagKey: "amenity", kind: "cafe", category: .cafe, name: word())
        }
        let index = try openIndex(of: spots)
        let tokens = try (0..<index.tokenCount).map { try index.token($0) }
        #expect(tokens == tokens.sorted { $0.lexicographicallyPrecedes($1) })
        var cursor = try index.tokenCursor()
        var seen: [[UInt8]] = []
        while !cursor.isAtEnd {
            seen.append(cursor.bytes)
            cursor.advance()
        }
        #expect(seen == tokens, "advance reads every token in order")
        for _ in 0..<300 {
            let start = Int.random(in: 0..<tokens.count, using: &random)
            var cursor = try index.tokenCursor(atLeast: tokens[start])
            #expect(cursor.token == start)
            if Bool.random(using: &random) {
                let length = Int.random(in: 0...tokens[start].count, using: &random)
                let prefix = tokens[start].prefix(length)
                cursor.skip(sharing: length)
                let want = tokens[(start + 1)...].firstIndex { !$0.starts(with: prefix) } ?? tokens.count
                #expect(cursor.token == want, "skip \(length) of \(tokens[start]) from \(start)")
            } else {
                let key = Array(word().utf8)
                cursor.advance(toAtLeast: key)
                let want =
                    key.lexicographicallyPrecedes(tokens[start])
                    ? start : tokens.firstIndex { !$0.lexicographicallyPrecedes(key) } ?? tokens.count
                #expect(cursor.token == want, "to \(key) from \(start)")
            }
            #expect(cursor.isAtEnd ? cursor.bytes.isEmpty : cursor.bytes == tokens[cursor.token])
        }
    }
}
