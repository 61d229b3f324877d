import Foundation
import SpotTestSupport
import Spots
import Testing

@testable import SpotIndex

/// The bounds-checked byte view that every section is read through, and the view types that
/// check their sections on open.
@Suite("Section views")
struct SectionViewTests {
    /// Ten bytes, 0x10 to 0x19.
    static let bytes: [UInt8] = Array(0x10...0x19)

    /// Calls `body` with a view of `bytes` named "TEST".
    static func withView<T>(_ bytes: [UInt8] = bytes, _ body: (SectionBytes) throws -> T) rethrows -> T {
        try bytes.withUnsafeBytes { try body(SectionBytes($0, file: "test.spots", name: "TEST")) }
    }

    /// Expects `read` to throw a corrupt IndexError naming TEST, with `message` when given.
    static func expectOutside<T>(
        _ comment: Comment, message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ read: () throws(IndexError) -> T
    ) {
        do throws(IndexError) {
            let value = try read()
            Issue.record("read \(value), expected an error: \(comment)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == .corrupt && error.file == "test.spots", comment, sourceLocation: sourceLocation)
            #expect(error.section == "TEST", comment, sourceLocation: sourceLocation)
            if let message { #expect(error.message == message, comment, sourceLocation: sourceLocation) }
        }
    }

    /// Offsets around the ends of a view of `count` bytes, and far outside it.
    static func probeOffsets(_ count: Int) -> [Int] {
        Array(-9...count + 9) + [Int.min, Int.min + 1, Int.max - 8, Int.max - 3, Int.max]
    }

    /// Checks checked reads of `T` at every probe offset: the little-endian value inside, an error outside.
    static func expectChecked<T: FixedWidthInteger>(_ type: T.Type, _ view: SectionBytes) throws {
        for offset in probeOffsets(view.count) {
            if offset >= 0 && offset <= view.count - MemoryLayout<T>.size {
                let expected = (0..<MemoryLayout<T>.size).reversed().reduce(T.zero) { value, byte in
                    value << 8 | T(truncatingIfNeeded: bytes[offset + byte])
                }
                #expect(try view.load(T.self, at: offset) == expected, "\(T.self) at \(offset)")
            } else {
                expectOutside("\(T.self) at \(offset)") { () throws(IndexError) in try view.load(T.self, at: offset) }
            }
        }
    }

    @Test(
        "checked reads return little-endian values inside the view and throw a corrupt error naming the section at any offset outside it"
    )
    func checkedReads() throws {
        try Self.withView { view in
            #expect(view.count == 10)
            #expect(try view.uint32(at: 0) == 0x1312_1110)
            try Self.expectChecked(UInt8.self, view)
            try Self.expectChecked(UInt16.self, view)
            try Self.expectChecked(UInt32.self, view)
            try Self.expectChecked(Int32.self, view)
            try Self.expectChecked(UInt64.self, view)
            Self.expectOutside("a word at 8", message: "bytes 8..<12 lie outside 0..<10") { () throws(IndexError) in
                try view.uint32(at: 8)
            }
        }
        Self.withView([]) { empty in
            #expect(Array(empty).isEmpty)
            Self.expectOutside("a byte of nothing") { () throws(IndexError) in try empty.load(UInt8.self, at: 0) }
        }
    }

    @Test("a subrange inside its view reads its own bytes; one outside it, or ending before it starts, throws")
    func subranges() throws {
        try Self.withView { view in
            let middle = try view.subrange(from: 3, to: 9)
            #expect(Array(middle) == Array(Self.bytes[3..<9]))
            #expect(Array(try view.subrange(from: 7)) == Array(Self.bytes[7...]))
            #expect(Array(try view.subrange(from: 10)).isEmpty)
            #expect(try middle.uint32(at: 2) == 0x1817_1615)
            // Errors count bytes from the start of the section, not of the subrange.
            Self.expectOutside("a word past a subrange", message: "bytes 7..<11 lie outside 3..<9") {
                () throws(IndexError) in
                try middle.uint32(at: 4)
            }
            // A subrange renamed as a section of its own counts from its own start.
            let renamed = try view.subrange(from: 2, to: 4, named: "TEST")
            Self.expectOutside("past a renamed subrange", message: "bytes 1..<3 lie outside 0..<2") {
                () throws(IndexError) in
                try renamed.load(UInt16.self, at: 1)
            }
            for (lower, upper) in [(-1, 2), (0, 11), (11, 11), (5, 4), (Int.min, 0), (0, Int.max), (Int.max, Int.max)] {
                Self.expectOutside("\(lower) to \(upper)") { () throws(IndexError) in
                    try view.subrange(from: lower, to: upper)
                }
                Self.expectOutside("\(lower) to \(upper) of the middle") { () throws(IndexError) in
                    try middle.subrange(from: lower, to: upper)
                }
            }
        }
    }

    @Test("a record table refuses a view that is not a whole number of records, and reads each field of each record")
    func recordTables() throws {
        try Self.withView { view in
            Self.expectOutside("records of 4", message: "length 10 is not a multiple of 4") { () throws(IndexError) in
                try RecordTable(view, recordSize: 4)
            }
            Self.expectOutside("records of 3") { () throws(IndexError) in try RecordTable(view, recordSize: 3) }
            let table = try RecordTable(view, recordSize: 5)
            #expect(table.count == 2)
            #expect(table.field(at: 0, of: 0) as UInt32 == 0x1312_1110)
            #expect(table.field(at: 1, of: 1) as UInt32 == 0x1918_1716)
            #expect(table.field(at: 4, of: 1) as UInt8 == 0x19)
            #expect(try RecordTable(try view.subrange(from: 10), recordSize: 16).count == 0)
        }
    }

    @Test("a varint reader stops at its end: a varint cut by it is nil, an end past the view is the view's end")
    func varints() {
        let bytes: [UInt8] = [0x05, 0x96, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x80]
        Self.withView(bytes) { view in
            var reader = view.varints(from: 0)
            #expect(reader.next() == 5)
            #expect(reader.next() == 150)
            #expect(reader.next() == UInt32.max)
            #expect(!reader.isAtEnd)
            #expect(reader.next() == nil, "a last byte with its high bit set runs past the end")
            #expect(reader.isAtEnd && reader.position == bytes.count)
            var cut = view.varints(from: 1, to: 2)
            #expect(cut.next() == nil, "150 takes two bytes")
            var far = view.varints(from: 0, to: Int.max)
            #expect(far.end == bytes.count)
            #expect(far.next() == 5)
            var past = view.varints(from: 100, to: 200)
            #expect(past.isAtEnd && past.next() == nil)
        }
        Self.withView([UInt8](repeating: 0xFF, count: 6) + [0x01]) { view in
            var reader = view.varints(from: 0)
            #expect(reader.next() == nil, "more than 32 bits")
        }
    }

    @Test("the bytes of a range inside a view are those bytes, and the view's CRC-32 is zlib's")
    func bytesAndChecksum() {
        Self.withView { view in
            #expect(Array(view.bytes(in: 2..<5)) == [0x12, 0x13, 0x14])
            #expect(Array(view.bytes(in: 10..<10)).isEmpty)
            #expect(view.crc32() == zlibCRC32(Self.bytes))
            #expect(view.crc32(continuing: 7) == zlibCRC32(Self.bytes, continuing: 7))
        }
    }
}

@Suite("Sections cut short")
struct SectionCutTests {
    /// The sections whose view may name an error on opening an index with section `name` cut
    /// short: its own, or the one whose check compares with it (a count, a length).
    static let namedOnOpen: [String: Set<String>] = [
        "META": [], "ATTR": [], "WORD": [],
        "STRS": ["STRS"], "TOKN": ["TOKN"], "POST": ["POST"], "KLST": ["KLST"], "TREE": ["TREE"], "QUAL": ["QUAL"],
        "WLST": ["WLST"], "REFS": ["REFS"], "MRGO": ["MRGO"],
        // Fewer kinds than KLST lists; fewer spots than REFS entries; fewer merged references than MRGO entries.
        "KIND": ["KIND", "KLST"], "SPOT": ["SPOT", "REFS"], "MERG": ["MERG", "MRGO"],
        "CLUS": ["CLUS"], "CTRE": ["CTRE"], "CDET": ["CDET"], "CMEM": ["CMEM"], "SVIS": ["SVIS"],
    ]

    /// The lengths a section of `length` bytes is cut to: every one below 64, then a sample.
    static func cuts(_ length: Int) -> [Int] {
        Array(0..<min(length, 64)) + Array(stride(from: 64, to: length, by: 13))
    }

    /// `fixture` with section `name`'s recorded length set to `length` (its bytes left where
    /// they are, as padding), the header resealed.
    static func cut(_ fixture: [UInt8], _ name: String, to length: Int) -> [UInt8] {
        var bytes = fixture
        bytes.store(UInt64(length), at: fixture.section(name).entryOffset + 16)
        bytes.resealHeader()
        return bytes
    }

    @Test(
        "a section cut short to any length is refused on open by the view that reads it (or one that checks it against another), or opens and reads with IndexError or success",
        arguments: [
            "META", "STRS", "KIND", "SPOT", "ATTR", "REFS", "MERG", "MRGO", "KLST", "TREE", "TOKN", "POST", "QUAL",
            "WLST", "WORD",
        ])
    func requiredSections(name: String) throws {
        var refused = 0
        try withScratchFile { write in
            for fixture in [DamageTests.small, DamageTests.wordy] {
                for length in Self.cuts(fixture.section(name).length) {
                    let result = try DamageTests.exercise(Self.cut(fixture, name, to: length), writing: write)
                    guard let error = result.openError else { continue }
                    refused += 1
                    #expect(error.kind == .corrupt)
                    #expect(
                        Self.namedOnOpen[name]?.contains(error.section ?? "") == true,
                        "\(name) cut to \(length): \(error)")
                }
            }
        }
        #expect(refused > 0 || Self.namedOnOpen[name]?.isEmpty == true, "cutting \(name) short must be refused on open")
    }

    @Test(
        "a cluster section cut short to any length is refused on open by ClusterLevels naming it, or opens and reads with IndexError or success",
        arguments: ["CLUS", "CTRE", "CDET", "CMEM", "SVIS"])
    func clusterSections(name: String) throws {
        let fixture = ClusterDamageTests.fixture
        var refused = 0
        try withScratchFile { write in
            for length in Self.cuts(fixture.section(name).length) {
                let path = try write(Self.cut(fixture, name, to: length))
                do throws(IndexError) {
                    _ = ClusterDamageTests.exercise(try SpotIndexReader(path: path))
                } catch {
                    refused += 1
                    #expect(error.kind == .corrupt && error.section == name, "\(name) cut to \(length): \(error)")
                }
            }
        }
        #expect(refused > 0)
    }
}
