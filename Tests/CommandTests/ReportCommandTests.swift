import Foundation
import SpotTestSupport
import Testing

/// Indexes of the sample for the report tests: with the default pipeline, and without cafes.
private struct ReportIndexes {
    let folder: TemporaryFolder
    let sample: String
    let withoutCafes: String

    init() throws {
        folder = try TemporaryFolder()
        sample = folder.path("sample.spots")
        withoutCafes = folder.path("no-cafes.spots")
        let build = try SpotsCLI.run(["build", helsinki, "-o", sample, "-q"])
        try #require(build.status == 0, "build failed: \(build.stderr)")
        // The default pipeline's exclusions, plus every value the category table maps to cafe.
        let defaults = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: SpotsCLI.root.appendingPathComponent("Pipelines/default.json")))
                as? [String: Any])
        let exclude =
            try #require(defaults["exclude"] as? [String]) + [
                "amenity=cafe", "amenity=ice_cream", "amenity=internet_cafe",
            ]
        let pipeline = folder.url.appendingPathComponent("no-cafes.json")
        try JSONSerialization.data(withJSONObject: ["exclude": exclude]).write(to: pipeline)
        let other = try SpotsCLI.run(["build", helsinki, "--pipeline", pipeline.path, "-o", withoutCafes, "-q"])
        try #require(other.status == 0, "build failed: \(other.stderr)")
    }
}

@Suite("spots report")
struct ReportCommandTests {
    @Test("the report of an index agrees with its export: categories, attributes, languages, types, merged, extent")
    func agreesWithExport() throws {
        let indexes = try ReportIndexes()
        defer { indexes.folder.remove() }
        let export = try SpotsCLI.run(["export", indexes.sample])
        try #require(export.status == 0)
        let spots = try export.output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let run = try SpotsCLI.run(["report", indexes.sample, "--format", "json"])
        #expect(run.status == 0 && run.stderr.isEmpty)
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])

        #expect(report["total"] as? Int == spots.count)
        let types = Dictionary(grouping: spots) { $0["osm_type"] as! String }.mapValues(\.count)
        #expect(
            report["by_osm_type"] as? [String: Int] == [
                "node": types["node"] ?? 0, "way": types["way"] ?? 0, "relation": types["relation"] ?? 0,
            ])
        #expect(report["merged_duplicates"] as? Int == spots.reduce(0) { $0 + ($1["merged"] as! [String]).count })

        // Each attribute as the export spells it.
        let present: [String: ([String: Any]) -> Bool] = [
            "name": { !($0["name"] is NSNull) },
            "address": { !($0["address"] as! [String: String]).isEmpty },
            "phone": { !($0["phone"] is NSNull) },
            "website": { !($0["website"] is NSNull) },
            "opening_hours": { !($0["opening_hours"] is NSNull) },
            "localized_names": { !($0["names"] as! [String: String]).isEmpty },
        ]
        let byCategory = Dictionary(grouping: spots) { $0["category"] as? String ?? "" }
        let rows = try #require(report["categories"] as? [[String: Any]])
        #expect(Set(rows.map { $0["category"] as? String ?? "" }) == Set(byCategory.keys))
        #expect(rows.reduce(0) { $0 + ($1["count"] as! Int) } == spots.count)
        for row in rows {
            let name = row["category"] as? String ?? ""
            let members = byCategory[name] ?? []
            #expect(row["count"] as? Int == members.count, "\(name)")
            #expect(row["mapkit_category"] as? String == members.first?["mapkit_category"] as? String, "\(name)")
            let attributes = try #require(row["attributes"] as? [String: [String: Any]])
            for (attribute, test) in present {
                #expect(attributes[attribute]?["count"] as? Int == members.filter(test).count, "\(name) \(attribute)")
            }
        }
        let counts = rows.map { $0["count"] as! Int }
        #expect(counts == counts.sorted(by: >), "categories are sorted by count")

        var languages: [String: Int] = [:]
        for spot in spots {
            for language in (spot["names"] as! [String: String]).keys { languages[language, default: 0] += 1 }
        }
        let reported = try #require(report["languages"] as? [[String: Any]])
        #expect(
            Dictionary(uniqueKeysWithValues: reported.map { ($0["language"] as! String, $0["count"] as! Int) })
                == languages)

        let bbox = try #require((report["where"] as? [String: Any])?["bbox"] as? [Any]).map(sevenDecimals)
        let lats = spots.map { sevenDecimals($0["lat"])! }
        let lons = spots.map { sevenDecimals($0["lon"])! }
        func order(_ values: [String]) -> [String] { values.sorted { Double($0)! < Double($1)! } }
        #expect(bbox == [order(lons).first, order(lats).first, order(lons).last, order(lats).last])
    }

    @Test("against a build without cafes: exit 0, the cafe category flagged in the report and on standard error")
    func flagsRemovedCategory() throws {
        let indexes = try ReportIndexes()
        defer { indexes.folder.remove() }
        let json = try SpotsCLI.run([
            "report", indexes.withoutCafes, "--against", indexes.sample, "--format", "json", "--max-drop", "0.5",
        ])
        #expect(json.status == 0)
        #expect(json.stderr == "spots: warning: cafe fell from 88 to 0 spots (-100.0%), more than the 50.0% allowed\n")
        let diff = try #require(
            (try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])?["diff"] as? [String: Any])
        #expect(diff["added"] as? Int == 0 && diff["removed"] as? Int == 88 && diff["moved"] as? Int == 0)
        #expect((diff["warnings"] as? [[String: Any]])?.map { $0["category"] as? String } == ["cafe"])
        let cafe = (diff["categories"] as? [[String: Any]])?.first { $0["category"] as? String == "cafe" }
        #expect(cafe?["before"] as? Int == 88 && cafe?["after"] as? Int == 0)

        let text = try SpotsCLI.run(["report", indexes.withoutCafes, "--against", indexes.sample])
        #expect(text.status == 0 && text.stderr.isEmpty, "a text report on standard output carries the warning itself")
        #expect(
            text.output.contains("\nwarning: cafe fell from 88 to 0 spots (-100.0%), more than the 20.0% allowed\n"))

        let same = try SpotsCLI.run([
            "report", indexes.sample, "--against", indexes.sample, "--format", "json", "--max-drop", "0",
        ])
        #expect(same.status == 0 && same.stderr.isEmpty)
        let empty = try #require(
            (try JSONSerialization.jsonObject(with: same.stdout) as? [String: Any])?["diff"] as? [String: Any])
        #expect(empty["added"] as? Int == 0 && empty["removed"] as? Int == 0 && empty["moved"] as? Int == 0)
        #expect((empty["warnings"] as? [Any])?.isEmpty == true)
        #expect((empty["categories"] as? [[String: Any]])?.allSatisfy { $0["change"] as? Int == 0 } == true)
    }

    @Test("usage errors exit 64 with a message naming the argument")
    func usageErrors() throws {
        let indexes = try ReportIndexes()
        defer { indexes.folder.remove() }
        let index = indexes.sample
        let cases: [([String], String)] = [
            (["report"], "missing <index>"),
            (["report", index, index], "unexpected argument"),
            (["report", index, "--format", "xml"], "--format: expected text, json, csv or html, got 'xml'"),
            (
                ["report", index, "--against", index, "--max-drop", "1.5"],
                "--max-drop: expected a number from 0 to 1, got '1.5'"
            ),
            (
                ["report", index, "--against", index, "--max-drop", "-0.1"],
                "--max-drop: expected a number from 0 to 1, got '-0.1'"
            ),
            (
                ["report", index, "--against", index, "--max-drop=20%"],
                "--max-drop: expected a number from 0 to 1, got '20%'"
            ),
            (
                ["report", index, "--against", index, "--max-drop", "nan"],
                "--max-drop: expected a number from 0 to 1, got 'nan'"
            ),
            (["report", index, "--max-drop", "0.2"], "--max-drop needs --against"),
            (["report", index, "--against"], "option '--against' needs a value"),
            (["report", index, "--frobnicate"], "unknown option '--frobnicate'"),
        ]
        for (arguments, message) in cases {
            let run = try SpotsCLI.run(arguments)
            #expect(run.status == 64, "\(arguments)")
            let first = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("spots: ") && first.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test("a damaged index exits 65 and a missing one 66, as INDEX or as --against")
    func badIndexes() throws {
        let indexes = try ReportIndexes()
        defer { indexes.folder.remove() }
        let damaged = indexes.folder.url.appendingPathComponent("damaged.spots")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: indexes.sample))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: damaged)
        let garbage = indexes.folder.url.appendingPathComponent("garbage.spots")
        try Data("not an index".utf8).write(to: garbage)
        let missing = indexes.folder.path("missing.spots")
        for (arguments, status) in [
            (["report", damaged.path], Int32(65)), (["report", garbage.path, "--format", "html"], 65),
            (["report", indexes.sample, "--against", damaged.path], 65), (["report", missing], 66),
            (["report", indexes.sample, "--against", missing], 66),
        ] {
            let run = try SpotsCLI.run(arguments)
            #expect(run.status == status, "\(arguments)")
            #expect(
                run.stderr.hasPrefix("spots: ") && run.stderr.split(separator: "\n").count == 1,
                "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        #expect(try SpotsCLI.run(["report", damaged.path]).stderr.hasSuffix(": checksum mismatch\n"))
    }

    @Test(
        "-o writes the report atomically: the whole file on success, the previous file on failure, 73 when it cannot be created"
    )
    func writesAtomically() throws {
        let indexes = try ReportIndexes()
        defer { indexes.folder.remove() }
        let folder = indexes.folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("report.html")
        try Data("previous".utf8).write(to: output)

        let broken = indexes.folder.url.appendingPathComponent("garbage.spots")
        try Data("not an index".utf8).write(to: broken)
        #expect(try SpotsCLI.run(["report", broken.path, "--format", "html", "-o", output.path, "-O"]).status == 65)
        #expect(try String(contentsOf: output, encoding: .utf8) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.html"])

        let run = try SpotsCLI.run(["report", indexes.sample, "--format", "html", "-o", output.path, "-O"])
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty)
        let page = try String(contentsOf: output, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
        #expect(
            page == (try SpotsCLI.run(["report", indexes.sample, "--format", "html"])).output,
            "the file holds what standard output would")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.html"],
            "no temporary file is left")

        let uncreatable = try SpotsCLI.run([
            "report", indexes.sample, "-o", folder.appendingPathComponent("no/such/folder.txt").path,
        ])
        #expect(uncreatable.status == 73)
        #expect(uncreatable.stderr.hasPrefix("spots: ") && uncreatable.stderr.split(separator: "\n").count == 1)
    }

    @Test("every format is written; the text report has its sections")
    func formats() throws {
        let indexes = try ReportIndexes()
        defer { indexes.folder.remove() }
        let text = try SpotsCLI.run(["report", indexes.sample])
        #expect(text.status == 0)
        for section in [
            "TOTALS", "CATEGORIES", "TO DO", "amenity=embassy", "NAMES BY LANGUAGE", "WHERE",
            "(MINLON,MINLAT,MAXLON,MAXLAT)",
        ] {
            #expect(text.output.contains(section), "\(section)")
        }
        let csv = try SpotsCLI.run(["report", indexes.sample, "--format=csv"])
        #expect(
            csv.status == 0 && csv.output.hasPrefix("category,group,mapkit_category,count,share,")
                && csv.output.contains("\r\ncafe,mapkit,MKPOICategoryCafe,88,"))
        let json = try SpotsCLI.run(["report", indexes.sample, "--format", "json"])
        #expect((try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])?["schema_version"] as? Int == 2)
        let listed = try SpotsCLI.run([
            "report", indexes.sample, "--against", indexes.sample, "--format", "csv", "--list", "changes",
        ])
        #expect(
            listed.status == 0
                && listed.output == "change,ref,name,category,distance_m,name_before,category_before,url\r\n")
        #expect(
            try SpotsCLI.run(["report", indexes.sample, "--list", "changes"]).status == 64, "needs --against and csv")
        let tags = try SpotsCLI.run(["report", indexes.sample, "--format", "csv", "--list", "tags"])
        let rows = tags.output.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(tags.status == 0 && rows.first == "reason,tag,count")
        #expect(rows.contains { $0.hasPrefix("excluded,amenity=") } && rows.contains { $0.hasPrefix("unmapped,") })
    }

    @Test("help describes report in the swift-argument-parser layout, and the overview lists it")
    func help() throws {
        let help = try SpotsCLI.run(["report", "--help"])
        #expect(help.status == 0)
        for part in [
            "OVERVIEW:", "USAGE: spots report <index>", "ARGUMENTS:", "OPTIONS:", "--format <format>",
            "-o, --output <output>",
            "--against <old-index>", "--max-drop <fraction>", "1 m", "MINLON,MINLAT,MAXLON,MAXLAT",
        ] {
            #expect(help.output.contains(part), "\(part)")
        }
        #expect(try SpotsCLI.run(["help", "report"]).output == help.output)
        #expect(try SpotsCLI.run(["--help"]).output.contains("\n  report "))
    }
}
