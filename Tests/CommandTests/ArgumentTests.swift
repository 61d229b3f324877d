import Foundation
import SpotTestSupport
import Testing

@Suite("Arguments: typed values, one error style, usage from the option table")
struct ArgumentTests {
    static let commands = ["build", "cluster", "export", "inspect", "refresh", "report", "search"]

    /// The usage line and the options of `command`'s help.
    static func help(_ command: String) throws -> (usage: String, options: [String]) {
        let help = try SpotsCLI.run([command, "--help"])
        try #require(help.status == 0)
        let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let usage = try #require(lines.first { $0.hasPrefix("USAGE: ") })
        let start = try #require(lines.firstIndex(of: "OPTIONS:"))
        let options = lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line -> String? in
            // An option row starts with two spaces and its names; the longest name is its key.
            guard line.hasPrefix("  -") else { return nil }
            let names = line.dropFirst(2).split(separator: " ").first { $0.hasPrefix("--") }
            return names.map { String($0) }
        }
        return (usage, options)
    }

    @Test("every option of a command's table is in its usage line, --help aside", arguments: commands)
    func usageFromTable(_ command: String) throws {
        let (usage, options) = try Self.help(command)
        #expect(usage.hasPrefix("USAGE: spots \(command)"))
        #expect(options.contains("--help"))
        for option in options where option != "--help" {
            #expect(usage.contains(" \(option)") || usage.contains("[\(option)"), "\(command): \(option)")
        }
        #expect(!usage.contains("--help"))
    }

    @Test("the modes of search and cluster are alternatives in the usage line")
    func modes() throws {
        let (search, _) = try Self.help("search")
        #expect(
            search.hasSuffix(
                " | --id <refs> [--language <code>] [--format table|ndjson|geojson] [--output <output>] [--overwrite]"
                    + " | --batch <file> [--threads <n>] [--output <output>] [--overwrite]"))
        let (cluster, _) = try Self.help("cluster")
        #expect(cluster.hasPrefix("USAGE: spots cluster <index> --bbox <minlon,minlat,maxlon,maxlat> --zoom <z> "))
        #expect(
            cluster.contains(
                " | --leaves <id> [--format geojson|ndjson] [--limit <n>] [--offset <k>] [--output <output>] [--overwrite]"
                    + " | --batch "))
    }

    @Test("a bad number or choice is one line in one style, then the command's usage; exit 64")
    func oneErrorStyle() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let index = folder.path("himeji.spots")
        try #require(try SpotsCLI.run(["build", himeji, "-o", index, "-q"]).status == 0)
        let out = folder.path("x.spots")
        let cases: [([String], String)] = [
            (["search", index, "--limit", "x"], "--limit: expected a whole number of at least 0, got 'x'"),
            (
                ["search", index, "--near", "34.8,134.7", "--radius", "-5"],
                "--radius: expected a number of at least 0, got '-5'"
            ),
            (["search", index, "--near", "34.8,x,134.7"], "--near: expected LAT,LON in degrees, got '34.8,x,134.7'"),
            (
                ["search", index, "--bbox", "0,0,,1"],
                "--bbox: expected MINLON,MINLAT,MAXLON,MAXLAT in degrees, got '0,0,,1'"
            ),
            (["search", index, "--format", "csv"], "--format: expected table, ndjson or geojson, got 'csv'"),
            (
                ["cluster", index, "--bbox", "0,0,1,1", "--zoom", "31"],
                "--zoom: expected a number from 0 to 30, got '31'"
            ),
            (
                ["cluster", index, "--leaves", "0", "--offset", "x"],
                "--offset: expected a whole number of at least 0, got 'x'"
            ),
            (
                ["build", himeji, "-o", out, "--threads", "2000"],
                "--threads: expected a whole number from 1 to 1024, got '2000'"
            ),
            (
                ["build", himeji, "-o", out, "--max-tags", "0"],
                "--max-tags: expected a whole number of at least 1, got '0'"
            ),
            (["report", index, "--max-drop", "1.5"], "--max-drop: expected a number from 0 to 1, got '1.5'"),
            (["report", index, "--format", "pdf"], "--format: expected text, json, csv or html, got 'pdf'"),
            (["export", index, "--format", "xml"], "--format: expected ndjson, geojson or csv, got 'xml'"),
            (
                ["refresh", "--pipeline", "p.json", "--log-format", "xml"],
                "--log-format: expected text or json, got 'xml'"
            ),
        ]
        for (arguments, message) in cases {
            let run = try SpotsCLI.run(arguments)
            #expect(run.status == 64, "\(arguments)")
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first == "spots: " + message, "\(arguments)")
            #expect(lines.dropFirst() == [try Self.help(arguments[0]).usage], "\(arguments)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["himeji.spots"])
    }

    @Test("--version and every index's generator name one version")
    func version() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let index = folder.path("himeji.spots")
        try #require(try SpotsCLI.run(["build", himeji, "-o", index, "-q"]).status == 0)
        let version = try SpotsCLI.run(["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("spots 0."))
        let generator = version.output.trimmingCharacters(in: .newlines)
        let inspect = try SpotsCLI.run(["inspect", index]).output.split(separator: "\n")
        #expect(inspect.contains { $0.hasPrefix("generator ") && $0.hasSuffix(" " + generator) })
    }
}
