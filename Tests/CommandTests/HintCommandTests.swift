import Foundation
import SpotTestSupport
import Testing

@testable import SpotsCLI

/// Mistakes a person makes get a warning or a hint, never a silent wrong answer: far places,
/// searches that ask nothing, unknown options and categories, inputs that are not OSM data.
@Suite("Warnings and hints")
struct HintCommandTests {
    /// The first line of `run`'s standard error.
    private func firstLine(_ run: SpotsCLI.Run) -> String {
        String(run.stderr.split(separator: "\n", omittingEmptySubsequences: false)[0])
    }

    /// The answer lines `spots COMMAND INDEX --batch -` gives `lines`.
    private func batch(_ command: String, _ index: String, _ lines: [String]) throws -> [String] {
        let run = try SpotsCLI.run(
            [command, index, "--batch", "-"], stdin: Data(lines.map { $0 + "\n" }.joined().utf8))
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        return run.output.split(separator: "\n").map(String.init)
    }

    @Test("a point or box far from the index's spots is answered with a warning naming the likely swap")
    func farPlaces() throws {
        try withSampleIndex { _, index in
            let cases: [([String], String)] = [
                (
                    ["search", index, "--near", "24.9384,60.1699"],
                    "spots: warning: --near 24.9384,60.1699 is 1,100 km from the index's spots;"
                        + " did you mean --near 60.1699,24.9384?"
                ),
                (
                    ["search", index, "--near", "42.5078,1.5211"],
                    "spots: warning: --near 42.5078,1.5211 is 1,913 km from the index's spots"
                ),
                (
                    ["search", index, "--bbox", "60.1,24.9,60.2,25"],
                    "spots: warning: --bbox 60.1,24.9,60.2,25 is 1,093 km from the index's spots;"
                        + " did you mean --bbox 24.9,60.1,25,60.2?"
                ),
                (
                    ["cluster", index, "--bbox", "60.1,24.9,60.2,25", "--zoom", "10"],
                    "spots: warning: --bbox 60.1,24.9,60.2,25 is 1,093 km from the index's spots;"
                        + " did you mean --bbox 24.9,60.1,25,60.2?"
                ),
            ]
            for (arguments, warning) in cases {
                let run = try SpotsCLI.run(arguments)
                #expect(run.status == 0)
                #expect(run.stderr == warning + "\n")
            }
            let near = try SpotsCLI.run(["search", index, "--near", "60.1699,24.9384", "--limit", "1"])
            #expect(near.status == 0 && near.stderr.isEmpty)
        }
    }

    @Test("batch answers carry the warnings, and only when there are some")
    func batchWarnings() throws {
        try withSampleIndex { _, index in
            let answers = try batch(
                "search", index,
                [
                    #"{"bbox":[60.1,24.9,60.2,25]}"#, #"{"near":[24.9384,60.1699],"categories":["museum"],"limit":0}"#,
                    #"{"near":[60.1699,24.9384],"limit":0}"#,
                ])
            #expect(
                answers == [
                    #"{"results":[],"warnings":["bbox [60.1,24.9,60.2,25] is 1,093 km from the index's spots;"#
                        + #" did you mean bbox [24.9,60.1,25,60.2]?"]}"#,
                    #"{"results":[],"warnings":["near [24.9384,60.1699] is 1,100 km from the index's spots;"#
                        + #" did you mean near [60.1699,24.9384]?"]}"#,
                    #"{"results":[]}"#,
                ])
            #expect(
                try batch("cluster", index, [#"{"bbox":[60.1,24.9,60.2,25],"zoom":10}"#]) == [
                    #"{"results":[],"warnings":["bbox [60.1,24.9,60.2,25] is 1,093 km from the index's spots;"#
                        + #" did you mean bbox [24.9,60.1,25,60.2]?"]}"#
                ])
        }
    }

    @Test("a search that asks for nothing is a usage error; a batch line or API request asking nothing is refused")
    func nothingAsked() throws {
        try withSampleIndex { _, index in
            for extra in [[], ["--limit", "5"], ["--exclude-category", "cafe"], ["--query", " "]] {
                let run = try SpotsCLI.run(["search", index] + extra)
                #expect(run.status == 64 && run.output.isEmpty)
                #expect(firstLine(run) == "spots: give --query, --near, --bbox, --category or --id")
            }
            #expect(
                try batch("search", index, ["{}", #"{"limit":3}"#]) == [
                    #"{"error":"give query, near, bbox or categories"}"#,
                    #"{"error":"give query, near, bbox or categories"}"#,
                ])
        }
    }

    @Test("an unknown subcommand's line suggests the nearest, else points to the help")
    func unknownSubcommands() {
        #expect(unknownSubcommand("serch") == "spots: unknown subcommand 'serch'; did you mean search?")
        #expect(unknownSubcommand("biuld") == "spots: unknown subcommand 'biuld'; did you mean build?")
        #expect(unknownSubcommand("frobnicate") == "spots: unknown subcommand 'frobnicate'; see 'spots --help'")
    }

    @Test("an unknown option suggests the nearest, every name of it given")
    func unknownOptions() throws {
        try withSampleIndex { _, index in
            let cases: [([String], String)] = [
                (
                    ["search", index, "--query", "cafe", "--out", "x"],
                    "unknown option '--out'; did you mean -o / --output?"
                ),
                (["search", index, "--nera", "60,25"], "unknown option '--nera'; did you mean --near?"),
                (
                    ["cluster", index, "--bbox", "24,60,25,61", "--zom", "3"],
                    "unknown option '--zom'; did you mean --zoom?"
                ),
                (["search", index, "--frobnicate"], "unknown option '--frobnicate'"),
            ]
            for (arguments, message) in cases {
                let run = try SpotsCLI.run(arguments)
                #expect(run.status == 64)
                #expect(firstLine(run) == "spots: " + message)
            }
        }
    }

    @Test("an unknown category suggests the category its name or search word (in any language) is nearest")
    func unknownCategories() throws {
        try withSampleIndex { _, index in
            let cases: [([String], String)] = [
                (
                    ["search", index, "--category", "coffee"],
                    "--category: unknown category 'coffee'; did you mean cafe?"
                ),
                (
                    ["search", index, "--near", "60.17,24.94", "--exclude-category", "cafe,restaurnt"],
                    "--exclude-category: unknown category 'restaurnt'; did you mean restaurant?"
                ),
                (["search", index, "--category", "カフェ"], "--category: unknown category 'カフェ'; did you mean cafe?"),
                (["search", index, "--category", "xyz"], "--category: unknown category 'xyz'"),
                (
                    ["cluster", index, "--bbox", "24.9,60.1,25,60.2", "--zoom", "10", "--category", "coffee"],
                    "--category: unknown category 'coffee'; did you mean cafe?"
                ),
            ]
            for (arguments, message) in cases {
                let run = try SpotsCLI.run(arguments)
                #expect(run.status == 64)
                #expect(firstLine(run) == "spots: " + message)
            }
            #expect(
                try batch("search", index, [#"{"categories":["coffee"]}"#]) == [
                    #"{"error":"categories: unknown category 'coffee'; did you mean cafe?"}"#
                ])
            #expect(
                try batch("cluster", index, [#"{"bbox":[24.9,60.1,25,60.2],"zoom":10,"categories":["museums"]}"#]) == [
                    #"{"error":"categories: unknown category 'museums'; did you mean museum?"}"#
                ])
        }
    }

    @Test("Spots' API answers with the batch's warnings, and refuses with the batch's words")
    func api() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let far = try server.get("/v1/search?bbox=60.1,24.9,60.2,25")
            #expect(far.status == 200)
            #expect(
                far.text
                    == #"{"results":[],"warnings":["bbox [60.1,24.9,60.2,25] is 1,093 km from the index's spots;"#
                    + #" did you mean bbox [24.9,60.1,25,60.2]?"]}"#)
            let clusters = try server.get("/v1/clusters?bbox=60.1,24.9,60.2,25&zoom=10")
            #expect(clusters.text == far.text)
            let refusals = [
                ("/v1/search", "give query, near, bbox or categories"),
                ("/v1/search?limit=3", "give query, near, bbox or categories"),
                ("/v1/search?categories=coffee", "categories: unknown category 'coffee'; did you mean cafe?"),
                (
                    "/v1/clusters?bbox=24.9,60.1,25,60.2&zoom=10&categories=coffee",
                    "categories: unknown category 'coffee'; did you mean cafe?"
                ),
            ]
            for (target, message) in refusals {
                let answer = try server.get(target)
                #expect(answer.status == 400, "\(target)")
                #expect(answer.text == #"{"error":"# + "\"\(message)\"}", "\(target)")
            }
            let batch = try LoopbackHTTP.request(
                port: server.port, "POST", "/v1/batch",
                body: Data("{}\n{\"near\":[24.9384,60.1699],\"limit\":0}\n".utf8))
            #expect(
                batch.text
                    == #"{"error":"give query, near, bbox or categories"}"# + "\n"
                    + #"{"results":[],"warnings":["near [24.9384,60.1699] is 1,100 km from the index's spots;"#
                    + #" did you mean near [60.1699,24.9384]?"]}"# + "\n")
            #expect(server.stop() == 0)
        }
    }

    @Test("distances are printed to 0.1 m in NDJSON, GeoJSON, batch answers, the API and Photon's features")
    func roundedDistances() throws {
        try withSampleIndex { _, index in
            let tenths = try NSRegularExpression(pattern: #""distance_m":(-?\d+)(\.\d+)?"#)
            func distances(_ text: String) -> [String] {
                tenths.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                    String(text[Range($0.range, in: text)!])
                }
            }
            func allTenths(_ text: String) -> Bool {
                let found = distances(text)
                return !found.isEmpty
                    && found.allSatisfy { $0.range(of: #"\.\d$"#, options: .regularExpression) != nil }
            }
            let query = ["--near", "60.1699,24.9384", "--limit", "5"]
            #expect(allTenths(try SpotsCLI.run(["search", index, "--format", "ndjson"] + query).output))
            #expect(allTenths(try SpotsCLI.run(["search", index, "--format", "geojson"] + query).output))
            #expect(allTenths(try batch("search", index, [#"{"near":[60.1699,24.9384],"limit":5}"#]).joined()))
            let server = try ServeProcess(index: index)
            #expect(allTenths(try server.get("/v1/search?near=60.1699,24.9384&limit=5").text))
            #expect(allTenths(try server.get("/api?q=cafe&lat=60.1699&lon=24.9384").text))
            #expect(server.stop() == 0)
        }
    }

    @Test("an index or another file that is not OSM data, given to build, says what it is (exit 65)")
    func notOSMInput() throws {
        try withSampleIndex { folder, index in
            let inputs: [(String, [UInt8], String)] = [
                ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "a JPEG image"),
                ("places.geojson", Array(#"{"type":"FeatureCollection"}"#.utf8), "JSON text (GeoJSON, perhaps)"),
                (
                    "places.gpkg", Array("SQLite format 3\u{0}".utf8) + [0x10, 0],
                    "an SQLite database (a GeoPackage, perhaps)"
                ),
                ("extract.zip", Array("PK\u{3}\u{4}".utf8) + [0x14, 0], "a zip archive"),
            ]
            let run = try SpotsCLI.run(["build", index, "-o", folder.path("copy.spots")])
            #expect(run.status == 65)
            #expect(
                run.stderr
                    == "spots: \(index): this is a spots index, not OSM data; give OSM XML (plain, gzip or bzip2) or OSM PBF\n"
            )
            for (name, bytes, what) in inputs {
                let path = try folder.write(bytes, to: name)
                let run = try SpotsCLI.run(["build", path, "-o", folder.path("out.spots")])
                #expect(run.status == 65)
                #expect(
                    run.stderr
                        == "spots: \(path): this is \(what), not OSM data; give OSM XML (plain, gzip or bzip2) or OSM PBF\n"
                )
            }
            let changes = try folder.write("<?xml version='1.0'?>\n<osmChange version='0.6'/>\n", to: "changes.osc")
            let change = try SpotsCLI.run(["build", changes, "-o", folder.path("out.spots")])
            #expect(change.status == 65)
            #expect(
                change.stderr
                    == "spots: \(changes): line 2, column 1: this is an osmChange file (edits to apply), not OSM data;"
                    + " give OSM XML (plain, gzip or bzip2) or OSM PBF\n")
        }
    }
}
