import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@Suite("Hostile string tables")
struct HostileStringTableTests {
    static let fixtures = [DamageTests.small, DamageTests.medium, DamageTests.wordy]

    /// The first IndexError that opening `bytes` and decoding every string of both tables throws,
    /// or nil: reading every spot decodes every string of STRS (the pool holds only strings in
    /// use, so each block's last string is read), and the token trie decodes every token of
    /// TOKN.
    static func firstError(_ bytes: [UInt8]) throws -> IndexError? {
        try withTemporaryFile(bytes) { path -> IndexError? in
            do throws(IndexError) {
                let reader = try SpotIndexReader(path: path)
                for position in 0..<reader.count { _ = try reader.spot(at: position) }
                _ = try reader.tokenTrie()
                return nil
            } catch {
                return error
            }
        }
    }

    /// Expects `bytes` to fail with a corrupt IndexError naming `name`: on open when `onOpen`,
    /// else on open or when its strings are read.
    static func expectRefused(
        _ bytes: [UInt8], _ name: String, onOpen: Bool = false, _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try onOpen ? openingError(bytes) : firstError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == name, comment, sourceLocation: sourceLocation)
    }

    /// `fixture` with string table `name` replaced by `table`.
    static func replacing(_ name: String, in fixture: [UInt8], with table: RawStringTable) -> [UInt8] {
        RawIndex(fixture).replacing(name, with: table.encoded)
    }

    @Test(
        "the fixtures' tables decode, every string is read by the probe, and reassembling a decoded table changes nothing"
    )
    func fixtures() throws {
        for fixture in Self.fixtures {
            #expect(try Self.firstError(fixture) == nil)
            for name in ["STRS", "TOKN"] {
                let table = try RawIndex(fixture).stringTable(name)
                #expect(Self.replacing(name, in: fixture, with: table) == fixture)
            }
        }
        for name in ["STRS", "TOKN"] {
            let table = try RawIndex(DamageTests.wordy).stringTable(name)
            // The wordy fixture's tables have several blocks, codes and shared prefixes.
            #expect(table.blockOffsets.count > 1, "\(name)")
            #expect(!table.pairs.isEmpty, "\(name)")
            #expect(try table.entries().contains { $0.shared > 0 }, "\(name)")
        }
        // Reading the spots reads every string of the pool: each is a kind's or an attribute's.
        let raw = RawIndex(DamageTests.small)
        let used = Set(
            raw.kinds.flatMap { [$0.key, $0.value, $0.category] }
                + (try raw.attributes()).joined().flatMap { [$0.key, $0.value] })
        #expect(used.subtracting([UInt32.max]) == Set(0..<UInt32(try raw.strings("STRS").count)))
    }

    @Test(
        "a string table too short for its header, or whose string count needs more block offsets than fit, is corrupt on open",
        arguments: ["STRS", "TOKN"])
    func countTooLarge(name: String) throws {
        for fixture in Self.fixtures {
            let table = try RawIndex(fixture).stringTable(name)
            let section = fixture.section(name)
            let offsetsStart = 12 + 3 * table.pairs.count + table.padding.count
            // The largest count whose block offsets fit, and no larger than the section.
            let fits = min(section.length, (section.length - offsetsStart) / 4 * Int(table.blockSize))
            for count in [fits + 1, fits + 16, fits + 1_000, Int(Int32.max), Int(UInt32.max)] {
                var bytes = fixture
                bytes.store(UInt32(count), at: section.offset)
                bytes.resealSection(name)
                try Self.expectRefused(bytes, name, onOpen: true, "count \(count)")
            }
            for length in [0, 3, 4, 11] {
                try Self.expectRefused(
                    RawIndex(fixture).replacing(name, with: Array(table.encoded.prefix(length))), name, onOpen: true,
                    "\(length) bytes")
            }
        }
    }

    @Test("a block size of 0 or a pair count over 256 is corrupt on open", arguments: ["STRS", "TOKN"])
    func badHeader(name: String) throws {
        for fixture in Self.fixtures {
            let section = fixture.section(name)
            for (field, value) in [(4, UInt32(0)), (8, 257), (8, 1_000), (8, UInt32.max)] {
                var bytes = fixture
                bytes.store(value, at: section.offset + field)
                bytes.resealSection(name)
                try Self.expectRefused(bytes, name, onOpen: true, "field \(field) = \(value)")
            }
        }
    }

    @Test(
        "a pair table that defines a code twice, by itself, or longer than 64 bytes is corrupt on open; one that keeps the rules opens",
        arguments: ["STRS", "TOKN"])
    func badPairs(name: String) throws {
        for fixture in Self.fixtures {
            let table = try RawIndex(fixture).stringTable(name)
            // Byte values in no entry and no pair, so that new codes change no string.
            let free = (0...255).map(UInt8.init).filter { byte in
                !table.entryBytes.contains(byte)
                    && !table.pairs.contains { [$0.code, $0.left, $0.right].contains(byte) }
            }
            #expect(free.count >= 8)
            let c = Array(free.prefix(8))
            let a = UInt8(ascii: "a")
            let b = UInt8(ascii: "b")
            typealias Pair = RawStringTable.Pair
            // c[0] ... c[5] stand for 2, 4, ... 64 a's.
            let doubling =
                [Pair(code: c[0], left: a, right: a)]
                + (1..<6).map { Pair(code: c[$0], left: c[$0 - 1], right: c[$0 - 1]) }
            let valid: [(String, [Pair])] = [
                ("one more pair", [Pair(code: c[0], left: a, right: b)]), ("codes up to 64 bytes", doubling),
            ]
            for (label, pairs) in valid {
                var changed = table
                changed.appendPairs(pairs)
                let bytes = Self.replacing(name, in: fixture, with: changed)
                #expect(try Self.firstError(bytes) == nil, "\(label)")
                #expect(try RawIndex(bytes).strings(name) == table.strings(), "\(label)")
            }
            var broken: [(String, [Pair])] = [
                ("a code twice", [Pair(code: c[0], left: a, right: a), Pair(code: c[0], left: a, right: b)]),
                ("a code as its own left", [Pair(code: c[0], left: c[0], right: a)]),
                ("a code as its own right", [Pair(code: c[0], left: a, right: c[0])]),
                ("a code of 65 bytes", doubling + [Pair(code: c[6], left: c[5], right: a)]),
                ("a code of 128 bytes", doubling + [Pair(code: c[6], left: c[5], right: c[5])]),
            ]
            if let first = table.pairs.first {
                broken.append(("a code of the table again", [Pair(code: first.code, left: a, right: a)]))
            }
            for (label, pairs) in broken {
                var changed = table
                changed.appendPairs(pairs)
                try Self.expectRefused(Self.replacing(name, in: fixture, with: changed), name, onOpen: true, "\(label)")
            }
        }
    }

    @Test(
        "a pair that uses a code defined only by a later pair is corrupt on open (FORMAT.md: pair k may use only plain bytes and earlier codes)",
        arguments: ["STRS", "TOKN"])
    func forwardCode(name: String) throws {
        let table = try RawIndex(DamageTests.small).stringTable(name)
        let free = (0...255).map(UInt8.init).filter { byte in
            !table.entryBytes.contains(byte) && !table.pairs.contains { [$0.code, $0.left, $0.right].contains(byte) }
        }
        let a = UInt8(ascii: "a")
        var changed = table
        changed.appendPairs([.init(code: free[0], left: free[1], right: a), .init(code: free[1], left: a, right: a)])
        #expect(throws: FormatViolation.self, "the tests' decoder refuses it") { try changed.expansions() }
        try Self.expectRefused(
            Self.replacing(name, in: DamageTests.small, with: changed), name, onOpen: true,
            "code \(free[0]) uses the later code \(free[1])")
    }

    @Test(
        "a block offset at or past the end of the entries throws IndexError naming the table",
        arguments: ["STRS", "TOKN"])
    func blockOffsetPastEnd(name: String) throws {
        for fixture in Self.fixtures {
            let table = try RawIndex(fixture).stringTable(name)
            let end = UInt32(table.entryBytes.count)
            for block in table.blockOffsets.indices {
                for value in [end, end + 1, end + 1_000, UInt32.max] {
                    var changed = table
                    changed.blockOffsets[block] = value
                    try Self.expectRefused(
                        Self.replacing(name, in: fixture, with: changed), name, "block \(block) at \(value) of \(end)")
                }
            }
        }
    }

    @Test(
        "an entry sharing more bytes than the string before it has (any, at a block's start) throws IndexError naming the table",
        arguments: ["STRS", "TOKN"])
    func sharedTooLong(name: String) throws {
        for fixture in Self.fixtures {
            var table = try RawIndex(fixture).stringTable(name)
            let entries = try table.entries()
            let strings = try table.strings()
            for index in entries.indices {
                let available = index % Int(table.blockSize) == 0 ? 0 : strings[index - 1].count
                for shared in [available + 1, available + 200, Int(UInt32.max)] {
                    var changed = entries
                    changed[index].shared = shared
                    table.setEntries(changed)
                    try Self.expectRefused(
                        Self.replacing(name, in: fixture, with: table), name,
                        "entry \(index) shares \(shared) of \(available)")
                }
            }
        }
    }

    @Test(
        "an entry whose length runs past the end of the table throws IndexError naming the table",
        arguments: ["STRS", "TOKN"])
    func lengthPastEnd(name: String) throws {
        for fixture in Self.fixtures {
            var table = try RawIndex(fixture).stringTable(name)
            let entries = try table.entries()
            let offsets = try table.entryOffsets()
            for index in entries.indices {
                // Just past the end: the entry's bytes and all that follow it, and one more.
                let rest =
                    table.entryBytes.count - Int(offsets[index]) - entries[index].encoded.count + entries[index].length
                for length in [rest + 1, rest + 1_000, Int(UInt32.max)] {
                    var changed = entries
                    changed[index].length = length
                    table.setEntries(changed)
                    try Self.expectRefused(
                        Self.replacing(name, in: fixture, with: table), name,
                        "entry \(index) of length \(length), \(rest) left")
                }
            }
        }
    }
}
