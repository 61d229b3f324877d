import Foundation
import SpotIndex
import Spots
import Testing

@testable import SpotReport

@Suite("The coverage report")
struct CoverageTests {
    @Test(
        "per-category counts add up to the total, as do the counts by OSM type",
        arguments: [Fixtures.sample, Fixtures.sampleKeepAll])
    func countsAddUp(path: String) throws {
        let report = try Fixtures.report(path).coverage
        let index = try SpotIndexReader(path: path)
        #expect(report.total == index.count)
        #expect(report.categories.reduce(0) { $0 + $1.coverage.count } == report.total)
        #expect(OSMType.allCases.reduce(0) { $0 + report.count(of: $1) } == report.total)
        #expect(abs(report.categories.reduce(0) { $0 + report.share(of: $1) } - 1) < 1e-9)
        for attribute in SpotAttribute.allCases {
            #expect(
                report.categories.reduce(0) { $0 + $1.coverage.count(with: attribute) }
                    == report.overall.count(with: attribute), "\(attribute)")
        }
    }

    @Test("the report agrees with a reading of every spot of the index")
    func agreesWithEverySpot() throws {
        let index = try SpotIndexReader(path: Fixtures.sampleKeepAll)
        let report = try Fixtures.report(Fixtures.sampleKeepAll).coverage
        var counts: [String: Int] = [:]
        var withName: [String: Int] = [:]
        var withAddress: [String: Int] = [:]
        var withPhone: [String: Int] = [:]
        var withWebsite: [String: Int] = [:]
        var withHours: [String: Int] = [:]
        var withNames: [String: Int] = [:]
        var languages: [String: Int] = [:]
        var merged = 0
        var latitudes: [Int32] = []
        var longitudes: [Int32] = []
        for position in 0..<index.count {
            let spot = try index.spot(at: position)
            let key = spot.category?.rawValue ?? "(none)"
            counts[key, default: 0] += 1
            if spot.name != nil { withName[key, default: 0] += 1 }
            if !spot.address.isEmpty { withAddress[key, default: 0] += 1 }
            if spot.details[.phone] != nil { withPhone[key, default: 0] += 1 }
            if spot.details[.website] != nil { withWebsite[key, default: 0] += 1 }
            if spot.details[.openingHours] != nil { withHours[key, default: 0] += 1 }
            if !spot.names.isEmpty { withNames[key, default: 0] += 1 }
            for language in spot.names.keys { languages[language, default: 0] += 1 }
            merged += spot.merged.count
            latitudes.append(spot.coordinate.latitudeE7)
            longitudes.append(spot.coordinate.longitudeE7)
        }
        #expect(Dictionary(uniqueKeysWithValues: report.categories.map { ($0.name, $0.coverage.count) }) == counts)
        #expect(counts["(none)", default: 0] > 0, "the keep-all sample has spots without a category")
        for row in report.categories {
            #expect(row.coverage.count(with: .name) == withName[row.name, default: 0], "\(row.name)")
            #expect(row.coverage.count(with: .address) == withAddress[row.name, default: 0], "\(row.name)")
            #expect(row.coverage.count(with: .phone) == withPhone[row.name, default: 0], "\(row.name)")
            #expect(row.coverage.count(with: .website) == withWebsite[row.name, default: 0], "\(row.name)")
            #expect(row.coverage.count(with: .openingHours) == withHours[row.name, default: 0], "\(row.name)")
            #expect(row.coverage.count(with: .localizedNames) == withNames[row.name, default: 0], "\(row.name)")
        }
        #expect(Dictionary(uniqueKeysWithValues: report.languages.map { ($0.key, $0.count) }) == languages)
        #expect(report.mergedDuplicates == merged)
        let extent = try #require(report.extent)
        #expect(
            [extent.westE7, extent.southE7, extent.eastE7, extent.northE7]
                == [longitudes.min(), latitudes.min(), longitudes.max(), latitudes.max()])
        #expect(try index.metadata().bbox == extent)
    }

    @Test("dropped counts and the to-do list come from the build's stage statistics")
    func droppedAndUnmapped() throws {
        let report = try Fixtures.report(Fixtures.sample).coverage
        let metadata = try SpotIndexReader(path: Fixtures.sample).metadata()
        #expect(
            report.unmapped.map(\.key) == [
                "amenity=embassy", "amenity=courthouse", "amenity=coworking_space", "amenity=public_building",
                "amenity=tickets",
            ])
        #expect(
            Dictionary(uniqueKeysWithValues: report.unmapped.map { ($0.key, $0.count) })
                == metadata.tagCounts("unmapped"))
        let unmappedDropped = report.dropped.first { $0.stage == "categorize" && $0.reason == "unmapped" }?.count
        #expect(unmappedDropped == report.unmapped.reduce(0) { $0 + $1.count })
        #expect(report.dropped.contains(DroppedCount(stage: "select", reason: "excluded", count: 389)))
        // Excluded and uncategorized spots are broken down by tag as unmapped ones are.
        for (reason, stage, tallies) in [
            ("excluded", "select", report.excluded), ("uncategorized", "categorize", report.uncategorized),
        ] {
            #expect(!tallies.isEmpty, "\(reason)")
            #expect(Dictionary(uniqueKeysWithValues: tallies.map { ($0.key, $0.count) }) == metadata.tagCounts(reason))
            let dropped = report.dropped.first { $0.stage == stage && $0.reason == reason }?.count
            #expect(dropped == tallies.reduce(0) { $0 + $1.count }, "\(reason)")
            #expect(zip(tallies, tallies.dropFirst()).allSatisfy { $0.count >= $1.count }, "most first")
        }
        // The dedupe stage counts its merges by rule; together they are the merged references.
        let merged = report.dropped.filter { $0.stage == "dedupe" }.reduce(0) { $0 + $1.count }
        #expect(merged == report.mergedDuplicates)
        #expect(
            report.dropped.map { "\($0.stage) \($0.reason)" }
                == [
                    "read missing_nodes", "read not_multipolygons", "select excluded", "categorize uncategorized",
                    "categorize unmapped", "dedupe exact_name",
                ])
        #expect(report.dropped.contains(DroppedCount(stage: "read", reason: "missing_nodes", count: 10)))
    }

    @Test("categories are sorted by count, then name; MapKit categories, extensions and none are told apart")
    func categoryOrderAndGroups() throws {
        let path = try Fixtures.write([
            Fixtures.spot(1, .cafe), Fixtures.spot(2, .cafe), Fixtures.spot(3, .artwork), Fixtures.spot(4, .bank),
            Fixtures.spot(5, nil, kind: "embassy"), Fixtures.spot(6, .viewpoint), Fixtures.spot(7, .viewpoint),
        ])
        let report = try Fixtures.report(path).coverage
        #expect(report.categories.map(\.name) == ["cafe", "viewpoint", "(none)", "artwork", "bank"])
        #expect(report.categories.map(\.group) == [.mapKit, .spotsExtension, .none, .spotsExtension, .mapKit])
        #expect(
            CategoryGroup(.cafe) == .mapKit && CategoryGroup(.placeOfWorship) == .spotsExtension
                && CategoryGroup(nil) == .none)
    }

    @Test("attributes count as docs/outputs.md describes them: any addr:*, any name:xx, the detail tags")
    func attributeRules() throws {
        let path = try Fixtures.write([
            Fixtures.spot(
                1, .cafe, name: "A", names: ["en": "A", "ja": "エー"], address: ["city": "Helsinki"],
                details: [.phone: "+358", .website: "https://a.example", .openingHours: "24/7", .cuisine: "coffee"]),
            Fixtures.spot(2, .cafe, address: ["postcode": "00100"], details: [.cuisine: "coffee"]),
            Fixtures.spot(3, .cafe, names: ["fi": "B"]),
        ])
        let cafe = try #require(try Fixtures.report(path).coverage.categories.first)
        #expect(SpotAttribute.allCases.map { cafe.coverage.count(with: $0) } == [1, 2, 1, 1, 1, 2])
        #expect(cafe.coverage.share(with: .address) == 2.0 / 3)
        let languages = try Fixtures.report(path).coverage.languages
        #expect(languages == [Tally(key: "en", count: 1), Tally(key: "fi", count: 1), Tally(key: "ja", count: 1)])
    }

    @Test("the density grid holds every spot in square Web Mercator cells, north row first")
    func densityGrid() throws {
        // A box twice as tall as wide in Web Mercator near the equator: 8 columns by 16 rows.
        let spots = [
            Fixtures.spot(1, .cafe, latitude: 0, longitude: 0),
            Fixtures.spot(2, .cafe, latitude: 0.02, longitude: 0.01),
            Fixtures.spot(3, .cafe, latitude: 0.02, longitude: 0),
            Fixtures.spot(4, .cafe, latitude: 0.0105, longitude: 0.0055),
        ]
        let grid = try #require(try Fixtures.report(try Fixtures.write(spots)).coverage.grid)
        #expect((grid.columns, grid.rows) == (8, 16))
        #expect(grid.counts.reduce(0, +) == 4)
        #expect(grid.count(column: 7, row: 0) == 1, "north-east corner")
        #expect(grid.count(column: 0, row: 0) == 1, "north-west corner")
        #expect(grid.count(column: 0, row: 15) == 1, "south-west corner")
        #expect(grid.count(column: 4, row: 7) == 1, "inside: 4.4 columns east, 7.6 rows south")
        let north = grid.bounds(column: 0, row: 0).north
        #expect(abs(north - 0.02) < 1e-9)
        let single = try #require(try Fixtures.report(try Fixtures.write([Fixtures.spot(1, .cafe)])).coverage.grid)
        #expect((single.columns, single.rows, single.counts) == (1, 1, [1]))
    }

    @Test("an empty index gives a report in every format, with no extent")
    func emptyIndex() throws {
        let report = try Fixtures.report(try Fixtures.write([]))
        #expect(
            report.coverage.total == 0 && report.coverage.categories.isEmpty && report.coverage.extent == nil
                && report.coverage.grid == nil)
        for format in ReportFormat.allCases { #expect(!format.render(report).isEmpty) }
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(report).utf8)) as? [String: Any])
        #expect((json["where"] as? [String: Any])?["bbox"] is NSNull)
    }
}
