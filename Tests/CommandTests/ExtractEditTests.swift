import Foundation
import SpotTestSupport
import Testing

/// Tests/Support/edit_extract.py, which makes the second version of a real extract for the
/// tests of updates from change files: its edits are of every kind it names, and the osmChange
/// osmium derives between the two versions, applied to the first, gives the second.
@Suite(
    "The seeded extract editor",
    .enabled(if: SpotsCLI.hasSharedData, "../shared/data is absent: extract edits skipped"),
    .enabled(if: hasPython, "python3 is absent: extract edits skipped"),
    .enabled(if: hasOsmium, "osmium-tool is absent: extract edits skipped"))
struct ExtractEditTests {
    static let editor = SpotsCLI.root.appendingPathComponent("Tests/Support/edit_extract.py").path

    @Test("every kind of edit is made, and the derived change applied to the extract gives the edited one")
    func derivedChangeRoundTrips() throws {
        try withTemporaryFolder { folder in
            let original = SpotsCLI.sharedData.appendingPathComponent("monaco-2021-04.osm.gz").path
            let edited = folder.path("edited.osm")
            let edit = try SpotsCLI.runTool(["python3", Self.editor, original, edited, "--seed", "7"])
            try #require(edit.status == 0, "\(edit.stderr)")
            let made = try #require(try JSONSerialization.jsonObject(with: edit.stdout) as? [String: Int])
            #expect(
                Set(made.keys) == ["add", "remove", "retag", "rename", "move", "ring", "member", "way nodes"]
                    && made.values.allSatisfy { $0 > 0 }, "\(made)")
            let change = folder.path("change.osc.gz")
            let applied = folder.path("applied.osm")
            for command in [
                ["osmium", "derive-changes", original, edited, "-o", change],
                ["osmium", "apply-changes", original, change, "-o", applied],
            ] {
                let run = try SpotsCLI.runTool(command)
                try #require(run.status == 0, "\(command.joined(separator: " ")): \(run.stderr)")
            }
            #expect(try SpotsCLI.runTool(["osmium", "diff", "-q", edited, applied]).status == 0)
            let before = try SpotsCLI.buildAndExport([original], flags: ["--no-dedupe"], in: folder)
            let after = try SpotsCLI.buildAndExport([edited], flags: ["--no-dedupe"], in: folder)
            #expect(
                before.count != after.count
                    || before.map { $0["name"] as? String } != after.map { $0["name"] as? String })
        }
    }
}
