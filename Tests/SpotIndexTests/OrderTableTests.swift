import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotIndexWriting

/// Order tables (REFS, MRGO) store each number in the fewest bytes that hold their count less one.
@Suite("Order tables")
struct OrderTableTests {
    @Test(
        "an order table's width is the fewest bytes that hold its count less one",
        arguments: [
            (0, 1), (1, 1), (256, 1), (257, 2), (65_536, 2), (65_537, 3), (16_777_216, 3), (16_777_217, 4),
        ])
    func width(count: Int, width: Int) {
        #expect(IndexLayout.orderEntrySize(count: count) == width)
    }

    @Test("an index of more spots than one byte numbers keeps two bytes a spot in REFS, read back in order")
    func twoByteReferenceOrder() throws {
        // Ids descending while coordinates ascend: reference order is not Hilbert order.
        let spots = (0..<300).map { (number: Int) -> Spot in
            let id = Int64(1_000 - number)
            let coordinate = Coordinate(latitudeE7: Int32(number) * 1_000, longitudeE7: Int32(number) * 700)!
            return Spot(
                ref: OSMRef(.node, id), coordinate: coordinate, tagKey: "amenity", kind: "cafe", category: .cafe)
        }
        let bytes = SpotIndexWriter.encode(spots, metadata: RoundTripTests.emptyMetadata)
        let raw = RawIndex(bytes)
        #expect(raw.orderWidth("REFS") == 2)
        #expect(bytes.section("REFS").length == 600)
        let order = raw.numbers("REFS").map(Int.init)
        #expect(order.sorted() == Array(0..<300), "every spot once")
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            for (rank, spot) in order.enumerated() {
                #expect(try reader.spot(atRank: rank) == spot)
            }
            #expect(try reader.spot(at: reader.spot(atRank: 0)).ref == OSMRef(.node, 701), "the lowest id first")
        }
    }
}
