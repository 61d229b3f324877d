import Foundation
import SpotTestSupport
import Testing

/// One cell of docs/outputs.md's table of formats by extension: what `command` writes to a file
/// with `suffix` and no `--format`; nil: refused.
struct ExtensionCase: CustomStringConvertible, Sendable {
    let command: String
    let suffix: String
    let format: String?
    var description: String { "\(command) .\(suffix) → \(format ?? "refused")" }
}

/// Every cell of the table, the "other" column as `.dat` and a name without an extension.
private let table: [ExtensionCase] = {
    let columns = ["ndjson", "jsonl", "geojson", "json", "csv", "html", "txt", "dat", ""]
    let rows: [(String, [String?])] = [
        ("export", ["ndjson", "ndjson", "geojson", "geojson", "csv", nil, nil, "ndjson", "ndjson"]),
        ("report", [nil, nil, nil, "json", "csv", "html", "text", "text", "text"]),
        ("search", ["ndjson", "ndjson", "geojson", "geojson", nil, nil, "table", "table", "table"]),
        ("cluster", ["ndjson", "ndjson", "geojson", "geojson", nil, nil, nil, "geojson", "geojson"]),
    ]
    return rows.flatMap { command, formats in
        zip(columns, formats).map { ExtensionCase(command: command, suffix: $0, format: $1) }
    }
}()

/// The arguments after the index that each command needs to print something.
private let questions: [String: [String]] = [
    "export": [], "report": [], "search": ["--query", "castle"], "cluster": ["--bbox", "134,34,135,35", "--zoom", "5"],
]

/// Calls `body` with a fresh temporary folder and the index of the Himeji sample built there.
func withSmallIndex(_ body: (_ folder: TemporaryFolder, _ index: String) throws -> Void) throws {
    try withTemporaryFolder { folder in
        let index = folder.path("small.spots")
        let build = try SpotsCLI.run(["build", himeji, "-o", index, "-q"])
        try #require(build.status == 0, "\(build.stderr)")
        try body(folder, index)
    }
}

@Suite("Outputs: the format follows the extension")
struct OutputFormatTests {
    @Test("without --format, the extension chooses the format or is refused", arguments: table)
    func chosenByExtension(_ cell: ExtensionCase) throws {
        try withSmallIndex { folder, index in
            let output = folder.path(cell.suffix.isEmpty ? "out" : "out." + cell.suffix)
            let question = [cell.command, index] + (questions[cell.command] ?? [])
            let run = try SpotsCLI.run(question + ["-o", output])
            guard let format = cell.format else {
                #expect(run.status == 64)
                #expect(run.stderr.contains("cannot hold"))
                #expect(run.stderr.split(separator: "\n").count == 1)
                #expect(!FileManager.default.fileExists(atPath: output))
                return
            }
            #expect(run.status == 0, "\(run.stderr)")
            let printed = try SpotsCLI.run(question + ["--format", format])
            #expect(FileManager.default.contents(atPath: output) == printed.stdout)
        }
    }

    @Test("a --format that contradicts the extension is refused; one that agrees is taken")
    func contradicted() throws {
        try withSmallIndex { folder, index in
            let cases: [([String], String, Int32)] = [
                (["export", index, "--format", "csv"], "x.geojson", 64),
                (["export", index, "--format", "geojson"], "x.geojson", 0),
                (["report", index, "--format", "text"], "r.html", 64),
                (["search", index, "--query", "castle", "--format", "geojson"], "s.txt", 64),
                (["cluster", index, "--bbox", "134,34,135,35", "--zoom", "5", "--format", "ndjson"], "c.json", 64),
                (["export", index, "--format", "csv"], "x.dat", 0),
            ]
            for (command, name, status) in cases {
                let run = try SpotsCLI.run(command + ["-o", folder.path(name), "-O"])
                #expect(run.status == status, "\(command) -o \(name): \(run.stderr)")
                if status == 64 {
                    #expect(run.stderr.contains("contradicts the extension"))
                    #expect(run.stderr.split(separator: "\n").count == 1)
                }
            }
        }
    }
}
