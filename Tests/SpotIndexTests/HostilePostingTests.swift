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
        var entries = expected.postingEntries
        change(&entries)
        return RawIndex(base).replacing("POST", with: RawPostings(entries: entries, blockSize: blockSize).encoded)
    }

    /// `base` with POST's bytes replaced by `contents`.
    static func replaced(_ contents: [UInt8]) -> [UInt8] { RawIndex(base).replacing("POST", with: contents) }

    /// Expects reading token `token`'s groups, and every posting of every token, to throw a corrupt IndexError naming POST.
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

    /// Expects `reader` to give every token but `except` the groups the spots call for.
    static func expectExpectedGroups(
        _ reader: SpotIndexReader, except: Int? = nil, _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for token in 0..<Self.tokens where token != except {
            let read = try reader.postingRanks(ofToken: token)
            let want = Self.expected.postings[token]
            #expect(read.map(\.key) == want.map(\.key), "\(comment), token \(token)", sourceLocation: sourceLocation)
            #expect(
                read.map(\.ranks) == want.map(\.ranks), "\(comment), token \(token)", sourceLocation: sourceLocation)
        }
    }

    /// The tokens with at least two groups.
    static let tokensOfSeveralGroups = (0..<tokens).filter { expected.postings[$0].count >= 2 }

    @Test("POST encoded as FORMAT.md prescribes reads back every token's groups")
    func base() throws {
        #expect(Self.tokens > 16, "more than one block")
        #expect(Self.tokensOfSeveralGroups.count > 5, "tokens of several groups")
        try withTemporaryFile(Self.base) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(reader.tokenCount == Self.tokens)
            try Self.expectExpectedGroups(reader, "the base")
            #expect(
                try reader.allPostings(ofTokens: 0..<Self.tokens).count
                    == Self.expected.postings.joined().map(\.ranks.count).reduce(0, +))
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
        "an entry whose stated group count or group lengths run past the section throws IndexError on reading it or a later token of its block, reported in POST"
    )
    func lengthsPastSection() throws {
        for token in 0..<Self.tokens {
            for (label, change) in [
                ("group count", { (entry: inout RawPostings.Entry) in entry.groupCount = 0x0FFF_FFFF }),
                ("first group", { (entry: inout RawPostings.Entry) in entry.groups[0].length = 0x0FFF_FFFF }),
                (
                    "last group",
                    { (entry: inout RawPostings.Entry) in entry.groups[entry.groups.count - 1].length = Int(UInt32.max)
                    }
                ),
            ] as [(String, (inout RawPostings.Entry) -> Void)] {
                let bytes = Self.changed { change(&$0[token]) }
                try Self.expectReadRefused(bytes, token: token, "token \(token), \(label)")
                if token % 16 != 15 && token + 1 < Self.tokens {
                    try Self.expectReadRefused(bytes, token: token + 1, "token \(token + 1) after \(token), \(label)")
                }
            }
        }
        // The last entry just one byte too long, or one group too many.
        let last = Self.tokens - 1
        try Self.expectReadRefused(
            Self.changed { $0[last].groups[$0[last].groups.count - 1].length += 1 }, token: last,
            "the last entry one byte long")
        try Self.expectReadRefused(
            Self.changed { $0[last].groupCount += 1 }, token: last, "the last entry one group long")
    }

    @Test(
        "group keys out of order, repeated or unknown throw IndexError on reading the token, reported in POST; the other tokens read as before"
    )
    func hostileKeys() throws {
        // Unknown: a score shortfall over 10, a place past the third (of three fields each), a key
        // past every place.
        let unknownKeys = [11, 15, 16 + 11, 9 * 16, 9 * 16 + 10, 10 * 16, 1 << 20, Int(UInt32.max)]
        var cases: [(token: Int, label: String, change: (inout RawPostings.Entry) -> Void)] = []
        for token in Self.tokensOfSeveralGroups {
            cases.append((token, "first two groups swapped", { $0.groups.swapAt(0, 1) }))
            cases.append((token, "a key repeated", { $0.groups[1].key = $0.groups[0].key }))
            cases.append((token, "the last group first", { $0.groups.insert($0.groups.removeLast(), at: 0) }))
        }
        for token in 0..<Self.tokens {
            for key in unknownKeys {
                cases.append((token, "first key \(key)", { $0.groups[0].key = key }))
                cases.append((token, "last key \(key)", { $0.groups[$0.groups.count - 1].key = key }))
            }
        }
        for (token, label, change) in cases {
            let bytes = Self.changed { change(&$0[token]) }
            try Self.expectReadRefused(bytes, token: token, "token \(token), \(label)")
            try withTemporaryFile(bytes) { path in
                try Self.expectExpectedGroups(try SpotIndexReader(path: path), except: token, "beside \(label)")
            }
        }
        #expect(cases.count > Self.tokens * unknownKeys.count * 2)
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
                        entries[token].groups[0] = RawPostings.Group(key: entries[token].groups[0].key, ranks: list)
                    }, token: token, "token \(token), first group: \(label)")
                try Self.expectReadRefused(
                    Self.changed { entries in
                        let last = entries[token].groups.count - 1
                        entries[token].groups[last] = RawPostings.Group(
                            key: entries[token].groups[last].key, ranks: list)
                    }, token: token, "token \(token), last group: \(label)")
            }
        }
    }

    @Test("an entry's groups are skipped unread: damage inside them leaves the other tokens of its block readable")
    func damageStaysInItsEntry() throws {
        for token in 0..<Self.tokens {
            let bytes = Self.changed {
                $0[token] = RawPostings.Entry(groups: [
                    RawPostings.Group(key: 0, ranks: rankList([Self.spots])),
                    RawPostings.Group(key: 1, ranks: varint(7)),
                ])
            }
            try withTemporaryFile(bytes) { path in
                try Self.expectExpectedGroups(try SpotIndexReader(path: path), except: token, "beside \(token)")
            }
        }
    }

    @Test("blocks of any size read the same groups")
    func blockSizes() throws {
        for blockSize in [1, 2, 7, 16, Self.tokens, Self.tokens + 1, Int(UInt32.max)] {
            let bytes = Self.changed(blockSize: blockSize) { _ in }
            try withTemporaryFile(bytes) { path in
                try Self.expectExpectedGroups(try SpotIndexReader(path: path), "block size \(blockSize)")
            }
        }
    }
}
