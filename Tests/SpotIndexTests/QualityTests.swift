import Foundation
import SpotIndex
import SpotIndexWriting
import SpotTestSupport
import Spots
import Testing

@Suite("Quality flags (QUAL)")
struct QualityTests {
    /// Spots of every quality flag, alone and together.
    static let flaggedSpots: [Spot] = {
        var factory = SpotFactory(seed: 17)
        return factory.uniqueSpots(64).enumerated().map { bits, spot in
            var spot = spot
            spot.ref = OSMRef(bits & 32 != 0 ? .way : .node, Int64(bits))
            spot.merged = []
            let details: [(Spot.Detail, Int)] = [(.wikidata, 1), (.website, 4), (.openingHours, 8), (.phone, 16)]
            for (detail, bit) in details { spot.details[detail] = bits & bit != 0 ? "x" : nil }
            spot.hasWikipedia = bits & 2 != 0
            return spot
        }
    }()

    static let flagged = SpotIndexWriter.encode(flaggedSpots, metadata: RoundTripTests.emptyMetadata)

    /// `DamageTests.small` with QUAL's bytes replaced by `contents`.
    static func replaced(_ contents: [UInt8]) -> [UInt8] {
        RawIndex(DamageTests.small).replacing("QUAL", with: contents)
    }

    @Test("QUAL holds one byte per spot, in spot order, its flags as the tags give them")
    func layout() throws {
        for (spots, bytes) in LayoutTests.fixtures + [(Self.flaggedSpots, Self.flagged)] {
            let raw = RawIndex(bytes)
            let order = raw.spots.compactMap(\.ref)
            #expect(order.count == spots.count)
            #expect(raw.contents("QUAL") == ExpectedIndex(spots).encodedQualities(spotRefs: order))
        }
        #expect(Set(RawIndex(Self.flagged).contents("QUAL")) == Set(0..<64), "every combination of flags")
    }

    @Test("the reader gives each spot's flags, their score, and hasWikipedia from bit 1")
    func reading() throws {
        try withTemporaryFile(Self.flagged) { path in
            let reader = try SpotIndexReader(path: path)
            for position in 0..<reader.count {
                let spot = try reader.spot(at: position)
                let bits = ExpectedIndex.quality(of: spot)
                let quality = try reader.quality(at: position)
                #expect(quality.rawValue == bits, "\(spot.ref)")
                #expect(quality.score == ExpectedIndex.score(of: bits), "\(spot.ref)")
                #expect(spot.hasWikipedia == (bits & 2 != 0), "\(spot.ref)")
            }
            let scores = try (0..<reader.count).map { try reader.quality(at: $0).score }
            #expect(scores.min() == 0 && scores.max() == 10)
        }
    }

    @Test("a QUAL section of other than one byte per spot, or none, is corrupt on open")
    func wrongLength() throws {
        let count = DamageTests.smallSpots.count
        let contents = DamageTests.small.contents(of: "QUAL")
        #expect(contents.count == count)
        for length in [0, count - 1, count + 1, 2 * count, 8 * count] {
            let error = try openingError(
                Self.replaced(Array((contents + [UInt8](repeating: 0, count: 8 * count)).prefix(length))))
            #expect(error?.kind == .corrupt, "\(length) bytes")
            #expect(error?.section == "QUAL", "\(length) bytes")
        }
        let withoutQuality = RawIndex.assemble(RawIndex(DamageTests.small).sectionContents.filter { $0.name != "QUAL" })
        #expect(try openingError(withoutQuality)?.kind == .corrupt, "no QUAL")
    }

    @Test("a flag byte with unknown bits throws IndexError on reading that spot, reported in QUAL; the others read")
    func unknownBits() throws {
        let contents = DamageTests.small.contents(of: "QUAL")
        for position in contents.indices {
            for bad: UInt8 in [0x40, 0x80, 0xC0, 0xFF, contents[position] | 0x40] {
                var damaged = contents
                damaged[position] = bad
                let bytes = Self.replaced(damaged)
                let errors = try readingErrors(
                    bytes, [{ _ = try $0.quality(at: position) }, { _ = try $0.spot(at: position) }])
                for error in errors {
                    #expect(error?.kind == .corrupt, "spot \(position), byte \(bad)")
                    #expect(error?.section == "QUAL", "spot \(position), byte \(bad)")
                }
                let outcome = try DamageTests.exercise(bytes)
                #expect(outcome.openError == nil)
                #expect(outcome.failures == ["spot \(position): QUAL", "quality \(position): QUAL"])
            }
        }
    }
}
