import Foundation
import SpotTestSupport
import Testing

@testable import SpotRefresh

@Suite("Gates")
struct GatesTests {
    @Test("a build with fewer spots than min_spots is refused; with as many it passes")
    func minSpots() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let built = try report(
            try buildIndex(cityXML(cafes: 3), named: "small", in: folder), against: nil, maxDrop: 0.2)
        #expect(Gates(minSpots: 5, maxDrop: 0.2).failures(of: built) == ["3 spots, fewer than gates.min_spots 5"])
        #expect(Gates(minSpots: 3, maxDrop: 0.2).failures(of: built).isEmpty)
    }

    @Test("a fall of more than max_drop overall is refused; a fall within it passes")
    func maxDropOverall() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let before = try buildIndex(cityXML(cafes: 10), named: "before", in: folder)
        let fell = try report(
            try buildIndex(cityXML(cafes: 7), named: "fell", in: folder), against: before, maxDrop: 0.2)
        let failures = Gates(minSpots: 1, maxDrop: 0.2).failures(of: fell)
        #expect(failures.first == "spots fell from 10 to 7, more than gates.max_drop 0.2")
        let dipped = try buildIndex(cityXML(cafes: 9), named: "dipped", in: folder)
        let gates = Gates(minSpots: 1, maxDrop: 0.2)
        #expect(gates.failures(of: try report(dipped, against: before, maxDrop: 0.2)).isEmpty)
    }

    @Test("a fall of more than max_drop in one category is refused, though the total holds")
    func maxDropPerCategory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let before = try buildIndex(cityXML(cafes: 10, restaurants: 10), named: "before", in: folder)
        let after = try buildIndex(cityXML(cafes: 14, restaurants: 6), named: "after", in: folder)
        let failures = Gates(minSpots: 1, maxDrop: 0.2).failures(of: try report(after, against: before, maxDrop: 0.2))
        #expect(failures.count == 1)
        #expect(failures.first?.hasPrefix("restaurant fell from 10 to 6 spots") == true, "\(failures)")
        let lenient = Gates(minSpots: 1, maxDrop: 0.5).failures(of: try report(after, against: before, maxDrop: 0.5))
        #expect(lenient.isEmpty)
    }

    @Test("with nothing published, only min_spots applies")
    func firstBuild() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let built = try report(try buildIndex(cityXML(cafes: 2), named: "first", in: folder), against: nil, maxDrop: 0)
        #expect(Gates(minSpots: 1, maxDrop: 0).failures(of: built).isEmpty)
    }
}
