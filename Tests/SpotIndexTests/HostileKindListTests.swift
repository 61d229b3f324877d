import Foundation
import SpotIndex
import SpotIndexWriting
import SpotTestSupport
import Spots
import Testing

@Suite("Hostile kind lists")
struct HostileKindListTests {
    static var small: [UInt8] { DamageTests.small }
    static var medium: [UInt8] { DamageTests.medium }
    static let empty = SpotIndexWriter.encode([], metadata: RoundTripTests.emptyMetadata)
    /// Twelve spots of three kinds (6, 3 and 3 spots), placed and numbered so that the file order
    /// differs from the reference order.
    static let shared: [UInt8] = {
        let kinds = ["cafe", "bench", "cafe", "toilets"]
        let spots = (0..<12).map { (i: Int) -> Spot in
            let ref = OSMRef(OSMType.allCases[i % 3], Int64(100 - 7 * i))
            let latitude = Int32(i * 5 % 12) * 1_000_000
            let longitude = Int32(i * 7 % 12) * 1_000_000
            let category: Category? = i % 2 == 0 ? .cafe : nil
            return Spot(
                ref: ref, coordinate: Coordinate(latitudeE7: latitude, longitudeE7: longitude)!, tagKey: "amenity",
                kind: kinds[i % 4],
                category: category)
        }
        return SpotIndexWriter.encode(spots, metadata: RoundTripTests.emptyMetadata)
    }()
    static var fixtures: [[UInt8]] { [small, medium, shared] }

    static func expectCorruptOnOpen(
        _ bytes: [UInt8], _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == "KLST", comment, sourceLocation: sourceLocation)
    }

    /// Expects reading kind `kind`'s list to its end to throw a corrupt IndexError naming KLST.
    static func expectReadRefused(
        _ bytes: [UInt8], kind: Int, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try readingError(bytes) { _ = try $0.kindRanks(ofKind: kind) }
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        #expect(error?.section == "KLST", comment, sourceLocation: sourceLocation)
    }

    @Test("the fixtures' kind lists are as the format says, and reassembling their sections gives the same bytes")
    func fixtures() throws {
        for fixture in Self.fixtures + [Self.empty] {
            let raw = RawIndex(fixture)
            #expect(RawIndex.assemble(raw.sectionContents) == fixture)
            let klst = try raw.kindListSection()
            #expect(Int(klst.count) == raw.kinds.count)
            #expect(try klst.lists().joined().sorted() == Array(0..<raw.spots.count))
        }
        #expect(
            try RawIndex(Self.small).kindListSection().lists().map(\.count) == [1, 1, 1, 1],
            "four kinds of one spot each")
        #expect(RawIndex(Self.medium).kinds.count > 2)
        let shared = try RawIndex(Self.shared).kindListSection().lists()
        #expect(shared.map(\.count).sorted() == [3, 3, 6])
        #expect(
            shared.contains { list in zip(list, list.dropFirst()).contains { $1 > $0 + 1 } }, "some lists skip ranks")
    }

    @Test(
        "a kind count that differs from the KIND records is corrupt on open, reported in KLST, whether or not the lists agree with it"
    )
    func wrongKindCount() throws {
        for fixture in Self.fixtures {
            let raw = RawIndex(fixture)
            let kinds = raw.kinds.count
            let klst = fixture.section("KLST")
            // The count word alone.
            for count in [0, kinds - 1, kinds + 1, 2 * kinds, Int(Int32.max), Int(UInt32.max)] {
                var bytes = fixture
                bytes.store(UInt32(count), at: klst.offset)
                bytes.resealSection("KLST")
                try Self.expectCorruptOnOpen(bytes, "count \(count) of \(kinds)")
            }
            // Whole lists added or taken away, so that count, ends and lists agree with each other.
            let lists = try raw.kindListSection().lists()
            #expect(kinds > 1)
            for changed in [
                lists + [[]], lists + [[0], []], Array(lists.dropLast()), [Array(0..<raw.spots.count)], [],
            ] {
                try Self.expectCorruptOnOpen(
                    raw.replacing("KLST", with: RawKindLists(lists: changed).encoded),
                    "\(changed.count) lists for \(kinds) kinds")
            }
        }
        // An index of no spots and no kinds, claiming one empty list.
        try Self.expectCorruptOnOpen(
            RawIndex(Self.empty).replacing("KLST", with: RawKindLists(lists: [[]]).encoded), "one list for no kinds")
    }

    @Test(
        "a kind list section too short for its ends, or whose last end is not the length of its lists, is corrupt on open, reported in KLST"
    )
    func lastEndNotLength() throws {
        for fixture in Self.fixtures + [Self.empty] {
            let raw = RawIndex(fixture)
            let contents = fixture.contents(of: "KLST")
            var variants: [(String, [UInt8])] = [
                ("a byte more", contents + [0]), ("an empty list more", contents + rankList([])), ("empty", []),
                ("three bytes", Array(contents.prefix(3))),
            ]
            let klst = try raw.kindListSection()
            if klst.count > 0 {
                let length = UInt32(klst.listBytes.count)
                variants += [
                    ("a byte less", Array(contents.dropLast())), ("the count word alone", Array(contents.prefix(4))),
                    ("the ends alone", Array(contents.prefix(4 + 4 * Int(klst.count)))),
                ]
                for value in Set([0, length - 1, length + 1, 2 * length, UInt32.max]) where value != length {
                    var changed = klst
                    changed.ends[changed.ends.count - 1] = value
                    variants.append(("last end \(value) of \(length)", changed.encoded))
                }
            }
            for (label, variant) in variants {
                try Self.expectCorruptOnOpen(raw.replacing("KLST", with: variant), "\(label), \(variant.count) bytes")
            }
        }
    }

    @Test(
        "a kind list ending past the lists or before it starts throws IndexError from kindList(ofKind:), reported in KLST"
    )
    func hostileEnds() throws {
        for fixture in Self.fixtures {
            let raw = RawIndex(fixture)
            let klst = try raw.kindListSection()
            let length = UInt32(klst.listBytes.count)
            // The last end is checked on open (lastEndNotLength); these are the others.
            for kind in klst.ends.indices.dropLast() {
                func with(_ value: UInt32, at index: Int) -> [UInt8] {
                    var changed = klst
                    changed.ends[index] = value
                    return raw.replacing("KLST", with: changed.encoded)
                }
                for value in [length + 1, 2 * length + 7, UInt32(Int32.max), UInt32.max] {
                    // Its own list ends past the lists; the next one starts past its end.
                    try Self.expectReadRefused(with(value, at: kind), kind: kind, "kind \(kind) ends at \(value)")
                    try Self.expectReadRefused(
                        with(value, at: kind), kind: kind + 1, "kind \(kind) ends at \(value), next")
                }
                // This list ends before it starts.
                let start = kind == 0 ? 0 : klst.ends[kind - 1]
                if start > 0 {
                    try Self.expectReadRefused(
                        with(start - 1, at: kind), kind: kind, "kind \(kind) ends at \(start - 1) before \(start)")
                }
                // The next list starts after its end.
                try Self.expectReadRefused(
                    with(klst.ends[kind + 1] + 1, at: kind), kind: kind + 1, "kind \(kind) ends after \(kind + 1)")
            }
        }
    }

    @Test(
        "a kind list whose count is longer than its bytes, or whose ranks run past the last spot, throws IndexError when read; the other lists still read"
    )
    func hostileRanks() throws {
        for fixture in Self.fixtures {
            let raw = RawIndex(fixture)
            let lists = try raw.kindListSection().lists()
            let n = raw.spots.count
            let variants: [(String, [UInt8])] = [
                ("rank N", rankList([n])), ("ranks 0 and N", rankList([0, n])),
                ("a gap of 2^32 - 1", varint(1) + varint(Int(UInt32.max))),
                ("count 3 of one rank", varint(3) + varint(0)), ("count 2 of one rank", varint(2) + varint(0)),
                ("no bytes", []),
                ("a varint past 32 bits", varint(1) + [0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
                ("N + 1 ranks", rankList(Array(0...n))),
            ]
            for kind in lists.indices {
                for (label, list) in variants {
                    var encoded = lists.map(rankList)
                    encoded[kind] = list
                    let bytes = raw.replacing("KLST", with: RawKindLists(listBytes: encoded).encoded)
                    try Self.expectReadRefused(bytes, kind: kind, "kind \(kind): \(label)")
                    try withTemporaryFile(bytes) { path in
                        let reader = try SpotIndexReader(path: path)
                        for other in lists.indices where other != kind {
                            #expect(
                                try reader.kindRanks(ofKind: other) == lists[other],
                                "kind \(other) beside \(kind): \(label)")
                        }
                    }
                }
            }
        }
    }

    @Test(
        "any value in any end or list byte of the kind lists opens (but a last end other than the lists' length), and every read fails with IndexError naming KLST or succeeds, never a crash"
    )
    func everyWordAnyValue() throws {
        try withScratchFile { write in
            for fixture in Self.fixtures {
                let klst = try RawIndex(fixture).kindListSection()
                let kinds = Int(klst.count)
                let length = UInt32(klst.listBytes.count)
                let section = fixture.section("KLST")
                var variants: [(String, offset: Int, bytes: [UInt8], opens: Bool)] = []
                for kind in 0..<kinds {
                    for value in [0, 1, length - 1, length, length + 1, UInt32(Int32.max), UInt32(1) << 31, UInt32.max]
                    {
                        variants.append(
                            ("end \(kind) = \(value)", 4 + 4 * kind, le32(value), kind < kinds - 1 || value == length))
                    }
                }
                for position in klst.listBytes.indices {
                    for value: UInt8 in [0, 1, 0x7F, 0x80, 0xFF] {
                        variants.append(("list byte \(position) = \(value)", 4 + 4 * kinds + position, [value], true))
                    }
                }
                for (label, offset, patch, opens) in variants {
                    var bytes = fixture
                    bytes.replaceSubrange(section.offset + offset..<section.offset + offset + patch.count, with: patch)
                    bytes.resealSection("KLST")
                    let result = try DamageTests.exercise(bytes, writing: write)
                    guard opens else {
                        #expect(result.openError?.kind == .corrupt && result.openError?.section == "KLST", "\(label)")
                        continue
                    }
                    #expect(result.openError == nil, "\(label)")
                    #expect(result.badSections.isEmpty, "\(label)")
                    let kindListFailures = result.failures.filter { $0.hasPrefix("kind list") }
                    #expect(kindListFailures.allSatisfy { $0.hasSuffix(": KLST") }, "\(label)")
                    if label.hasPrefix("end"), Int(label.split(separator: " ")[1])! < kinds - 1,
                        patch.load(UInt32.self, at: 0) > length
                    {
                        #expect(!kindListFailures.isEmpty, "\(label): an end past the lists must be caught")
                    }
                }
            }
        }
    }
}
