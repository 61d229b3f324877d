import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@Suite("Hostile index headers")
struct HostileHeaderTests {
    static var small: [UInt8] { DamageTests.small }

    /// Patches `bytes` at `offset`, reseals the header checksum and expects a corrupt error on open.
    static func expectCorrupt<T: FixedWidthInteger>(
        patching value: T, at offset: Int, in bytes: [UInt8] = small, section: String? = nil, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var bytes = bytes
        bytes.store(value, at: offset)
        bytes.resealHeader()
        let error = try openingError(bytes)
        #expect(error?.kind == .corrupt, comment, sourceLocation: sourceLocation)
        if let section { #expect(error?.section == section, comment, sourceLocation: sourceLocation) }
    }

    @Test(
        "a recorded file size that differs from the file is corrupt",
        arguments: [0, 1, 31, UInt64.max, UInt64(Int64.max)] as [UInt64])
    func recordedSize(size: UInt64) throws {
        try Self.expectCorrupt(patching: size, at: 16)
        try Self.expectCorrupt(patching: UInt64(Self.small.count - 1), at: 16)
        try Self.expectCorrupt(patching: UInt64(Self.small.count + 1), at: 16)
    }

    @Test(
        "section counts of zero, too few, too many, or a table past the end are corrupt",
        arguments: [0, 1, 4, 12, 17, 64, 65, 1_000, UInt32.max] as [UInt32])
    func sectionCounts(count: UInt32) throws {
        try Self.expectCorrupt(patching: count, at: 12)
    }

    @Test("a section offset past the end of the file is corrupt")
    func offsetPastEnd() throws {
        for section in Self.small.rawSections {
            // The first aligned offset past the end: an empty section may start at the end itself.
            let aligned = UInt64((Self.small.count + 8) / 8 * 8)
            for offset in [aligned, aligned + 8, UInt64.max - 7, UInt64(Int64.max) - 7, 1 << 62] {
                try Self.expectCorrupt(patching: offset, at: section.entryOffset + 8, "\(section.name) at \(offset)")
            }
        }
    }

    @Test("a section length running past the end of the file is corrupt, without overflow")
    func lengthPastEnd() throws {
        for section in Self.small.rawSections {
            let toEnd = UInt64(Self.small.count - section.offset)
            for length in [
                toEnd + 1, toEnd + 48, UInt64.max, UInt64(Int64.max), UInt64.max - UInt64(section.offset) + 1,
            ] {
                try Self.expectCorrupt(
                    patching: length, at: section.entryOffset + 16, "\(section.name) length \(length)")
            }
        }
    }

    @Test("overlapping or out-of-order sections are corrupt")
    func overlapping() throws {
        let sections = Self.small.rawSections
        for (earlier, later) in zip(sections, sections.dropFirst()) {
            // The later section starts where the earlier one does.
            try Self.expectCorrupt(
                patching: UInt64(earlier.offset), at: later.entryOffset + 8, "\(later.name) over \(earlier.name)")
            // The earlier section grows into the later one.
            if later.length > 0 {
                try Self.expectCorrupt(
                    patching: UInt64(later.offset - earlier.offset + 8), at: earlier.entryOffset + 16,
                    "\(earlier.name) into \(later.name)")
            }
        }
        // A section inside the header or the section table.
        let tableEnd = UInt64(32 + 32 * sections.count)
        for offset: UInt64 in [0, 8, 32, tableEnd - 8] {
            try Self.expectCorrupt(patching: offset, at: sections[0].entryOffset + 8, "META at \(offset)")
        }
    }

    @Test("a misaligned section offset is corrupt")
    func misaligned() throws {
        for section in Self.small.rawSections {
            try Self.expectCorrupt(patching: UInt64(section.offset + 1), at: section.entryOffset + 8, "\(section.name)")
        }
    }

    @Test("a duplicated or missing required section is corrupt; a missing optional one is absent")
    func duplicateOrMissing() throws {
        let sections = Self.small.rawSections
        let tags = sections.map { Self.small.load(UInt32.self, at: $0.entryOffset) }
        #expect(sections.map(\.name).suffix(3) == ["WLST", "WORD", "HNUM"])
        for (index, section) in sections.enumerated() {
            try Self.expectCorrupt(
                patching: tags[(index + 1) % tags.count], at: section.entryOffset, "\(section.name) renamed as another")
            if ["WLST", "WORD", "HNUM"].contains(section.name) {
                var bytes = Self.small
                bytes.store(UInt32(0x5858_5858), at: section.entryOffset)
                bytes.resealHeader()
                let index = try openIndex(bytes)
                if section.name == "WORD" {
                    #expect(
                        try index.storedSearchWords() == nil,
                        "an index without WORD stores no words: it has the built-in ones")
                } else if section.name == "HNUM" {
                    #expect(try index.letterHouseNumbers() == nil, "an index without HNUM does not tell")
                } else {
                    #expect(try index.wordList(of: "cafe") == nil, "an index without WLST lists no spots")
                }
            } else {
                try Self.expectCorrupt(
                    patching: UInt32(0x5858_5858), at: section.entryOffset, "\(section.name) renamed XXXX")
            }
        }
    }

    @Test("a record section whose length is not a whole number of records is corrupt")
    func partialRecords() throws {
        // REFS and MRGO are as long as their counts say (`referenceTableCounts`).
        for (name, record) in [("SPOT", 20), ("KIND", 12), ("MERG", 16), ("TREE", 4)] {
            let section = Self.small.section(name)
            #expect(section.length % record == 0)
            try Self.expectCorrupt(
                patching: UInt64(section.length - 1), at: section.entryOffset + 16, section: name, "\(name) minus one")
            if section.length >= record {
                try Self.expectCorrupt(
                    patching: UInt64(section.length - record / 2), at: section.entryOffset + 16, section: name,
                    "\(name) half a record short")
            }
        }
    }
}
