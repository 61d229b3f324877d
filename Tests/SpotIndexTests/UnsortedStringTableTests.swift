import SpotTestSupport
import Testing

@testable import SpotIndex

/// A damaged string table whose strings are out of order: the cursor's searches (`range
/// (withPrefix:)`, `skip(sharing:)`, `advance(toAtLeast:)`) must end, and move forward only,
/// whatever the order; they never recurse block after block.
@Suite("Unsorted string tables")
struct UnsortedStringTableTests {
    /// Runs `body` on a table of `strings` as they come (one string a block when `blockSize`
    /// is 1, so that a search crosses a block at every step).
    static func withTable<T>(_ strings: [[UInt8]], blockSize: Int, _ body: (StringTable) throws -> T) throws -> T {
        let bytes = RawStringTable(plain: strings, blockSize: blockSize).encoded
        return try bytes.withUnsafeBytes { buffer in
            try body(try StringTable(SectionBytes(buffer, file: "test.spots", name: "TOKN")))
        }
    }

    @Test(
        "blocks whose first strings alternate ('a', 'c', 'a', ...) end a prefix search and a skip", arguments: [1, 2])
    func alternating(blockSize: Int) throws {
        let strings = (0..<20_000).map { Array(($0 % 2 == 0 ? "a" : "c").utf8) + Array(String($0).utf8) }
        try Self.withTable(strings, blockSize: blockSize) { table in
            _ = try table.range(withPrefix: Array("a".utf8))
            _ = try table.range(withPrefix: Array("b".utf8))
            var cursor = try StringTable.Cursor(table, atLeast: [])
            var previous = cursor.number
            while !cursor.isAtEnd {
                try cursor.skip(sharing: 1)
                #expect(cursor.number > previous)
                previous = cursor.number
                try cursor.advance(toAtLeast: Array("b".utf8))
                #expect(cursor.number >= previous)
                previous = cursor.number
            }
        }
    }

    /// An `addr:` key that a sorted search finds past the strings that start with `addr:` (a
    /// string out of order between them) is a corrupt STRS, not a crash.
    @Test("an address key found outside the addr: range throws")
    func addressKeyOutOfRange() throws {
        let strings = ["addr:city", "0", "addr:street", "b", "addr:zz", "name", "addr:housenumber"]
        let table = RawStringTable(plain: strings.map { Array($0.utf8) }, blockSize: 2).encoded
        try withTemporaryFile(RawIndex(DamageTests.small).replacing("STRS", with: table)) { (path) throws in
            let error = #expect(throws: IndexError.self) { try SpotIndexReader(path: path) }
            #expect(error?.kind == .corrupt && error?.section == "STRS")
        }
    }
}
