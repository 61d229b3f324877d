import SpotIndex
import SpotIndexWriting
import SpotTestSupport
import Spots
import Testing

/// HNUM: the house numbers that do not start with a digit, which tell a search which query words
/// of one or two letters may be house numbers.
@Suite("Letter house numbers")
struct LetterHouseNumberTests {
    /// An index of spots with these house numbers.
    static func index(houseNumbers: [String]) -> [UInt8] {
        let spots = houseNumbers.enumerated().map { position, number in
            var spot = Spot(
                ref: OSMRef(.node, Int64(position + 1)),
                coordinate: Coordinate(latitudeE7: 600_000_000, longitudeE7: 240_000_000)!, tagKey: "amenity",
                kind: "cafe", category: .cafe)
            spot.setAttribute(key: "addr:housenumber", value: number)
            return spot
        }
        return SpotIndexWriter.encode(spots, metadata: RoundTripTests.emptyMetadata)
    }

    @Test("the writer lists the folded house numbers that do not start with a digit, and the reader reads them")
    func roundTrip() throws {
        let bytes = Self.index(houseNumbers: ["S/N", "12 A", "B", "km 5", "7 B, sisäpiha", "b"])
        #expect(bytes.contents(of: "HNUM") == Array("b\nkm\nn\ns\n".utf8), "sorted, each once, joined numbers left out")
        try withTemporaryFile(bytes) { (path) throws in
            #expect(try SpotIndexReader(path: path).letterHouseNumbers() == ["b", "km", "n", "s"])
        }
        try withTemporaryFile(Self.index(houseNumbers: ["12", "3 A"])) { (path) throws in
            #expect(try SpotIndexReader(path: path).letterHouseNumbers() == [], "present and empty: none is a word")
        }
    }

    @Test("a file without the section reads as not knowing: nil")
    func absent() throws {
        var bytes = Self.index(houseNumbers: ["A"])
        // The section renamed to a tag no reader knows, as a file written before it joined.
        let entry = bytes.section("HNUM").entryOffset
        bytes.replaceSubrange(entry..<entry + 4, with: Array("XXXX".utf8))
        bytes.resealHeader()
        try withTemporaryFile(bytes) { (path) throws in
            #expect(try SpotIndexReader(path: path).letterHouseNumbers() == nil)
        }
    }

    @Test(
        "a section that is not lines of one- or two-letter words throws, reported in HNUM",
        arguments: ["abc\n", "1\n", "a", "\n", "a\u{FF}\n"])
    func hostile(text: String) throws {
        var bytes = Self.index(houseNumbers: ["ABC"])
        #expect(bytes.section("HNUM").length == 0)
        let patch = text == "a\u{FF}\n" ? [0x61, 0xFF, 0x0A] : Array(text.utf8)
        bytes = Self.replacingSection("HNUM", in: bytes, with: patch)
        try withTemporaryFile(bytes) { (path) throws in
            let reader = try SpotIndexReader(path: path)
            let error = #expect(throws: IndexError.self) { try reader.letterHouseNumbers() }
            #expect(error?.kind == .corrupt && error?.section == "HNUM")
        }
    }

    /// `bytes` with the last section, `name`, holding `contents` instead, its length, checksum
    /// and the file's size made to match.
    static func replacingSection(_ name: String, in bytes: [UInt8], with contents: [UInt8]) -> [UInt8] {
        let section = bytes.section(name)
        precondition(section.offset + section.length == bytes.count, "the section is not the file's last")
        var patched = Array(bytes[..<section.offset]) + contents
        patched.store(UInt64(contents.count), at: section.entryOffset + 16)
        patched.store(UInt64(patched.count), at: 16)
        patched.resealSection(name)
        return patched
    }
}
