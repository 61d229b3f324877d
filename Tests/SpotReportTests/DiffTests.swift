import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotReport

@Suite("The diff against an older index")
struct DiffTests {
    @Test("the diff of an index against itself is empty", arguments: [Fixtures.sample, Fixtures.sampleKeepAll])
    func againstItself(path: String) throws {
        let report = try Fixtures.report(path, against: path, maxDrop: 0)
        let diff = try #require(report.diff)
        #expect(diff.isEmpty)
        #expect((diff.references.added, diff.references.removed, diff.references.moved) == (0, 0, 0))
        #expect(diff.categories.allSatisfy { $0.change == 0 && $0.relativeChange == 0 })
        #expect(diff.categories.map(\.category) == report.coverage.categories.map(\.category))
        #expect(diff.warnings.isEmpty)
        #expect(diff.total.change == 0)
        #expect(ReportFormat.text.render(report).contains("no category changed"))
    }

    @Test("against a build without cafes, the diff flags cafe and nothing else")
    func flagsRemovedCategory() throws {
        let report = try Fixtures.report(Fixtures.sampleWithoutCafes, against: Fixtures.sample)
        let diff = try #require(report.diff)
        #expect(diff.warnings.map(\.category) == [.cafe])
        let cafe = try #require(diff.categories.first { $0.category == .cafe })
        #expect(cafe.after == 0 && cafe.before == 88)
        #expect(cafe.relativeChange == -1)
        #expect(diff.categories.filter { $0.change != 0 }.map(\.category) == [.cafe])
        #expect((diff.references.added, diff.references.removed, diff.references.moved) == (0, 88, 0))
        #expect(diff.total.before - diff.total.after == 88)
        #expect(diff.warningMessages == ["cafe fell from 88 to 0 spots (-100.0%), more than the 20.0% allowed"])
        #expect(ReportFormat.text.render(report).contains("warning: cafe fell from 88 to 0 spots"))
        // The other way round, cafe is new: a rise never warns.
        let back = try #require(
            try Fixtures.report(Fixtures.sample, against: Fixtures.sampleWithoutCafes, maxDrop: 0).diff)
        #expect(back.warnings.isEmpty)
        #expect(back.categories.first { $0.category == .cafe }?.relativeChange == nil)
        #expect((back.references.added, back.references.removed) == (88, 0))
    }

    @Test("spots are matched by OSM reference: added, removed, and moved by more than 1 m")
    func referencesAddedRemovedMoved() throws {
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let older = try Fixtures.write([
            Fixtures.spot(1, .cafe), Fixtures.spot(2, .cafe), Fixtures.spot(3, .cafe), Fixtures.spot(4, .cafe),
            Fixtures.spot(6, .bank),
        ])
        let newer = try Fixtures.write([
            Fixtures.spot(1, .cafe),
            Fixtures.spot(2, .cafe, latitude: 60.17 + 0.9 / metresPerDegree),  // 0.9 m north: not a move
            Fixtures.spot(3, .cafe, latitude: 60.17 + 1.2 / metresPerDegree),  // 1.2 m north: a move
            Fixtures.spot(5, .cafe),
            Fixtures.spot(6, .atm),  // same reference, other category: neither added nor removed
        ])
        let diff = try #require(try Fixtures.report(newer, against: older).diff)
        #expect((diff.references.added, diff.references.removed, diff.references.moved) == (1, 1, 1))
        #expect(diff.categories.map { "\($0.name) \($0.before) \($0.after)" } == ["cafe 4 4", "atm 0 1", "bank 1 0"])
        #expect(diff.warnings.map(\.category) == [.bank])
    }

    /// `spot` moved `units` steps of the fixed-point latitude (1.1 cm each) toward the equator,
    /// along its meridian: exactly `units` × 1.1 cm away, wherever it is.
    static func moved(_ spot: Spot, by units: Int32) throws -> Spot {
        var moved = spot
        let latitude = spot.coordinate.latitudeE7
        moved.coordinate = try #require(
            Coordinate(
                latitudeE7: latitude >= 0 ? latitude - units : latitude + units,
                longitudeE7: spot.coordinate.longitudeE7))
        return moved
    }

    @Test("of random spots, exactly those added, removed and moved by more than 1 m are counted, whatever else changed")
    func randomReferences() throws {
        var factory = SpotFactory(seed: 16)
        let spots = factory.uniqueSpots(200)
        // Spots 100..<130 are removed.
        let (kept, moved, nudged) = (spots[0..<100], spots[130..<150], spots[150..<200])
        let added = factory.uniqueSpots(25, besides: spots)
        // Moved 2.2 m to 1 km; nudged 1.1 cm to 0.5 m, not a move. The kept ones change all but place.
        let newer =
            try kept.map { spot in
                var changed = spot
                changed.name = "renamed"
                changed.category = .museum
                changed.merged = []
                return changed
            } + moved.map { try Self.moved($0, by: Int32(factory.int(200...90_000))) }
            + nudged.map { try Self.moved($0, by: Int32(factory.int(1...45))) } + added
        let older = Array(spots)
        #expect(newer.count == 195, "100 kept, 20 moved, 50 nudged, 25 added")
        let changes = try ReferenceChanges(before: openIndex(of: older), after: openIndex(of: newer))
        #expect((changes.added, changes.removed, changes.moved) == (25, 30, 20))
        let back = try ReferenceChanges(before: openIndex(of: newer), after: openIndex(of: older))
        #expect((back.added, back.removed, back.moved) == (30, 25, 20))
        let same = try ReferenceChanges(before: openIndex(of: older), after: openIndex(of: older.reversed()))
        #expect((same.added, same.removed, same.moved) == (0, 0, 0))
    }

    @Test("max-drop is a strict bound on the fall, as a fraction of the count before")
    func maxDropBound() {
        let fallToEight = CategoryChange(category: .cafe, before: 10, after: 8)
        #expect(!fallToEight.fell(byMoreThan: 0.2))
        #expect(fallToEight.fell(byMoreThan: 0.19))
        #expect(fallToEight.fell(byMoreThan: 0))
        let gone = CategoryChange(category: .cafe, before: 10, after: 0)
        #expect(gone.fell(byMoreThan: 0.99) && !gone.fell(byMoreThan: 1))
        #expect(!CategoryChange(category: .cafe, before: 0, after: 5).fell(byMoreThan: 0))
        #expect(!CategoryChange(category: .cafe, before: 10, after: 10).fell(byMoreThan: 0))
    }
}
