import Foundation
import SpotIndex
@testable import SpotReport
import Spots
import Testing

@Suite("The diff against an older index")
struct DiffTests {
    @Test("the diff of an index against itself is empty", arguments: [Fixtures.sample, Fixtures.sampleKeepAll])
    func againstItself(path: String) throws {
        let report = try Fixtures.report(path, against: path, maxDrop: 0)
        let diff = try #require(report.diff)
        #expect(diff.isEmpty)
        #expect(diff.references == (try ReferenceChanges(before: SpotIndexReader(path: path), after: SpotIndexReader(path: path))))
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
        let back = try #require(try Fixtures.report(Fixtures.sample, against: Fixtures.sampleWithoutCafes, maxDrop: 0).diff)
        #expect(back.warnings.isEmpty)
        #expect(back.categories.first { $0.category == .cafe }?.relativeChange == nil)
        #expect((back.references.added, back.references.removed) == (88, 0))
    }

    @Test("spots are matched by OSM reference: added, removed, and moved by more than 1 m")
    func referencesAddedRemovedMoved() throws {
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let older = try Fixtures.write([
            Fixtures.spot(1, .cafe), Fixtures.spot(2, .cafe), Fixtures.spot(3, .cafe), Fixtures.spot(4, .cafe), Fixtures.spot(6, .bank),
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
