import Foundation
import Testing

@Suite("spots search end to end")
struct SearchCommandTests {
    @Test("near with a radius and a category gives the nearest cafes, as a table, NDJSON or GeoJSON")
    func nearby() throws {
        try withSampleIndex { _, index in
            let arguments = [
                "search", index, "--near", "60.1699,24.9384", "--radius", "150", "--category", "cafe", "--limit", "5",
            ]
            let table = try SpotsCLI.run(arguments)
            #expect(table.status == 0)
            #expect(table.output.hasPrefix("distance"))
            #expect(table.output.split(separator: "\n").count == 6)
            let lines = try SpotsCLI.run(arguments + ["--format", "ndjson"]).output.split(separator: "\n")
            let results = try lines.map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(results.count == 5)
            let distances = results.map { ($0["distance_m"] as! NSNumber).doubleValue }
            #expect(distances == distances.sorted() && distances.allSatisfy { $0 <= 150 })
            #expect(results.allSatisfy { $0["category"] as? String == "cafe" })
            let geojson = try SpotsCLI.run(arguments + ["--format", "geojson"])
            let collection = try #require(JSONSerialization.jsonObject(with: geojson.stdout) as? [String: Any])
            #expect((collection["features"] as? [Any])?.count == 5)
        }
    }

    @Test("a Japanese category word finds the cafes near Himeji; a name finds the castle")
    func japanese() throws {
        try withSampleIndex { _, index in
            let cafes = try SpotsCLI.run([
                "search", index, "--query", "カフェ", "--near", "34.8394,134.6939", "--radius", "5000", "--format",
                "ndjson",
            ])
            let found = cafes.output.split(separator: "\n").map {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(!found.isEmpty && found.allSatisfy { $0?["category"] as? String == "cafe" })
            let castle = try SpotsCLI.run(["search", index, "--query", "姫路城", "--format", "ndjson"]).output
            #expect(castle.contains("\"wikidata\":\"Q188754\""))
            let english = try SpotsCLI.run(["search", index, "--query", "himeji castle", "--format", "ndjson"]).output
            #expect(english.contains("\"wikidata\":\"Q188754\""))
        }
    }

    @Test("--id gives the spots for references, in the order given")
    func lookup() throws {
        try withSampleIndex { _, index in
            let run = try SpotsCLI.run(["search", index, "--id", "n3010000010,n1381017836", "--format", "ndjson"])
            #expect(run.status == 0)
            let ids = run.output.split(separator: "\n").map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["osm_id"] as? NSNumber
            }
            #expect(ids == [3_010_000_010, 1_381_017_836])
            #expect(try SpotsCLI.run(["search", index, "--id", "x12"]).status == 64)
        }
    }

    @Test("--batch answers one line per request in order, an error line for a bad request, and goes on")
    func batch() throws {
        try withSampleIndex { _, index in
            let requests = """
                {"near":[60.1699,24.9384],"radius":100,"limit":3}
                not json
                {"radius":100}
                {"query":"kappeli","limit":1}
                {"bbox":[24.93,60.16,24.96,60.18],"categories":["museum"],"limit":2}
                {"near":[60.1699,24.9384],"limit":0}
                {"frobnicate":1}

                """
            let run = try SpotsCLI.run(["search", index, "--batch", "-"], stdin: Data(requests.utf8))
            #expect(run.status == 0)
            let lines = run.output.split(separator: "\n").map {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.count == 7)
            #expect((lines[0]?["results"] as? [[String: Any]])?.count == 3)
            #expect(lines[1]?["error"] is String && lines[2]?["error"] is String && lines[6]?["error"] is String)
            let kappeli = try #require((lines[3]?["results"] as? [[String: Any]])?.first)
            #expect(kappeli["name"] as? String == "Kappeli" && kappeli["distance_m"] is NSNull)
            let museums = try #require(lines[4]?["results"] as? [[String: Any]])
            #expect(museums.count == 2 && museums.allSatisfy { $0["category"] as? String == "museum" })
            #expect((lines[5]?["results"] as? [Any])?.isEmpty == true)
            let first = try #require((lines[0]?["results"] as? [[String: Any]])?.first)
            #expect(
                Set(first.keys) == [
                    "osm_type", "osm_id", "lat", "lon", "category", "result_type", "name", "display_name",
                    "address_line",
                    "distance_m",
                ])
        }
    }

    @Test("usage errors exit 64: a radius without near, a bad point or box, an unknown category; a bad index exits 65")
    func errors() throws {
        try withSampleIndex { folder, index in
            for arguments in [
                ["--radius", "100"], ["--near", "91,0"], ["--near", "60.1"], ["--bbox", "1,2,3"],
                ["--category", "cafee"],
                ["--limit", "-1"], ["--format", "xml"], ["--query", "kiasma", "--sort", "nearest"],
                ["--query", "kiasma", "--distance-scale", "0"],
            ] {
                let run = try SpotsCLI.run(["search", index] + arguments)
                #expect(run.status == 64, "\(arguments)")
                #expect(run.stderr.hasPrefix("spots: "))
            }
            let broken = folder.url.appendingPathComponent("broken.spots")
            try Data("garbage".utf8).write(to: broken)
            #expect(try SpotsCLI.run(["search", broken.path, "--near", "0,0"]).status == 65)
        }
    }

    @Test("--explain says why each text result came back; --sort distance orders them nearest first; batches do both")
    func ranking() throws {
        try withSampleIndex { _, index in
            let query = ["search", index, "--query", "Kiasma", "--near", "60.1711,24.9375"]
            let lines = try SpotsCLI.run(query + ["--explain", "--format", "ndjson"]).output.split(separator: "\n")
            let results = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(results.map { $0["name"] as? String }.prefix(2) == ["Kiasma", "Kiasma kaupunkipyöräasema"])
            let match = try #require(results.first?["match"] as? [String: Any])
            #expect(match["level"] as? String == "exact" && match["field"] as? String == "name")
            #expect(match["score"] is Double)
            let plain = try SpotsCLI.run(query + ["--format", "ndjson"]).output
            #expect(!plain.contains("\"match\""), "no match object without --explain")
            let table = try SpotsCLI.run(query + ["--explain"]).output
            #expect(table.split(separator: "\n").first?.hasSuffix("why") == true && table.contains("exact name"))
            let nearest = try SpotsCLI.run(query + ["--sort", "distance", "--format", "ndjson"]).output
            #expect(nearest.split(separator: "\n").first?.contains("kaupunkipyöräasema") == true)
            let requests = """
                {"query":"Kiasma","near":[60.1711,24.9375],"explain":true,"limit":2}
                {"query":"Kiasma","near":[60.1711,24.9375],"sort":"distance","distance_scale":500,"limit":1}
                {"query":"Kiasma","sort":"nearest"}
                {"query":"Kiasma","explain":"yes"}

                """
            let run = try SpotsCLI.run(["search", index, "--batch", "-"], stdin: Data(requests.utf8))
            let answers = run.output.split(separator: "\n").map {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let explained = try #require(answers[0]?["results"] as? [[String: Any]])
            #expect((explained.first?["match"] as? [String: Any])?["level"] as? String == "exact")
            let byDistance = try #require(answers[1]?["results"] as? [[String: Any]])
            #expect(byDistance.first?["name"] as? String == "Kiasma kaupunkipyöräasema")
            #expect(answers[2]?["error"] is String && answers[3]?["error"] is String)
        }
    }
}
