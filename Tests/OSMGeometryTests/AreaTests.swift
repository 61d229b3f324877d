import OSMGeometry
import Spots
import Testing

/// A closed ring through fixed-point (longitude, latitude) pairs.
func ring(_ points: [(Int32, Int32)]) -> [Coordinate] {
    let coordinates = points.map { Coordinate(latitudeE7: $0.1, longitudeE7: $0.0)! }
    return coordinates + [coordinates[0]]
}

@Suite struct AreaTests {
    let square = ring([(0, 0), (1_000, 0), (1_000, 1_000), (0, 1_000)])

    @Test func aConvexAreaStandsAtItsCentroid() {
        let area = Area(outers: [square])!
        #expect(area.centroid == Coordinate(latitudeE7: 500, longitudeE7: 500))
        #expect(area.representativePoint == area.centroid)
    }

    @Test func aCentroidInAHoleGivesAPointOnTheSurface() {
        let hole = ring([(200, 200), (800, 200), (800, 800), (200, 800)])
        let area = Area(outers: [square], inners: [hole])!
        #expect(area.centroid == Coordinate(latitudeE7: 500, longitudeE7: 500))
        #expect(!area.contains(area.centroid!))
        let point = area.representativePoint
        #expect(area.contains(point))
        #expect(point == Coordinate(latitudeE7: 500, longitudeE7: 100))
    }

    @Test func aUShapeStandsOnItsWidestStretch() {
        // A U: the centroid falls in the gap between the arms.
        let shape = ring([
            (0, 0), (900, 0), (900, 1_000), (700, 1_000), (700, 200), (200, 200), (200, 1_000), (0, 1_000),
        ])
        let area = Area(outers: [shape])!
        #expect(!area.contains(area.centroid!))
        #expect(area.contains(area.representativePoint))
    }

    @Test func ringOrientationDoesNotMatter() {
        let clockwise = Array(square.reversed())
        #expect(Area(outers: [clockwise])!.centroid == Area(outers: [square])!.centroid)
    }

    @Test func openOrShortRingsAreNoArea() {
        #expect(Area(outers: [Array(square.dropLast())]) == nil)
        #expect(Area(outers: []) == nil)
        #expect(Area(outers: [ring([(0, 0), (5, 5)])]) == nil)
    }

    @Test func aFlatAreaFallsBackToAVertex() {
        let flat = Area(outers: [ring([(0, 0), (10, 0), (20, 0)])])!
        #expect(flat.centroid == nil)
        #expect(flat.representativePoint == Coordinate(latitudeE7: 0, longitudeE7: 0))
    }

    @Test func aLineStandsHalfwayAlongItsLength() {
        let line = [(0, 0), (0, 1_000), (3_000, 1_000)].map { Coordinate(latitudeE7: $0.1, longitudeE7: $0.0)! }
        let half = halfwayPoint(of: line)
        #expect(half.latitudeE7 == 1_000)
        #expect(abs(half.longitudeE7 - 1_000) <= 1)
        #expect(halfwayPoint(of: [line[0], line[0]]) == line[0])
    }
}

@Suite struct RingsTests {
    @Test func waysJoinByTheirEndsInEitherDirection() {
        let rings = Rings.join([[1, 2, 3], [5, 4, 3], [5, 6, 1], [10, 11, 12, 10]])
        #expect(rings == [[1, 2, 3, 4, 5, 6, 1], [10, 11, 12, 10]])
    }

    @Test func aGapIsNoRing() {
        #expect(Rings.join([[1, 2, 3], [4, 5, 1]]) == nil)
        #expect(Rings.join([[1, 2, 1]]) == nil)
    }
}
