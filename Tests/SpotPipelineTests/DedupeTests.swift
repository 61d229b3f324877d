import Foundation
import OSMGeometry
import SpotIndex
import Testing

@testable import SpotPipeline
@testable import Spots

/// A candidate at `metresNorth` of Helsinki's Senate Square (60.1695 N, 24.9525 E), moved east by `metresEast`.
func candidate(
    _ id: Int64, _ name: String?, category: Category? = .cafe, north metresNorth: Double = 0,
    east metresEast: Double = 0,
    type: OSMType = .node, attributes: [String: String] = [:], context: [String: String] = [:]
) -> SpotCandidate {
    let metresPerDegree: Double = Coordinate.earthRadius * Double.pi / 180
    let latitude: Double = 60.1695 + metresNorth / metresPerDegree
    let longitude: Double = 24.9525 + metresEast / (metresPerDegree * cos(60.1695 * Double.pi / 180))
    let coordinate = Coordinate(
        latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))!
    var spot = Spot(
        ref: OSMRef(type, id), coordinate: coordinate, tagKey: "amenity", kind: category?.rawValue ?? "unknown",
        category: category, name: name)
    for (key, value) in attributes { spot.setAttribute(key: key, value: value) }
    return SpotCandidate(spot: spot, context: context)
}

func dedupe(_ candidates: [SpotCandidate], radius: Double = 50, byCategory: [Category: Double] = [:]) -> (
    spots: [Spot], report: StageReport
) {
    let stage = DedupeStage(
        settings: DedupeSettings(enabled: true, radius: radius, radiusByCategory: byCategory),
        names: DedupeNames(words: .builtIn))
    let (output, report) = stage.output(for: candidates)
    return (output.map(\.spot).sorted { $0.ref < $1.ref }, report)
}

@Suite("Deduplication")
struct DedupeTests {
    @Test("same category, same normalized name, within 50 m: one spot listing the other")
    func mergesNearbySameName() {
        let (spots, report) = dedupe([
            candidate(1, "Café Central"), candidate(2, "CAFE  CENTRAL", north: 30),
            candidate(3, "Ｃａｆｅ Ｃｅｎｔｒａｌ", east: -40),
        ])
        #expect(spots.count == 1)
        #expect(spots[0].ref == OSMRef(.node, 1))
        #expect(spots[0].merged == [OSMRef(.node, 2), OSMRef(.node, 3)])
        #expect(report.dropped == ["exact_name": 2])
    }

    @Test("the same name 500 m apart is two places; so are different categories and names")
    func keepsDistinctPlaces() {
        #expect(dedupe([candidate(1, "Nordea"), candidate(2, "Nordea", north: 500)]).spots.count == 2)
        #expect(
            dedupe([candidate(1, "Fazer", category: .cafe), candidate(2, "Fazer", category: .bakery, north: 5)]).spots
                .count == 2)
        #expect(dedupe([candidate(1, "Fazer"), candidate(2, "Fazer Kluuvi", north: 5)]).spots.count == 2)
    }

    @Test("nameless spots are never merged")
    func neverMergesNameless() {
        #expect(dedupe([candidate(1, nil), candidate(2, nil), candidate(3, " - ")]).spots.count == 3)
    }

    @Test("the richest candidate survives, filled from the rest; on a tie the first in type and id order")
    func richestSurvives() {
        let poor = candidate(5, "Kappeli", attributes: ["phone": "+358 1"])
        let rich = candidate(
            9, "Kappeli", north: 10, attributes: ["website": "https://kappeli.fi", "opening_hours": "Mo-Su 10-24"])
        let (spots, _) = dedupe([rich, poor])
        #expect(spots.count == 1)
        #expect(spots[0].ref == OSMRef(.node, 9))
        #expect(spots[0].details == [.phone: "+358 1", .website: "https://kappeli.fi", .openingHours: "Mo-Su 10-24"])
        #expect(spots[0].merged == [OSMRef(.node, 5)])
        let tie = dedupe([candidate(7, "Kappeli", type: .way), candidate(8, "Kappeli", north: 10)]).spots
        #expect(tie.map(\.ref) == [OSMRef(.node, 8)] && tie[0].merged == [OSMRef(.way, 7)])
    }

    @Test("greedy merging never stretches a place beyond the distance from its head")
    func noChains() {
        let (spots, _) = dedupe([
            candidate(1, "Kiosk"), candidate(2, "Kiosk", north: 40), candidate(3, "Kiosk", north: 80),
            candidate(4, "Kiosk", north: 120),
        ])
        #expect(spots.map(\.ref.id) == [1, 3])
        #expect(spots[0].merged == [OSMRef(.node, 2)] && spots[1].merged == [OSMRef(.node, 4)])
    }

    @Test("a spot joins the first head within the distance, in type then id order")
    func joinsFirstHead() {
        // Heads 1 (at 0 m) and 2 (at 90 m); 3 at 45 m lies within 50 m of both and joins 1.
        let (spots, _) = dedupe([
            candidate(3, "Kiosk", north: 45), candidate(2, "Kiosk", north: 90), candidate(1, "Kiosk"),
        ])
        #expect(spots.map(\.ref.id) == [1, 2])
        #expect(spots[0].merged == [OSMRef(.node, 3)])
    }

    @Test("per-category distances replace the default")
    func perCategoryRadius() {
        let campus = [
            candidate(1, "Helsingin yliopisto", category: .university),
            candidate(2, "Helsingin yliopisto", category: .university, north: 180),
        ]
        #expect(dedupe(campus).spots.count == 2)
        #expect(dedupe(campus, byCategory: [.university: 200]).spots.count == 1)
    }

    @Test("Japanese and Cyrillic names merge by their normalized forms")
    func otherScripts() {
        #expect(dedupe([candidate(1, "スターバックス"), candidate(2, "ｽﾀｰﾊﾞｯｸｽ", north: 20)]).spots.count == 1)
        #expect(dedupe([candidate(1, "パン屋"), candidate(2, "ハン屋", north: 20)]).spots.count == 2)
        #expect(dedupe([candidate(1, "Кофе Хауз"), candidate(2, "КОФЕ ХАУЗ", north: 20)]).spots.count == 1)
    }

    @Test("places across the antimeridian are near each other")
    func antimeridian() {
        var a = candidate(1, "Fiji Cafe")
        var b = candidate(2, "Fiji Cafe")
        a.spot.coordinate = Coordinate(latitudeE7: -170_000_000, longitudeE7: 1_799_999_990)!
        b.spot.coordinate = Coordinate(latitudeE7: -170_000_000, longitudeE7: -1_799_999_990)!
        #expect(dedupe([a, b]).spots.count == 1)
    }

    @Test("thousands of same-name spots are grouped by a grid, deterministically")
    func manySpots() {
        let candidates: [SpotCandidate] = (0..<5000).map { (n: Int) in
            candidate(Int64(n), "Chain Store", north: Double(n % 100) * 300, east: Double(n / 100) * 300)
        }
        let (spots, report) = dedupe(candidates.shuffled())
        #expect(spots.count == 5000)
        #expect(report.dropped.isEmpty)
        let copies: [SpotCandidate] = (0..<5000).map { (n: Int) in
            candidate(Int64(10_000 + n), "chain store", north: Double(n % 100) * 300 + 10, east: Double(n / 100) * 300)
        }
        let doubled = candidates + copies
        let merged = dedupe(doubled.shuffled())
        #expect(merged.spots.count == 5000)
        #expect(merged.spots.allSatisfy { $0.merged.count == 1 })
    }
}

/// A square area `side` metres wide centred on `candidate`'s point, as a closed way's polygon.
func withSquareArea(_ candidate: SpotCandidate, side: Double) -> SpotCandidate {
    let metresPerDegree: Double = Coordinate.earthRadius * Double.pi / 180
    let center = candidate.spot.coordinate
    let halfLatitude = Int32((side / 2 / metresPerDegree * 1e7).rounded())
    let halfLongitude = Int32((side / 2 / (metresPerDegree * cos(center.latitude * Double.pi / 180)) * 1e7).rounded())
    let corners = [(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)].map { corner in
        Coordinate(
            latitudeE7: center.latitudeE7 + Int32(corner.1) * halfLatitude,
            longitudeE7: center.longitudeE7 + Int32(corner.0) * halfLongitude)!
    }
    var candidate = candidate
    candidate.area = Area(outers: [corners])
    return candidate
}

@Suite("Deduplication of areas")
struct AreaDedupeTests {
    @Test(
        "a node inside a same-name area is that place however far from the area's point: the node survives, filled from the area"
    )
    func nodeInsideAreaSurvives() {
        let area = withSquareArea(
            candidate(40, "Kaisaniemi", type: .way, attributes: ["website": "https://k.fi", "phone": "+358 2"]),
            side: 400)
        let node = candidate(3, "KAISANIEMI", north: 150, east: 120, attributes: ["phone": "+358 1"])
        let (spots, report) = dedupe([area, node])
        #expect(spots.count == 1)
        #expect(spots[0].ref == OSMRef(.node, 3))
        #expect(spots[0].coordinate == node.spot.coordinate)
        #expect(spots[0].details == [.phone: "+358 1", .website: "https://k.fi"])
        #expect(spots[0].merged == [OSMRef(.way, 40)])
        #expect(report.dropped == ["node_in_area": 1])
    }

    @Test("a node outside the area, or of another name or category inside it, stays its own place")
    func nodeOutsideOrDifferentStays() {
        let area = withSquareArea(candidate(40, "Kaisaniemi", type: .relation), side: 100)
        #expect(dedupe([area, candidate(3, "Kaisaniemi", north: 120)]).spots.count == 2)
        #expect(dedupe([area, candidate(3, "Kaisaniemen kahvila", north: 10)]).spots.count == 2)
        #expect(dedupe([area, candidate(3, "Kaisaniemi", category: .bakery, north: 10)]).spots.count == 2)
    }

    @Test("an area folds into the first node inside it, in id order; the other node stays when beyond the distance")
    func firstNodeInsideTakesTheArea() {
        let area = withSquareArea(candidate(40, "Kaisaniemi", type: .way), side: 400)
        let spots = dedupe([area, candidate(9, "Kaisaniemi", north: 150), candidate(4, "Kaisaniemi", north: -150)])
            .spots
        #expect(spots.map(\.ref) == [OSMRef(.node, 4), OSMRef(.node, 9)])
        #expect(spots[0].merged == [OSMRef(.way, 40)] && spots[1].merged.isEmpty)
    }
}
