import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@Suite("Hostile posting lists")
struct HostilePostingTests {
    static let expected = ExpectedIndex(DamageTests.wordySpots)
    /// The wordy index with POST as the tests encode it from FORMAT.md.
    static let base = RawIndex(DamageTests.wordy).replacing("POST", with: expected.encodedPostings())
    static let tokens = expected.tokens.count
    static let spots = DamageTests.wordySpots.count

    /// `base` with POST encoded from the expected entries, changed by `change`.
    static func changed(blockSize: Int = 16, _ change: (inout [RawPostings.Entry]) -> Void) -> [UInt8] {
        var entries = expected.postings.map { RawPostings.Entry(starting: $0.starting, others: $0.others) }
        change(&entries)
        return RawIndex(base).replacing("POST", with: RawPostings(entries: entries, blockSize: blockSize).encoded)
    }

    /// `base` with POST's bytes replaced by `contents`.
    static func replaced(_ contents: [UInt8]) -> [UInt8] { RawIndex(base).replacing("POST", with: contents) }

    /// Expects reading token `token`'s lists, and every posting of every token, to throw a corrupt IndexError naming POST.
    static func expectReadRefused(
        _ bytes: [UInt8], token: Int, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let errors = try readingErrors(
            bytes, [{ _ = try $0.postingRanks(ofToken: token) }, { _ = try $0.allPostings(ofTokens: 0..<tokens) }])
        for error in errors {
            #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
            #expect(error?.section == "POST", comment, sourceLocation: sourceLocation)
        }
    }

    static func expectOpenRefused(
        _ bytes: [UInt8], _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == "POST", comment, sourceLocation: sourceLocation)
    }

    @Test("POST encoded as FORMAT.md prescribes reads back every token's lists")
    func base() throws {
        #expect(Self.tokens > 16, "more than one block")
        try withTemporaryFile(Self.base) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.tokenCount == Self.tokens)
            for token in 0..<Self.tokens {
                let read = try reader.postingRanks(ofToken: token)
                #expect(read.starting == Self.expected.postings[token].starting)
                #expect(read.others == Self.expected.postings[token].others)
            }
            #expect(
                try reader.allPostings(ofTokens: 0..<Self.tokens).count
                    == Self.expected.postings.map { $0.starting.count + $0.others.count }.reduce(0, +))
        }
        #expect(try DamageTests.exercise(Self.base).failures == [])
    }

    @Test(
        "a token count other than TOKN's, a block size of 0, or block offsets that do not fit are corrupt on open, reported in POST"
    )
    func header() throws {
        let contents = Self.base.contents(of: "POST")
        for count in [0, Self.tokens - 1, Self.tokens + 1, 2 * Self.tokens, Int(UInt32.max)] {
            try Self.expectOpenRefused(
                Self.replaced(le32(UInt32(count)) + contents.dropFirst(4)), "count \(count) of \(Self.tokens)")
        }
        try Self.expectOpenRefused(
            Self.replaced(Array(contents.prefix(4)) + le32(0) + contents.dropFirst(8)), "block size 0")
        let blocks = (Self.tokens + 15) / 16
        for length in [0, 4, 7, 8, 8 + 4 * blocks - 1] {
            try Self.expectOpenRefused(Self.replaced(Array(contents.prefix(length))), "\(length) bytes")
        }
        // Blocks of one token need an offset per token; the section holds them but not the entries.
        let offsetsWithoutEntries = le32(UInt32(Self.tokens), 1) + [UInt8](repeating: 0, count: 4 * Self.tokens - 1)
        try Self.expectOpenRefused(Self.replaced(offsetsWithoutEntries), "block size 1, one offset byte short")
    }

    @Test(
        "an entry whose stated list lengths run past the section throws IndexError on reading it or a later token of its block, reported in POST"
    )
    func lengthsPastSection() throws {
        for token in 0..<Self.tokens {
            for (label, change) in [
                ("name-starting list", { (entry: inout RawPostings.Entry) in entry.startingLength = 0x0FFF_FFFF }),
                ("other list", { (entry: inout RawPostings.Entry) in entry.othersLength = 0x0FFF_FFFF }),
                ("both lists", { (entry: inout RawPostings.Entry) in entry.othersLength = Int(UInt32.max) }),
            ] as [(String, (inout RawPostings.Entry) -> Void)] {
                let bytes = Self.changed { change(&$0[token]) }
                try Self.expectReadRefused(bytes, token: token, "token \(token), \(label)")
                if token % 16 != 15 && token + 1 < Self.tokens {
                    try Self.expectReadRefused(bytes, token: token + 1, "token \(token + 1) after \(token), \(label)")
                }
            }
        }
        // The last entry just one byte too long.
        let last = Self.tokens - 1
        try Self.expectReadRefused(
            Self.changed { $0[last].othersLength += 1 }, token: last, "the last entry one byte long")
    }

    @Test(
        "a block offset at or past the end of the entries throws IndexError on reading the block's tokens, reported in POST"
    )
    func blockOffsetPastEnd() throws {
        var post = try RawPostings(Self.base.contents(of: "POST"))
        let end = UInt32(post.entryBytes.count)
        let original = post.blockOffsets
        for block in original.indices {
            for value in [end, end + 1, UInt32.max] {
                post.blockOffsets = original
                post.blockOffsets[block] = value
                let bytes = Self.replaced(post.encoded)
                for token in stride(from: 16 * block, to: min(16 * block + 16, Self.tokens), by: 5) {
                    try Self.expectReadRefused(bytes, token: token, "block \(block) at \(value), token \(token)")
                }
            }
        }
    }

    @Test(
        "a rank list whose count is longer than its bytes, or whose ranks run past the last spot, throws IndexError when read, reported in POST"
    )
    func hostileRankLists() throws {
        let n = Self.spots
        let lists: [(String, [UInt8])] = [
            ("count 3 of one rank", varint(3) + varint(0)), ("count 2 of one rank", varint(2) + varint(0)),
            ("count 2^28 in 5 bytes", varint(1 << 28) + [0]), ("count alone", varint(1)), ("no bytes", []),
            ("rank N", rankList([n])), ("ranks 0 and N", rankList([0, n])),
            ("ranks 1 and N + 5", rankList([1, n + 5])),
            ("a gap of 2^32 - 1", varint(1) + varint(Int(UInt32.max))),
            ("a varint past 32 bits", varint(1) + [0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
            ("a last varint cut short", varint(1) + [0x80]),
        ]
        for token in 0..<Self.tokens {
            for (label, list) in lists {
                try Self.expectReadRefused(
                    Self.changed { entries in
                        entries[token] = RawPostings.Entry(startingBytes: list, othersBytes: entries[token].others)
                    }, token: token, "token \(token), name-starting list: \(label)")
                try Self.expectReadRefused(
                    Self.changed { entries in
                        entries[token] = RawPostings.Entry(startingBytes: entries[token].starting, othersBytes: list)
                    }, token: token, "token \(token), other list: \(label)")
            }
        }
    }

    @Test("an entry's lists are skipped unread: damage inside them leaves the other tokens of its block readable")
    func damageStaysInItsEntry() throws {
        for token in 0..<Self.tokens {
            let bytes = Self.changed {
                $0[token] = RawPostings.Entry(startingBytes: rankList([Self.spots]), othersBytes: varint(7))
            }
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                for other in 0..<Self.tokens where other != token {
                    let read = try reader.postingRanks(ofToken: other)
                    #expect(read.starting == Self.expected.postings[other].starting, "token \(other) beside \(token)")
                    #expect(read.others == Self.expected.postings[other].others, "token \(other) beside \(token)")
                }
            }
        }
    }

    @Test("blocks of any size read the same lists")
    func blockSizes() throws {
        for blockSize in [1, 2, 7, 16, Self.tokens, Self.tokens + 1, Int(UInt32.max)] {
            let bytes = Self.changed(blockSize: blockSize) { _ in }
            try withTemporaryFile(bytes) { path in
                let reader = try SpotIndexReader(path: path)
                for token in 0..<Self.tokens {
                    let read = try reader.postingRanks(ofToken: token)
                    #expect(
                        read.starting == Self.expected.postings[token].starting,
                        "block size \(blockSize), token \(token)")
                    #expect(
                        read.others == Self.expected.postings[token].others, "block size \(blockSize), token \(token)")
                }
            }
        }
    }
}
