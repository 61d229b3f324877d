import Foundation
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@testable import SpotReport

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The figures of one category as a format carries them: the count, the share and each
/// attribute's count and share, as text ("88 0.9778").
struct CategoryFigures: Equatable, CustomStringConvertible {
    var count: Int
    var share: String
    var attributes: [String: String]
    var description: String { "\(count) \(share) \(attributes.sorted { $0.key < $1.key })" }
}

/// The figures a format carries, read back from its text.
struct CarriedFigures: Equatable {
    /// Categories in order; "" for spots without a category.
    var categories: [String] = []
    var byCategory: [String: CategoryFigures] = [:]
    /// Result types in order, with their figures.
    var resultTypes: [String] = []
    var byResultType: [String: CategoryFigures] = [:]
    /// With a diff: before and after per category, in order.
    var changes: [String] = []
    /// With a diff: before and after per result type, in order.
    var resultTypeChanges: [String] = []
}

@Suite("Report formats")
struct FormatTests {
    /// Reports whose figures every format must carry alike: with spots without a category, with
    /// a category removed, and against itself.
    static let cases: [(String, String?)] = [
        (Fixtures.sampleKeepAll, nil), (Fixtures.sampleWithoutCafes, Fixtures.sample),
        (Fixtures.sampleKeepAll, Fixtures.sample),
    ]

    static func fromModel(_ report: Report) -> CarriedFigures {
        func figures(_ row: some CoverageRow) -> CategoryFigures {
            CategoryFigures(
                count: row.coverage.count, share: Figures.fraction(report.coverage.share(of: row)),
                attributes: Dictionary(
                    uniqueKeysWithValues: SpotAttribute.allCases.map {
                        (
                            $0.rawValue,
                            "\(row.coverage.count(with: $0)) \(Figures.fraction(row.coverage.share(with: $0)))"
                        )
                    }))
        }
        var carried = CarriedFigures()
        for row in report.coverage.categories {
            let key = row.category?.rawValue ?? ""
            carried.categories.append(key)
            carried.byCategory[key] = figures(row)
        }
        for row in report.coverage.resultTypes {
            carried.resultTypes.append(row.resultType.rawValue)
            carried.byResultType[row.resultType.rawValue] = figures(row)
        }
        carried.changes =
            report.diff?.categories.map { "\($0.category?.rawValue ?? "") \($0.before) \($0.after)" } ?? []
        carried.resultTypeChanges =
            report.diff?.resultTypes.map { "\($0.resultType.rawValue) \($0.before) \($0.after)" } ?? []
        return carried
    }

    /// The figures of a JSON category or result type object.
    static func figures(_ row: [String: Any]) throws -> CategoryFigures {
        let attributes = try #require(row["attributes"] as? [String: [String: NSNumber]])
        return CategoryFigures(
            count: try #require(row["count"] as? Int), share: share(row["share"]),
            attributes: attributes.mapValues { "\($0["count"]!.intValue) \(share($0["share"]))" })
    }

    static func fromJSON(_ text: String) throws -> CarriedFigures {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var figures = CarriedFigures()
        for row in try #require(root["categories"] as? [[String: Any]]) {
            let key = row["category"] as? String ?? ""
            #expect(key != "" || row["category"] is NSNull)
            figures.categories.append(key)
            figures.byCategory[key] = try Self.figures(row)
        }
        for row in try #require(root["result_types"] as? [[String: Any]]) {
            let key = try #require(row["result_type"] as? String)
            figures.resultTypes.append(key)
            figures.byResultType[key] = try Self.figures(row)
        }
        if let diff = root["diff"] as? [String: Any] {
            figures.changes = try #require(diff["categories"] as? [[String: Any]]).map {
                "\($0["category"] as? String ?? "") \($0["before"] as! Int) \($0["after"] as! Int)"
            }
            figures.resultTypeChanges = try #require(diff["result_types"] as? [[String: Any]]).map {
                "\($0["result_type"] as! String) \($0["before"] as! Int) \($0["after"] as! Int)"
            }
        }
        return figures
    }

    static func share(_ value: Any?) -> String { String(format: "%.4f", (value as? NSNumber)?.doubleValue ?? .nan) }

    static func fromCSV(_ text: String) throws -> CarriedFigures {
        let records = try parseCSV(text)
        let header = try #require(records.first)
        var figures = CarriedFigures()
        for record in records.dropFirst() {
            #expect(record.count == header.count)
            let field = Dictionary(uniqueKeysWithValues: zip(header, record))
            let resultType = field["result_type"]!
            let key = resultType.isEmpty ? field["category"]! : resultType
            let count = try #require(Int(field["count"]!))
            // An unreached category with spots in neither index: not in the model's lists.
            if count == 0 && field["unreached"] == "true" && (field["before"] ?? "0") == "0" { continue }
            if let before = field["before"] {
                if resultType.isEmpty {
                    figures.changes.append("\(key) \(before) \(count)")
                } else {
                    figures.resultTypeChanges.append("\(key) \(before) \(count)")
                }
                #expect(Int(field["change"]!) == count - Int(before)!)
                if count == 0 { continue }  // a category or result type only the older index has
            }
            let carried = CategoryFigures(
                count: count, share: field["share"]!,
                attributes: Dictionary(
                    uniqueKeysWithValues: SpotAttribute.allCases.map {
                        ($0.rawValue, "\(field[$0.rawValue]!) \(field[$0.rawValue + "_share"]!)")
                    }))
            if resultType.isEmpty {
                figures.categories.append(key)
                figures.byCategory[key] = carried
            } else {
                figures.resultTypes.append(key)
                figures.byResultType[key] = carried
            }
        }
        return figures
    }

    static func html(_ text: String) throws -> XMLDocument {
        try XMLDocument(data: Data(text.utf8), options: [])
    }

    static func attribute(_ node: XMLNode, _ name: String) -> String? {
        (node as? XMLElement)?.attribute(forName: name)?.stringValue
    }

    /// The figures of a row of the HTML completeness tables.
    static func figures(_ row: XMLNode) throws -> CategoryFigures {
        var attributes: [String: String] = [:]
        for cell in try row.nodes(forXPath: "td[@data-attribute]") {
            attributes[attribute(cell, "data-attribute")!] =
                "\(attribute(cell, "data-count")!) \(attribute(cell, "data-share")!)"
        }
        return CategoryFigures(
            count: try #require(Int(attribute(row, "data-count") ?? "")), share: attribute(row, "data-share") ?? "",
            attributes: attributes)
    }

    static func fromHTML(_ text: String) throws -> CarriedFigures {
        let document = try html(text)
        var figures = CarriedFigures()
        for row in try document.nodes(forXPath: "//table[@id='completeness-table']/tbody/tr") {
            let key = try #require(attribute(row, "data-category"))
            figures.categories.append(key)
            figures.byCategory[key] = try Self.figures(row)
        }
        for row in try document.nodes(forXPath: "//table[@id='result-types-table']/tbody/tr") {
            let key = try #require(attribute(row, "data-result-type"))
            figures.resultTypes.append(key)
            figures.byResultType[key] = try Self.figures(row)
        }
        let bars = try document.nodes(forXPath: "//svg[@class='bars']/g")
        #expect(
            bars.map { attribute($0, "data-category") ?? "?" } == figures.categories,
            "the bar chart has the table's categories")
        #expect(
            bars.map { Int(attribute($0, "data-count") ?? "") }
                == figures.categories.map { figures.byCategory[$0]?.count })
        figures.changes = try document.nodes(forXPath: "//table[@id='diff-categories']/tbody/tr").map {
            "\(attribute($0, "data-category")!) \(attribute($0, "data-before")!) \(attribute($0, "data-after")!)"
        }
        figures.resultTypeChanges = try document.nodes(forXPath: "//table[@id='diff-result-types']/tbody/tr").map {
            "\(attribute($0, "data-result-type")!) \(attribute($0, "data-before")!) \(attribute($0, "data-after")!)"
        }
        return figures
    }

    @Test(
        "JSON, CSV and HTML carry the model's figures, category by category and result type by result type",
        arguments: 0..<cases.count)
    func sameFigures(_ number: Int) throws {
        let report = try Fixtures.report(Self.cases[number].0, against: Self.cases[number].1)
        let expected = Self.fromModel(report)
        #expect(try Self.fromJSON(ReportFormat.json.render(report)) == expected)
        #expect(try Self.fromCSV(ReportFormat.csv.render(report)) == expected)
        #expect(try Self.fromHTML(ReportFormat.html.render(report)) == expected)
        let text = ReportFormat.text.render(report)
        for row in report.coverage.categories {
            #expect(
                text.split(separator: "\n").contains {
                    $0.hasPrefix("  \(row.name) ") && $0.split(separator: " ").contains("\(row.coverage.count)")
                }, "\(row.name)")
        }
    }

    @Test("totals, the to-do list, languages, the grid and the diff agree between JSON and HTML")
    func sameTotals() throws {
        let report = try Fixtures.report(Fixtures.sampleWithoutCafes, against: Fixtures.sample)
        let coverage = report.coverage
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(report).utf8)) as? [String: Any])
        let document = try Self.html(ReportFormat.html.render(report))
        func keyed(_ table: String, _ key: String, _ value: String) throws -> [String: Int] {
            Dictionary(
                uniqueKeysWithValues: try document.nodes(forXPath: "//table[@id='\(table)']//tr[@\(key)]").map {
                    (Self.attribute($0, key)!, Int(Self.attribute($0, value)!)!)
                })
        }
        let totals = try keyed("totals-table", "data-key", "data-value")
        #expect(json["total"] as? Int == coverage.total && totals["total"] == coverage.total)
        #expect(
            json["merged_duplicates"] as? Int == coverage.mergedDuplicates
                && totals["merged_duplicates"] == coverage.mergedDuplicates)
        let types = try #require(json["by_osm_type"] as? [String: Int])
        for type in OSMType.allCases {
            #expect(types[type.name] == coverage.count(of: type) && totals[type.name] == coverage.count(of: type))
        }
        for dropped in try #require(json["dropped"] as? [[String: Any]]) {
            #expect(totals["dropped:\(dropped["stage"]!):\(dropped["reason"]!)"] == dropped["count"] as? Int)
        }
        // The selecting tags by reason: unmapped, uncategorized and excluded alike.
        for (reason, tallies) in coverage.byTag {
            let tags = try #require(json[reason] as? [[String: Any]], "\(reason)")
            #expect(tags.map { "\($0["tag"]!) \($0["count"]!)" } == tallies.map { "\($0.key) \($0.count)" })
            #expect(
                try keyed("\(reason)-table", "data-tag", "data-count")
                    == Dictionary(uniqueKeysWithValues: tallies.map { ($0.key, $0.count) }), "\(reason)")
        }
        let languages = try #require(json["languages"] as? [[String: Any]])
        #expect(
            languages.map { "\($0["language"]!) \($0["count"]!)" } == coverage.languages.map { "\($0.key) \($0.count)" }
        )
        #expect(
            try keyed("languages-table", "data-language", "data-count")
                == Dictionary(uniqueKeysWithValues: coverage.languages.map { ($0.key, $0.count) }))
        let grid = try #require((json["where"] as? [String: Any])?["grid"] as? [String: Any])
        let counts = try #require(grid["counts"] as? [[Int]])
        #expect(counts.joined().reduce(0, +) == coverage.total)
        // The map: a dot per spot, coloured by its category's group.
        let dots = try document.nodes(forXPath: "//svg[@class='map']/circle").map { Self.attribute($0, "class") ?? "" }
        #expect(dots.count == coverage.total)
        #expect(
            Dictionary(grouping: dots, by: { $0 }).mapValues(\.count)
                == Dictionary(grouping: coverage.points, by: { "dot-" + $0.group.rawValue }).mapValues(\.count))

        let diff = try #require(report.diff)
        let jsonDiff = try #require(json["diff"] as? [String: Any])
        let htmlDiff = try keyed("diff-totals", "data-key", "data-value")
        for (key, value) in [
            ("added", diff.references.added), ("removed", diff.references.removed), ("moved", diff.references.moved),
        ] {
            #expect(jsonDiff[key] as? Int == value && htmlDiff[key] == value, "\(key)")
        }
        let warnings = try #require(jsonDiff["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["category"] as? String } == ["cafe"])
        #expect(
            try document.nodes(forXPath: "//li[@class='warning']").map { Self.attribute($0, "data-category") } == [
                "cafe"
            ])
    }

    @Test("the JSON has the documented keys and schema version")
    func jsonSchema() throws {
        let report = try Fixtures.report(Fixtures.sampleWithoutCafes, against: Fixtures.sample)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(report).utf8)) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "schema_version", "index", "total", "by_osm_type", "merged_duplicates", "dropped", "attributes",
                "categories", "result_types", "unmapped", "uncategorized", "excluded", "languages", "where", "diff",
            ])
        let index = try #require(json["index"] as? [String: Any])
        #expect(
            Set(index.keys) == [
                "file", "generator", "build_time", "inputs", "select", "addresses", "unreached_categories",
            ])
        let resultType = try #require((json["result_types"] as? [[String: Any]])?.first)
        #expect(Set(resultType.keys) == ["result_type", "count", "share", "attributes"])
        #expect(json["schema_version"] as? Int == 2 && ReportFormat.jsonSchemaVersion == 2)
        let category = try #require((json["categories"] as? [[String: Any]])?.first)
        #expect(Set(category.keys) == ["category", "group", "mapkit_category", "count", "share", "attributes"])
        #expect(
            Set((category["attributes"] as? [String: Any])?.keys ?? [:].keys)
                == Set(SpotAttribute.allCases.map(\.rawValue)))
        let diff = try #require(json["diff"] as? [String: Any])
        #expect(
            Set(diff.keys) == [
                "against", "total", "added", "removed", "moved", "moved_threshold_m", "changes", "max_drop",
                "categories", "result_types", "warnings",
            ])
        let typeChange = try #require((diff["result_types"] as? [[String: Any]])?.first)
        #expect(Set(typeChange.keys) == ["result_type", "before", "after", "change", "change_percent"])
        let change = try #require((diff["categories"] as? [[String: Any]])?.first)
        #expect(
            Set(change.keys) == ["category", "group", "mapkit_category", "before", "after", "change", "change_percent"])
        #expect(
            Set(((json["where"] as? [String: Any])?["grid"] as? [String: Any])?.keys ?? [:].keys)
                == ["projection", "columns", "rows", "origin", "cell_size", "counts"])
        let without = try #require(
            try JSONSerialization.jsonObject(
                with: Data(ReportFormat.json.render(Fixtures.report(Fixtures.sample)).utf8)) as? [String: Any])
        #expect(without["diff"] == nil)
    }

    @Test("every format gives the same bytes for the same index", arguments: ReportFormat.allCases)
    func deterministic(_ format: ReportFormat) throws {
        let first = try Fixtures.report(Fixtures.sampleWithoutCafes, against: Fixtures.sample)
        let second = try Fixtures.report(Fixtures.sampleWithoutCafes, against: Fixtures.sample)
        #expect(first == second)
        #expect(format.render(first) == format.render(second))
    }

    @Test("the HTML page is self-contained, readable on a phone, well-formed, and escapes text from the data")
    func htmlSelfContainedAndEscaped() throws {
        let hostile = "amenity=<script>alert(\"x\")</script>&'"
        let path = try Fixtures.write(
            [Fixtures.spot(1, .cafe, names: ["en": "<b>"])], metadata: Fixtures.metadata(unmapped: [hostile: 3]))
        let page = ReportFormat.html.render(try Fixtures.report(path, against: path))
        for forbidden in [
            "<script", "<link", "<img", "<iframe", "src=", "http:", "https:", "url(", "@import", "//fonts",
        ] {
            #expect(!page.lowercased().contains(forbidden), "\(forbidden)")
        }
        #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"))
        #expect(page.contains("@media (max-width:600px)"))
        #expect(page.contains("amenity=&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"))
        let document = try Self.html(page)
        let tags = try document.nodes(forXPath: "//table[@id='unmapped-table']/tbody/tr").map {
            Self.attribute($0, "data-tag")
        }
        #expect(tags == [hostile])
        #expect(try document.nodes(forXPath: "//svg").count == 2)
    }

    @Test("CSV is RFC 4180: CRLF line ends, fields with commas, quotes or line breaks quoted")
    func csvQuoting() throws {
        #expect(CSVRenderer.field("cafe") == "cafe")
        #expect(CSVRenderer.field("a,b") == "\"a,b\"")
        #expect(CSVRenderer.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVRenderer.field("two\nlines") == "\"two\nlines\"")
        let text = ReportFormat.csv.render(try Fixtures.report(Fixtures.sample))
        #expect(text.hasSuffix("\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(try parseCSV(text).first?.prefix(5) == ["category", "group", "mapkit_category", "count", "share"])
    }

    @Test("text tables line up, also with wide characters")
    func textAlignment() throws {
        let path = try Fixtures.write(
            [Fixtures.spot(1, .cafe)], metadata: Fixtures.metadata(unmapped: ["amenity=喫茶店": 12, "amenity=kiosk": 3]))
        let text = ReportFormat.text.render(try Fixtures.report(path))
        let todo = text.split(separator: "\n").drop { !$0.hasPrefix("TO DO") }.dropFirst().prefix(2).map(String.init)
        #expect(
            todo.map(TextTable.width) == [todo[0], todo[0]].map(TextTable.width), "rows of equal display width: \(todo)"
        )
        #expect(todo.allSatisfy { $0.hasSuffix("12") || $0.hasSuffix(" 3") })
        let table = TextTable(
            header: ["a", "count"], alignments: [.left, .right], rows: [["カフェ", "1"], ["bar", "100"]])
        #expect(table.lines == ["  a       count", "  カフェ      1", "  bar       100"])
    }
}
