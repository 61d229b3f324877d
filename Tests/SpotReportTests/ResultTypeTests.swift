import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotReport

@Suite("Result types and the selection in reports")
struct ResultTypeTests {
    /// Pipeline settings that select `amenity` and `shop` and make address points, leaving two
    /// categories unreached.
    static let settings = IndexMetadata.PipelineSettings(
        file: nil, sha256: nil, exclude: [], keepAll: false,
        dedupe: .init(enabled: false, radius: 0, radiusByCategory: [:]), select: ["amenity", "shop"], addresses: true,
        unreachedCategories: ["airport", "bakery"])

    /// An address point: no category, type address.
    static func addressPoint(_ id: Int64, street: String? = nil) -> Spot {
        var spot = Fixtures.spot(
            id, nil, kind: "*", address: ["housenumber": "\(id)"].merging(street.map { ["street": $0] } ?? [:]) { $1 })
        spot.tagKey = "addr:housenumber"
        spot.resultType = .address
        return spot
    }

    /// Three points of interest (two with a name) and two address points (one with a street).
    static func index(addresses: Bool = true, settings: IndexMetadata.PipelineSettings? = settings) throws -> String {
        var metadata = Fixtures.metadata()
        metadata.pipeline = settings
        let places = [
            Fixtures.spot(1, .cafe, name: "A"), Fixtures.spot(2, .cafe, name: "B"), Fixtures.spot(3, .bank),
        ]
        return try Fixtures.write(
            places + (addresses ? [addressPoint(4, street: "Aleksanterinkatu"), addressPoint(5)] : []),
            metadata: metadata)
    }

    static func json(_ report: Report) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(report).utf8)) as? [String: Any])
    }

    @Test("coverage is given per result type, as per category")
    func coverageByResultType() throws {
        let coverage = try Fixtures.report(try Self.index()).coverage
        #expect(coverage.resultTypes.map(\.resultType) == [.pointOfInterest, .address])
        #expect(coverage.resultTypes.map(\.coverage.count) == [3, 2])
        #expect(coverage.resultTypes.map { $0.coverage.count(with: .name) } == [2, 0])
        #expect(coverage.resultTypes.map { $0.coverage.count(with: .address) } == [0, 2])
        #expect(coverage.resultTypes.map { coverage.share(of: $0) } == [0.6, 0.4])
        #expect(coverage.categories.first { $0.category == nil }?.coverage.count == 2, "address points: (none)")
        let selection = try #require(coverage.index.selection)
        #expect(selection.keys == ["amenity", "shop"] && selection.addresses)
        #expect(selection.unreachedCategories == ["airport", "bakery"])
    }

    @Test("the JSON has the result types, the selection and the unreached categories")
    func json() throws {
        let json = try Self.json(try Fixtures.report(try Self.index()))
        let types = try #require(json["result_types"] as? [[String: Any]])
        #expect(types.map { $0["result_type"] as? String } == ["pointOfInterest", "address"])
        #expect(types.map { $0["count"] as? Int } == [3, 2])
        #expect(types.map { FormatTests.share($0["share"]) } == ["0.6000", "0.4000"])
        let address = try FormatTests.figures(types[1])
        #expect(address.attributes["address"] == "2 1.0000" && address.attributes["name"] == "0 0.0000")
        let index = try #require(json["index"] as? [String: Any])
        #expect(index["select"] as? [String] == ["amenity", "shop"])
        #expect(index["addresses"] as? Bool == true)
        #expect(index["unreached_categories"] as? [String] == ["airport", "bakery"])
    }

    @Test("an index that records no pipeline has a null selection, and no selection lines")
    func withoutPipeline() throws {
        let report = try Fixtures.report(try Self.index(settings: nil))
        let index = try #require(try Self.json(report)["index"] as? [String: Any])
        #expect(index["select"] is NSNull && index["addresses"] is NSNull && index["unreached_categories"] is NSNull)
        let text = ReportFormat.text.render(report)
        #expect(!text.contains("select:") && !text.contains("unreached:"))
        #expect(!ReportFormat.html.render(report).contains("id=\"selection\""))
        let csv = try parseCSV(ReportFormat.csv.render(report))
        #expect(csv.dropFirst().allSatisfy { $0.last == "" }, "no unreached flag without a selection")
    }

    @Test("the text report shows the selection, the unreached categories and a table of result types")
    func text() throws {
        let lines = ReportFormat.text.render(try Fixtures.report(try Self.index())).split(separator: "\n")
        #expect(lines.contains("  select: amenity, shop, and address points"))
        #expect(lines.contains("  unreached: 2 categories no rule reaches: airport, bakery"))
        let section = lines.drop { !$0.hasPrefix("RESULT TYPES") }.prefix(4).map(String.init)
        #expect(section.first == "RESULT TYPES (2; attribute columns: share of the type's spots)")
        #expect(section.dropFirst().first?.split(separator: " ").prefix(4) == ["result", "type", "count", "share"])
        #expect(
            section.dropFirst(2).map { Array($0.split(separator: " ").prefix(5)) } == [
                ["pointOfInterest", "3", "60.0%", "66.7%", "0.0%"], ["address", "2", "40.0%", "0.0%", "100.0%"],
            ])
    }

    @Test("CSV and HTML carry the selection and the unreached categories")
    func csvAndHTML() throws {
        let report = try Fixtures.report(try Self.index())
        let records = try parseCSV(ReportFormat.csv.render(report))
        let header = try #require(records.first)
        let rows: [[String: String]] = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(
            rows.filter { $0["unreached"] == "true" }.map { "\($0["category"]!) \($0["count"]!)" } == [
                "airport 0", "bakery 0",
            ])
        #expect(
            rows.filter { $0["result_type"] != "" }.map { "\($0["result_type"]!) \($0["count"]!)" } == [
                "pointOfInterest 3", "address 2",
            ])
        let document = try FormatTests.html(ReportFormat.html.render(report))
        let selection = try #require(try document.nodes(forXPath: "//p[@id='selection']").first)
        #expect(FormatTests.attribute(selection, "data-select") == "amenity,shop")
        #expect(FormatTests.attribute(selection, "data-addresses") == "true")
        #expect(FormatTests.attribute(selection, "data-unreached") == "airport,bakery")
        #expect(selection.stringValue?.contains("2 categories no rule reaches: airport, bakery") == true)
    }

    @Test("the diff counts each result type before and after")
    func diff() throws {
        let report = try Fixtures.report(try Self.index(), against: try Self.index(addresses: false))
        let diff = try #require(report.diff)
        #expect(
            diff.resultTypes.map { "\($0.resultType.rawValue) \($0.before) \($0.after)" } == [
                "pointOfInterest 3 3", "address 0 2",
            ])
        #expect(!diff.isEmpty && diff.warnings.isEmpty)
        let jsonDiff = try #require(try Self.json(report)["diff"] as? [String: Any])
        let types = try #require(jsonDiff["result_types"] as? [[String: Any]])
        #expect(types.map { "\($0["result_type"]!) \($0["change"]!)" } == ["pointOfInterest 0", "address 2"])
        #expect(types.last?["change_percent"] is NSNull)
        // The text lists the result types that changed, as it does the categories.
        let changes = ReportFormat.text.render(report).split(separator: "\n").drop { !$0.hasPrefix("CHANGES") }
            .map { $0.split(separator: " ").map(String.init) }
        #expect(changes.contains(["result", "type", "before", "after", "change", "change", "%"]))
        #expect(changes.contains(["address", "0", "2", "+2", "new"]))
        #expect(!changes.contains { $0.first == "pointOfInterest" })
        #expect(try Fixtures.report(try Self.index(), against: try Self.index()).diff?.isEmpty == true)
    }
}
