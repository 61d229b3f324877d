import Spots
import Testing

@Suite("Coordinate")
struct CoordinateTests {
    @Test(
        "decimalString writes exactly seven decimals with no floating-point rounding",
        arguments: [
            (0, "0.0000000"), (-1, "-0.0000001"), (1, "0.0000001"), (1_800_000_000, "180.0000000"),
            (-1_800_000_000, "-180.0000000"), (900_000_000, "90.0000000"), (601_699_000, "60.1699000"),
            (-9_999_999, "-0.9999999"), (10_000_000, "1.0000000"), (-10_000_001, "-1.0000001"),
            (Int32.max, "214.7483647"), (123_456_789, "12.3456789"),
        ] as [(Int32, String)])
    func decimalString(value: Int32, expected: String) {
        #expect(Coordinate.decimalString(value) == expected)
    }

    @Test("decimalString of Int32.min does not trap on negation")
    func decimalStringOfInt32Min() {
        #expect(Coordinate.decimalString(Int32.min) == "-214.7483648")
    }

    @Test("decimalString parses back to the same fixed-point value for many values")
    func decimalStringRoundTrips() {
        var value: Int64 = -2_147_483_648
        while value <= 2_147_483_647 {
            let text = Coordinate.decimalString(Int32(value))
            let parts = text.split(separator: ".")
            #expect(parts.count == 2)
            #expect(parts[1].count == 7)
            let negative = text.hasPrefix("-")
            let whole = Int64(parts[0].drop { $0 == "-" })!
            let fraction = Int64(parts[1])!
            let parsed = (whole * 10_000_000 + fraction) * (negative ? -1 : 1)
            #expect(parsed == value)
            #expect(!(negative && parsed == 0), "no negative zero")
            value += 9_999_991
        }
    }

    @Test("init accepts coordinates up to and including the poles and the antimeridian")
    func acceptsLimits() throws {
        for (lat, lon) in [
            (Int32(900_000_000), Int32(1_800_000_000)), (-900_000_000, -1_800_000_000),
            (900_000_000, -1_800_000_000), (0, 0), (-900_000_000, 1_800_000_000),
        ] {
            let coordinate = try #require(Coordinate(latitudeE7: lat, longitudeE7: lon))
            #expect(coordinate.latitudeE7 == lat)
            #expect(coordinate.longitudeE7 == lon)
        }
    }

    @Test(
        "init rejects a latitude beyond 90 degrees or a longitude beyond 180 degrees",
        arguments: [
            (900_000_001, 0), (-900_000_001, 0), (0, 1_800_000_001), (0, -1_800_000_001),
            (Int32.min, 0), (Int32.max, 0), (0, Int32.min), (0, Int32.max), (Int32.min, Int32.min),
        ] as [(Int32, Int32)])
    func rejectsOutOfRange(lat: Int32, lon: Int32) {
        #expect(Coordinate(latitudeE7: lat, longitudeE7: lon) == nil)
    }

    @Test("latitude and longitude in degrees are the fixed-point values divided by 10^7")
    func degrees() throws {
        let coordinate = try #require(Coordinate(latitudeE7: 601_699_000, longitudeE7: -249_384_000))
        #expect(coordinate.latitude == 60.1699)
        #expect(coordinate.longitude == -24.9384)
    }
}

@Suite("OSMRef")
struct OSMRefTests {
    @Test("types order node < way < relation")
    func typeOrder() {
        #expect(OSMType.node < .way)
        #expect(OSMType.way < .relation)
        #expect(OSMType.node < .relation)
        #expect(OSMType.allCases == [.node, .way, .relation])
        #expect(OSMType.allCases.map(\.name) == ["node", "way", "relation"])
        #expect(OSMType.allCases.map(\.letter) == ["n", "w", "r"])
    }

    @Test("references sort by type first, then by id, negative ids first")
    func refOrder() {
        let sorted = [
            OSMRef(.node, Int64.min), OSMRef(.node, -1), OSMRef(.node, 0), OSMRef(.node, 5), OSMRef(.node, Int64.max),
            OSMRef(.way, -5), OSMRef(.way, 1), OSMRef(.relation, -100), OSMRef(.relation, 2),
        ]
        #expect(sorted.reversed().sorted() == sorted)
        #expect(OSMRef(.node, 999) < OSMRef(.way, 1))
        #expect(OSMRef(.way, 999) < OSMRef(.relation, -999))
        #expect(!(OSMRef(.way, 3) < OSMRef(.way, 3)))
        #expect(OSMRef(.way, -5) < OSMRef(.way, -4))
    }

    @Test("description is the type letter followed by the id")
    func description() {
        #expect(OSMRef(.node, 123).description == "n123")
        #expect(OSMRef(.way, -5).description == "w-5")
        #expect(OSMRef(.relation, 0).description == "r0")
        #expect(OSMRef(.node, Int64.max).description == "n9223372036854775807")
        #expect(OSMRef(.relation, Int64.min).description == "r-9223372036854775808")
    }

    @Test("references are equal only with the same type and id")
    func equality() {
        #expect(OSMRef(.node, 1) == OSMRef(.node, 1))
        #expect(OSMRef(.node, 1) != OSMRef(.way, 1))
        #expect(OSMRef(.node, 1) != OSMRef(.node, -1))
        #expect(Set([OSMRef(.node, 1), OSMRef(.node, 1), OSMRef(.way, 1)]).count == 2)
    }
}

@Suite("Distances")
struct DistanceTests {
    @Test("haversine on the mean Earth radius")
    func haversine() {
        let a = Coordinate(latitudeE7: 0, longitudeE7: 0)!
        let b = Coordinate(latitudeE7: 10_000_000, longitudeE7: 0)!
        #expect(abs(a.distance(to: b) - 111_195.08) < 0.01)
        let west = Coordinate(latitudeE7: 0, longitudeE7: 1_799_999_999)!
        let east = Coordinate(latitudeE7: 0, longitudeE7: -1_799_999_999)!
        #expect(west.distance(to: east) < 0.03)
        #expect(a.distance(to: a) == 0)
    }
}
