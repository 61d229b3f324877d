import Foundation
import SpotTestSupport
import Testing

/// `spots update` is exact on real extracts: Tests/Support/edit_extract.py makes a seeded
/// second version B of an extract A, osmium derives the osmChange between them, and the update
/// of A's index by it exports the same spots, byte for byte, as a build of B. Backwards, the
/// change osmium derives from B to A deletes at raised versions, which osmium and spots both
/// honour: the update of B's index equals a build of `osmium apply-changes B back.osc` (not of A).
@Suite(
    "spots update equals a build of the changed extract",
    .enabled(if: SpotsCLI.hasSharedData, "../shared/data is absent: update exactness skipped"),
    .enabled(if: hasPython, "python3 is absent: update exactness skipped"),
    .enabled(if: hasOsmium, "osmium-tool is absent: update exactness skipped"))
struct UpdateCommandTests {
    /// An extract of ../shared/data, the seed of its edit and the form of its change files.
    struct Case: CustomTestStringConvertible, Sendable {
        let extract: String
        let seed: Int
        /// How the change files are named, and so compressed by osmium: "osc", "osc.gz", "osc.bz2".
        let form: String
        var testDescription: String { "\(extract), seed \(seed), .\(form)" }
    }

    static let extracts = [
        Case(extract: "monaco-2021-04", seed: 1, form: "osc.gz"),
        Case(extract: "andorra-2021-04", seed: 2, form: "osc"),
        Case(extract: "liechtenstein-2015-07", seed: 3, form: "osc.bz2"),
        Case(extract: "helsinki-center", seed: 4, form: "osc.gz"),
        // The union of points of interest: small and fast (well under 20 s), so it stays.
        Case(extract: "pois-union", seed: 5, form: "osc"),
    ]

    @Test(
        "forward, the update of A equals the build of B; backward, of B equals B with the back change",
        arguments: extracts)
    func forwardAndBackward(_ edit: Case) throws {
        try withTemporaryFolder { folder in
            let work = ChangeWork(folder: folder)
            let original = SpotsCLI.sharedData.appendingPathComponent("\(edit.extract).osm.gz").path
            let edited = try work.edit(original, seed: edit.seed, to: "B.osm")
            let forward = try work.derive(original, edited, to: "forward.\(edit.form)")
            let backward = try work.derive(edited, original, to: "back.\(edit.form)")
            let back = try work.apply(edited, [backward], to: "back.osm")
            let indexA = try work.build([original], "A.spots", keepState: true)
            let indexB = try work.build([edited], "B.spots", keepState: true)
            let indexBack = try work.build([back], "back.spots")
            let expectedB = try work.export(indexB)
            let expectedBack = try work.export(indexBack)
            #expect(expectedB != (try work.export(indexA)), "the edit changed no spot")

            let summary = try work.update(indexA, [forward])
            #expect(summary.contains("from forward.\(edit.form) ("), "\(summary)")
            #expect(try work.export(indexA) == expectedB, "forward: the update of A differs from the build of B")
            try work.update(indexB, [backward])
            #expect(try work.export(indexB) == expectedBack, "backward: the update of B differs from B + back")
            #expect(try UpdateFiles.leftovers(in: folder).isEmpty)
        }
    }

    @Test("two change files in one update, and two updates in a row, equal the build of both applied")
    func twoChanges() throws {
        try withTemporaryFolder { folder in
            let work = ChangeWork(folder: folder)
            let original = SpotsCLI.sharedData.appendingPathComponent("monaco-2021-04.osm.gz").path
            let second = try work.edit(original, seed: 11, to: "B.osm")
            let third = try work.edit(second, seed: 12, to: "C.osm")
            let first = try work.derive(original, second, to: "first.osc.gz")
            let next = try work.derive(second, third, to: "next.osc")
            let both = try work.apply(original, [first, next], to: "both.osm")
            let expected = try work.export(try work.build([both], "both.spots"))
            #expect(expected == (try work.export(try work.build([third], "C.spots"))))

            let once = try work.build([original], "once.spots", keepState: true)
            let summary = try work.update(once, [first, next])
            #expect(summary.contains("from 2 change files ("), "\(summary)")
            #expect(try work.export(once) == expected, "one update with both changes differs from the build")

            let twice = try work.build([original], "twice.spots", keepState: true)
            try work.update(twice, [first])
            try work.update(twice, [next])
            #expect(try work.export(twice) == expected, "two updates in a row differ from the build")
        }
    }

    @Test(
        "with the build's --no-areas or --no-dedupe, as a flag or in a pipeline file, the update of A equals the build of B",
        arguments: [
            ("--no-areas", #"{"areas": false, "state": true}"#, 6),
            ("--no-dedupe", #"{"dedupe": {"enabled": false}, "state": true}"#, 7),
        ])
    func flags(_ flag: String, pipeline: String, seed: Int) throws {
        try withTemporaryFolder { folder in
            let work = ChangeWork(folder: folder)
            let original = SpotsCLI.sharedData.appendingPathComponent("monaco-2021-04.osm.gz").path
            let edited = try work.edit(original, seed: seed, to: "B.osm")
            let forward = try work.derive(original, edited, to: "forward.osc")
            let expected = try work.export(try work.build([edited], "B.spots", flags: [flag]))
            #expect(expected != (try work.export(try work.build([edited], "default.spots"))), "\(flag) changed nothing")

            // The same settings from a pipeline file ("state": true writes the state).
            let file = try folder.write(pipeline, to: "pipeline.json")
            let piped = try work.build([original], "piped.spots", flags: ["--pipeline", file])
            #expect(FileManager.default.fileExists(atPath: folder.path("piped.state")))
            try work.update(piped, [forward], flags: ["--pipeline", file])
            #expect(try work.export(piped) == expected, "\(pipeline): the update of A differs from the build of B")

            let indexA = try work.build([original], "A.spots", flags: [flag], keepState: true)
            let refused = try SpotsCLI.run(["update", indexA, forward])
            #expect(refused.status == 65, "an update without the build's \(flag) ran: \(refused.stderr)")
            try work.update(indexA, [forward], flags: [flag])
            #expect(try work.export(indexA) == expected, "\(flag): the update of A differs from the build of B")
        }
    }
}

/// The steps of the exactness tests, in one temporary folder: the seeded edit, osmium's
/// derive-changes and apply-changes, spots build, update and export.
struct ChangeWork {
    let folder: TemporaryFolder
    static let editor = SpotsCLI.root.appendingPathComponent("Tests/Support/edit_extract.py").path

    /// Runs a tool, requiring success.
    private func tool(_ command: [String]) throws {
        let run = try SpotsCLI.runTool(command)
        try #require(run.status == 0, "\(command.joined(separator: " ")): \(run.stderr)")
    }

    /// `extract` edited with `seed`, written as `name`.
    func edit(_ extract: String, seed: Int, to name: String) throws -> String {
        try tool(["python3", Self.editor, extract, folder.path(name), "--seed", String(seed)])
        return folder.path(name)
    }

    /// The osmChange from `from` to `to`, written as `name` (compressed as its name says).
    func derive(_ from: String, _ to: String, to name: String) throws -> String {
        try tool(["osmium", "derive-changes", from, to, "-o", folder.path(name)])
        return folder.path(name)
    }

    /// `changes` applied to `base` by osmium, written as `name`.
    func apply(_ base: String, _ changes: [String], to name: String) throws -> String {
        try tool(["osmium", "apply-changes", base] + changes + ["-o", folder.path(name)])
        return folder.path(name)
    }

    /// The index `name` built from `inputs`; its path.
    func build(_ inputs: [String], _ name: String, flags: [String] = [], keepState: Bool = false) throws -> String {
        let index = folder.path(name)
        let run = try SpotsCLI.run(
            ["build"] + inputs + ["-o", index, "-q"] + flags + (keepState ? ["--keep-state"] : []))
        try #require(run.status == 0, "build \(name): \(run.stderr)")
        return index
    }

    /// Updates `index` in place with `changes`; the summary line.
    @discardableResult
    func update(_ index: String, _ changes: [String], flags: [String] = []) throws -> String {
        let run = try SpotsCLI.run(["update", index] + changes + flags)
        try #require(run.status == 0, "update \(index): \(run.stderr)")
        return run.stderr
    }

    /// The index's export (NDJSON bytes).
    func export(_ index: String) throws -> Data {
        let output = index + ".ndjson"
        let run = try SpotsCLI.run(["export", index, "-o", output, "-O"])
        try #require(run.status == 0, "export \(index): \(run.stderr)")
        defer { try? FileManager.default.removeItem(atPath: output) }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }
}

/// Files and helpers of the update tests (UpdateFailureTests, UpdateServeTests and these).
enum UpdateFiles {
    /// The empty osmChange.
    static let empty = #"<osmChange version="0.6"></osmChange>"#

    /// A change of the Himeji sample: a cafe created, a cafe renamed (version 2), the ramen
    /// restaurant deleted (at its version, 4).
    static let known = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osmChange version="0.6" generator="test">
          <create>
            <node id="3010000099" version="1" timestamp="2030-01-01T00:00:00Z" lat="34.8300" lon="134.6910">
              <tag k="amenity" v="cafe"/>
              <tag k="name" v="Castle View Cafe"/>
            </node>
          </create>
          <modify>
            <node id="3010000014" version="2" timestamp="2030-01-01T00:00:00Z" lat="34.8296" lon="134.6918">
              <tag k="addr:city" v="姫路市"/>
              <tag k="addr:street" v="大手前通り"/>
              <tag k="amenity" v="cafe"/>
              <tag k="name" v="Shirasagi Coffee House"/>
              <tag k="opening_hours" v="Mo-Sa 08:00-18:00"/>
              <tag k="website" v="https://example.com/kissa-shirasagi"/>
            </node>
          </modify>
          <delete>
            <node id="3010000016" version="4" timestamp="2030-01-01T00:00:00Z"/>
          </delete>
        </osmChange>

        """

    /// Another small extract (osmium's output style), for a second index with the same pipeline.
    static let osmiumFixture = SpotsCLI.fixtures.appendingPathComponent("osmium.osm").path

    /// The path of Tests/Fixtures/osc/`name`.
    static func oscFixture(_ name: String) -> String {
        SpotsCLI.root.appendingPathComponent("Tests/Fixtures/osc/\(name)").path
    }

    /// Writes `text` as `name` in `folder`; its path.
    static func write(_ text: String, _ name: String, in folder: TemporaryFolder) throws -> String {
        try folder.write(text, to: name)
    }

    /// Builds `inputs` into `index` with --keep-state (and `flags`).
    static func build(_ inputs: [String], _ index: String, flags: [String] = []) throws {
        let run = try SpotsCLI.run(["build"] + inputs + ["-o", index, "-O", "-q", "--keep-state"] + flags)
        try #require(run.status == 0, "build \(inputs): \(run.stderr)")
    }

    /// The index's spots as `spots export` writes them (NDJSON).
    static func export(_ index: String) throws -> String {
        let run = try SpotsCLI.run(["export", index])
        try #require(run.status == 0, "export \(index): \(run.stderr)")
        return run.output
    }

    /// Every file of `folder` (hidden ones too) and its bytes.
    static func contents(of folder: TemporaryFolder) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try folder.names() { files[name] = try Data(contentsOf: folder.url.appendingPathComponent(name)) }
        return files
    }

    /// Temporary files (`.NAME.tmp.*`) and pending states (`NAME.state.next`) in `folder`.
    static func leftovers(in folder: TemporaryFolder) throws -> [String] {
        try folder.names().filter { $0.hasPrefix(".") || $0.hasSuffix(".next") }
    }

    /// The file at `path` gzipped by gzip(1).
    static func gzip(_ path: String) throws -> Data {
        let run = try SpotsCLI.runTool(["gzip", "-c", path])
        try #require(run.status == 0, "gzip: \(run.stderr)")
        return run.stdout
    }

    /// The sections a state file's table lists: name, offset and length.
    static func sections(ofState bytes: Data) -> [(name: String, offset: Int, length: Int)] {
        let data = [UInt8](bytes)
        func integer(at offset: Int, _ size: Int) -> Int {
            (0..<size).reversed().reduce(0) { $0 << 8 | Int(data[offset + $1]) }
        }
        let trailer = data.count - 72
        let count = integer(at: trailer + 12, 4)
        let table = integer(at: trailer + 16, 8)
        return (0..<count).map { index in
            let entry = table + 32 * index
            let name = String(decoding: data[entry..<entry + 4], as: UTF8.self)
            return (name, integer(at: entry + 8, 8), integer(at: entry + 16, 8))
        }
    }
}

extension TemporaryFolder {
    /// The names of the files in the folder, hidden ones too, sorted.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
