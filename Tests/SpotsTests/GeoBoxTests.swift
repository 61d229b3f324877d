import Foundation
import Spots
import Testing

/// A coordinate from degrees, for tests.
private func point(_ latitude: Double, _ longitude: Double) -> Coordinate {
    Coordinate(latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))!
}

/// A box from degrees (west, south, east, north), for tests.
private func box(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> GeoBox {
    GeoBox(west: west, south: south, east: east, north: north)!
}

@Suite("GeoBox: enclosing")
struct GeoBoxEnclosingTests {
    @Test("enclosing no coordinates gives nil")
    func emptyIsNil() {
        #expect(GeoBox(enclosing: [Coordinate]()) == nil)
        #expect(GeoBox(enclosing: [GeoBox]()) == nil)
    }

    @Test("enclosing one coordinate gives a box of zero size at it")
    func single() throws {
        let point = try #require(Coordinate(latitudeE7: -5, longitudeE7: 7))
        let box = try #require(GeoBox(enclosing: [point]))
        #expect(box == GeoBox(westE7: 7, southE7: -5, eastE7: 7, northE7: -5))
        #expect(box == GeoBox(point))
    }

    @Test("enclosing many coordinates gives the per-axis minimum and maximum, in any order")
    func many() throws {
        let points = [(10, 20), (-30, 5), (45, -170), (0, 179)].map { point(Double($0.0), Double($0.1)) }
        for rotation in 0..<points.count {
            let rotated = Array(points[rotation...] + points[..<rotation])
            let box = try #require(GeoBox(enclosing: rotated))
            #expect(
                box
                    == GeoBox(
                        westE7: -1_700_000_000, southE7: -300_000_000, eastE7: 1_790_000_000, northE7: 450_000_000))
            #expect(!box.crossesAntimeridian)
            #expect(box.description == "-170.0000000,-30.0000000,179.0000000,45.0000000")
        }
    }

    @Test("enclosing accepts any sequence, such as a lazy map")
    func lazySequence() throws {
        let box = try #require(
            GeoBox(enclosing: (1...3).lazy.map { Coordinate(latitudeE7: Int32($0), longitudeE7: -Int32($0))! }))
        #expect(box.description == "-0.0000003,0.0000001,-0.0000001,0.0000003")
    }

    @Test("the box enclosing boxes is their union, whatever their order")
    func unionOfBoxes() throws {
        let boxes = [box(1, 2, 3, 4), box(-5, 3, 0, 10), box(2, -1, 2.5, 0)]
        let expected = box(-5, -1, 3, 10)
        #expect(try #require(GeoBox(enclosing: boxes)) == expected)
        #expect(try #require(GeoBox(enclosing: boxes.reversed())) == expected)
        #expect(boxes[0].union(boxes[1]).union(boxes[2]) == expected)
        var grown = boxes[2]
        grown.formUnion(boxes[0])
        #expect(grown == box(1, -1, 3, 4))
    }
}

@Suite("GeoBox: degrees")
struct GeoBoxDegreeTests {
    @Test("edges in degrees are rounded to the nearest 10^-7, in GeoJSON order")
    func geoJSONOrder() throws {
        let box = try #require(GeoBox(west: 24.90000004, south: 60.15000006, east: 24.98, north: 60.19))
        #expect(box == GeoBox(westE7: 249_000_000, southE7: 601_500_001, eastE7: 249_800_000, northE7: 601_900_000))
        #expect(box.description == "24.9000000,60.1500001,24.9800000,60.1900000")
    }

    @Test("values off the Earth, not numbers, or south north of north give nil")
    func invalid() {
        #expect(GeoBox(west: -180.0000001, south: 0, east: 0, north: 1) == nil)
        #expect(GeoBox(west: 0, south: 0, east: 180.0000001, north: 1) == nil)
        #expect(GeoBox(west: 0, south: -90.0000001, east: 1, north: 1) == nil)
        #expect(GeoBox(west: 0, south: 0, east: 1, north: 90.0000001) == nil)
        #expect(GeoBox(west: .nan, south: 0, east: 1, north: 1) == nil)
        #expect(GeoBox(west: 0, south: 0, east: .infinity, north: 1) == nil)
        #expect(GeoBox(west: 0, south: 2, east: 1, north: 1) == nil)
    }

    @Test("the Earth's edges are allowed, and a west edge east of the east one crosses the antimeridian")
    func edges() throws {
        #expect(GeoBox(west: -180, south: -90, east: 180, north: 90) == GeoBox.world)
        let crossing = try #require(GeoBox(west: 170, south: -10, east: -170, north: 10))
        #expect(crossing.crossesAntimeridian)
        #expect(try #require(GeoBox(west: 5, south: 1, east: 5, north: 1)).crossesAntimeridian == false)
    }

    @Test("a centre and spans give the box around the centre")
    func centreAndSpan() throws {
        let box = try #require(GeoBox(center: point(60, 25), latitudeDelta: 2, longitudeDelta: 4))
        #expect(box == GeoBox(west: 23, south: 59, east: 27, north: 61))
        #expect(box.center == point(60, 25))
    }

    @Test("the latitude span stops at the poles; a longitude span of 360° or more covers every longitude")
    func spanLimits() throws {
        let polar = try #require(GeoBox(center: point(89, 0), latitudeDelta: 10, longitudeDelta: 2))
        #expect(polar.northE7 == 900_000_000 && polar.southE7 == 840_000_000)
        let all = try #require(GeoBox(center: point(0, 100), latitudeDelta: 400, longitudeDelta: 360))
        #expect(all == GeoBox.world)
        #expect(
            try #require(GeoBox(center: point(0, 100), latitudeDelta: 1, longitudeDelta: .infinity)).westE7
                == -1_800_000_000)
    }

    @Test("a longitude span past the antimeridian wraps, giving a crossing box")
    func spanWraps() throws {
        let box = try #require(GeoBox(center: point(-17, 179.5), latitudeDelta: 1, longitudeDelta: 2))
        #expect(box == GeoBox(west: 178.5, south: -17.5, east: -179.5, north: -16.5))
        #expect(box.crossesAntimeridian)
        let west = try #require(GeoBox(center: point(0, -179.5), latitudeDelta: 1, longitudeDelta: 2))
        #expect(west == GeoBox(west: 179.5, south: -0.5, east: -178.5, north: 0.5))
    }

    @Test("a negative or not-a-number span gives nil")
    func badSpan() {
        #expect(GeoBox(center: point(0, 0), latitudeDelta: -1, longitudeDelta: 1) == nil)
        #expect(GeoBox(center: point(0, 0), latitudeDelta: 1, longitudeDelta: -0.5) == nil)
        #expect(GeoBox(center: point(0, 0), latitudeDelta: .nan, longitudeDelta: 1) == nil)
    }
}

@Suite("GeoBox: geometry")
struct GeoBoxGeometryTests {
    @Test("a box that does not cross the antimeridian splits into itself")
    func splitPlain() {
        let plain = box(-10, -5, 10, 5)
        #expect(plain.splitAtAntimeridian() == [plain])
        #expect(GeoBox.world.splitAtAntimeridian() == [GeoBox.world])
    }

    @Test("a crossing box splits into its part up to 180° and its part from -180°, neither crossing")
    func splitCrossing() {
        let parts = box(170, -10, -170, 10).splitAtAntimeridian()
        #expect(parts == [box(170, -10, 180, 10), box(-180, -10, -170, 10)])
        #expect(parts.allSatisfy { !$0.crossesAntimeridian })
    }

    @Test("a coordinate is in a box up to its edges included, and in a crossing box on either side")
    func contains() {
        let plain = box(-10, -5, 10, 5)
        #expect(plain.contains(point(0, 0)))
        #expect(plain.contains(point(5, 10)) && plain.contains(point(-5, -10)))
        #expect(!plain.contains(point(5.0000001, 0)) && !plain.contains(point(0, -10.0000001)))
        let crossing = box(170, -10, -170, 10)
        #expect(crossing.contains(point(0, 180)) && crossing.contains(point(0, -180)))
        #expect(crossing.contains(point(10, 170)) && crossing.contains(point(-10, -170)))
        #expect(!crossing.contains(point(0, 0)) && !crossing.contains(point(0, 169.9999999)))
        #expect(!crossing.contains(point(10.0000001, 175)))
        for coordinate in [point(0, 175), point(0, -175), point(0, 0), point(9, 179)] {
            #expect(
                crossing.contains(coordinate) == crossing.splitAtAntimeridian().contains { $0.contains(coordinate) })
        }
    }

    @Test("boxes intersect when they share a point, edges included, across the antimeridian too")
    func intersects() {
        let plain = box(0, 0, 10, 10)
        #expect(plain.intersects(box(10, 10, 20, 20)))
        #expect(!plain.intersects(box(10.0000001, 0, 20, 10)))
        #expect(!plain.intersects(box(0, 10.0000001, 10, 20)))
        #expect(plain.intersects(box(2, 2, 3, 3)) && box(2, 2, 3, 3).intersects(plain))
        let crossing = box(170, -10, -170, 10)
        #expect(crossing.intersects(box(175, 0, 176, 1)) && box(175, 0, 176, 1).intersects(crossing))
        #expect(crossing.intersects(box(-175, 0, -160, 1)) && box(-175, 0, -160, 1).intersects(crossing))
        #expect(!crossing.intersects(box(-169, 0, 169, 1)) && !box(-169, 0, 169, 1).intersects(crossing))
        #expect(crossing.intersects(box(160, 5, -160, 20)))
        #expect(!crossing.intersects(box(160, 11, -160, 20)))
        #expect(crossing.intersects(.world) && GeoBox.world.intersects(crossing))
    }

    @Test("intersecting agrees with intersecting one of the parts of each box")
    func intersectsAgreesWithParts() {
        let edges: [Double] = [-180, -170, -1, 0, 1, 170, 180]
        let boxes = edges.flatMap { west in edges.map { east in box(west, -1, east, 1) } }
        for a in boxes {
            for b in boxes {
                let byParts = a.splitAtAntimeridian().contains { part in
                    b.splitAtAntimeridian().contains(where: part.intersects)
                }
                #expect(a.intersects(b) == byParts, "\(a) and \(b)")
            }
        }
    }

    @Test("the centre lies halfway, across the antimeridian for a box that crosses it")
    func center() {
        #expect(box(10, 20, 30, 40).center == point(30, 20))
        #expect(box(170, -10, -170, 10).center == point(0, 180))
        #expect(box(160, -10, -170, 10).center == point(0, 175))
        #expect(box(170, -10, -160, 10).center == point(0, -175))
        #expect(GeoBox.world.center == point(0, 0))
    }

    @Test("the centre of a box with edges off the Earth is clamped onto it")
    func centerOffTheEarth() {
        #expect(GeoBox(westE7: 0, southE7: .max, eastE7: 0, northE7: .max).center.latitudeE7 == 900_000_000)
        #expect(GeoBox(westE7: .min, southE7: .min, eastE7: .min, northE7: .min).center == point(-90, -180))
    }
}
