import Foundation
import SpotTestSupport
import Testing

/// The nightly refresh from change files (docs/update.md, "Refresh by change files"): the
/// sample wrapper (Samples/cron/refresh-changes.sh) downloads a replication folder's changes
/// with curl from a file:// "server", and `spots refresh` applies the ones newer than the
/// published index's state, publishes the result with its new state, finds nothing new
/// unchanged, fails on a gap in the sequence and builds from the inputs when the state is not
/// the published index's.
@Suite(
    "Refresh from change files, through the sample wrapper",
    .enabled(if: hasPython, "python3 is absent: refresh by change files skipped"),
    .enabled(if: hasOsmium, "osmium-tool is absent: refresh by change files skipped"),
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is absent: the wrapper's test skipped")
)
struct RefreshChangesTests {
    static let wrapper = SpotsCLI.root.appendingPathComponent("Samples/cron/refresh-changes.sh").path
    static let sample = SpotsCLI.root.appendingPathComponent("Samples/helsinki-center.osm.gz").path

    /// A job folder (the sample extract, a pipeline naming a change folder) and a server folder.
    struct Job {
        let folder: TemporaryFolder
        var server: String { folder.path("server") }
        var pipeline: String { folder.path("job/helsinki.json") }
        var index: String { folder.path("job/helsinki.spots") }
        var changes: String { folder.path("job/changes") }

        init() throws {
            folder = try TemporaryFolder()
            let manager = FileManager.default
            try manager.createDirectory(atPath: folder.path("server/000/000"), withIntermediateDirectories: true)
            try manager.createDirectory(atPath: folder.path("job"), withIntermediateDirectories: true)
            try manager.copyItem(atPath: RefreshChangesTests.sample, toPath: folder.path("job/helsinki-center.osm.gz"))
            try folder.write(
                """
                {"inputs": ["helsinki-center.osm.gz"], "output": "helsinki.spots", "changes": "changes",
                 "gates": {"min_spots": 100, "max_drop": 0.5}}
                """, to: "job/helsinki.json")
            try folder.write("sequenceNumber=0\n", to: "server/state.txt")
        }

        /// Publishes change `number` on the server: the osmChange from `from` to `to`.
        func publishChange(_ number: Int, from: String, to: String) throws {
            let name = String(format: "server/000/000/%03d", number)
            let derive = try SpotsCLI.runTool([
                "osmium", "derive-changes", from, to, "-o", folder.path(name + ".osc.gz"),
            ])
            try #require(derive.status == 0, "\(derive.stderr)")
            try folder.write("sequenceNumber=\(number)\n", to: name + ".state.txt")
            try folder.write("sequenceNumber=\(number)\n", to: "server/state.txt")
        }

        /// Runs the wrapper as cron would, with SPOTS naming the program; its exit code and its
        /// last stdout line (the refresh's summary) as JSON.
        func runWrapper() throws -> (status: Int32, summary: [String: Any]) {
            let run = try SpotsCLI.runTool([
                "env", "SPOTS=\(SpotsCLI.executable.path)", "/bin/sh", RefreshChangesTests.wrapper,
                "file://" + server, pipeline,
            ])
            let line = run.output.split(separator: "\n").last.map(String.init) ?? ""
            let summary = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            return (run.status, summary)
        }

        /// The index's spots as `spots export` writes them.
        func export(_ index: String) throws -> String {
            let run = try SpotsCLI.run(["export", index])
            try #require(run.status == 0, "\(run.stderr)")
            return run.output
        }
    }

    /// An edited copy of the sample extract, seeded.
    static func edited(_ job: Job, seed: Int, from input: String, name: String) throws -> String {
        let output = job.folder.path(name)
        let edit = try SpotsCLI.runTool([
            "python3", SpotsCLI.root.appendingPathComponent("Tests/Support/edit_extract.py").path, input, output,
            "--seed", String(seed),
        ])
        try #require(edit.status == 0, "\(edit.stderr)")
        return output
    }

    @Test("the first run builds with a state; each new change is applied and equals a build of the edited extract")
    func changesApplied() throws {
        let job = try Job()
        defer { job.folder.remove() }
        let first = try job.runWrapper()
        #expect(first.status == 0 && first.summary["outcome"] as? String == "published", "\(first.summary)")
        #expect(FileManager.default.fileExists(atPath: job.folder.path("job/helsinki.state")))

        let once = try Self.edited(job, seed: 11, from: Self.sample, name: "once.osm")
        try job.publishChange(1, from: Self.sample, to: once)
        let second = try job.runWrapper()
        #expect(second.status == 0 && second.summary["outcome"] as? String == "published", "\(second.summary)")
        let built = job.folder.path("once.spots")
        #expect(try SpotsCLI.run(["build", once, "-o", built, "-q"]).status == 0)
        #expect(try job.export(job.index) == job.export(built))

        let twice = try Self.edited(job, seed: 12, from: once, name: "twice.osm")
        try job.publishChange(2, from: once, to: twice)
        try job.publishChange(3, from: twice, to: twice)
        let third = try job.runWrapper()
        #expect(third.status == 0 && third.summary["outcome"] as? String == "published", "\(third.summary)")
        let rebuilt = job.folder.path("twice.spots")
        #expect(try SpotsCLI.run(["build", twice, "-o", rebuilt, "-q"]).status == 0)
        #expect(try job.export(job.index) == job.export(rebuilt))

        let again = try job.runWrapper()
        #expect(again.status == 0 && again.summary["outcome"] as? String == "unchanged", "\(again.summary)")
    }

    @Test("a gap in the sequence fails with one line and publishes nothing; a rollback makes the next run build")
    func gapAndRollback() throws {
        let job = try Job()
        defer { job.folder.remove() }
        #expect(try job.runWrapper().status == 0)
        let edited = try Self.edited(job, seed: 13, from: Self.sample, name: "edited.osm")
        try job.publishChange(1, from: Self.sample, to: edited)
        #expect(try job.runWrapper().status == 0)
        let published = try Data(contentsOf: URL(fileURLWithPath: job.index))

        try job.folder.write("sequenceNumber=3\n", to: "job/changes/state.txt")
        let gap = try SpotsCLI.run(["refresh", "--pipeline", job.pipeline])
        #expect(gap.status == 66, "\(gap.stderr)")
        #expect(gap.stderr.contains("000/000/002.osc.gz: change 2 is missing"), "\(gap.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: job.index)) == published)

        try job.folder.write("sequenceNumber=1\n", to: "job/changes/state.txt")
        #expect(try SpotsCLI.run(["refresh", "--pipeline", job.pipeline, "--rollback"]).status == 0)
        try job.publishChange(2, from: edited, to: edited)
        try FileManager.default.copyItem(
            atPath: job.folder.path("server/000/000/002.osc.gz"), toPath: job.changes + "/000/000/002.osc.gz")
        try job.folder.write("sequenceNumber=2\n", to: "job/changes/state.txt")
        let rebuild = try SpotsCLI.run(["refresh", "--pipeline", job.pipeline, "--resume", "--log-format", "json"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(rebuild.stderr.contains("\"event\":\"full_build\""), "\(rebuild.stderr)")
    }
}
