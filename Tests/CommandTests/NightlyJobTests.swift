import Foundation
import SpotTestSupport
import Testing

/// The nightly job as a person sets it up (README, "Nightly refresh"): `Scripts/install` into a
/// prefix, the installed crontab's line run as cron runs it (a short PATH, no SPOTS), and the
/// wrapper's failures, each recorded through `spots` in the status file, the metrics and the log.
@Suite(
    "Scripts/install and the installed cron job, run as cron runs it",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
        "curl or python3 is absent: the cron job's tests skipped"))
struct NightlyJobTests {
    /// A prefix that `Scripts/install --binary` filled, and the folders the crontab's line names
    /// (/var/lib/spots, /var/log/spots), made in a temporary folder.
    struct Installed {
        let folder: TemporaryFolder
        var prefix: URL { folder.url.appendingPathComponent("prefix") }
        var data: URL { folder.url.appendingPathComponent("lib") }
        var log: URL { folder.url.appendingPathComponent("log/helsinki.log") }
        var pipeline: URL { data.appendingPathComponent("helsinki.json") }
        var input: URL { data.appendingPathComponent("helsinki-center.osm.gz") }

        init() throws {
            folder = try TemporaryFolder()
            let install = try NightlyJobTests.shell(
                ["Scripts/install", "--binary", SpotsCLI.executable.path, prefix.path], in: SpotsCLI.root)
            try #require(install.status == 0, "\(install.output)")
            let version = try SpotsCLI.run(["--version"]).output.dropLast()
            #expect(install.output == "installed \(version) in \(prefix.path)\n")
            let manager = FileManager.default
            try manager.createDirectory(at: data, withIntermediateDirectories: true)
            try manager.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: prefix.appendingPathComponent("share/spots/cron/helsinki.json"), to: pipeline)
        }

        /// The installed crontab's command, its /var folders moved into the temporary folder.
        func cronCommand(url: String? = nil) throws -> String {
            let crontab = try String(
                contentsOf: prefix.appendingPathComponent("share/spots/cron/crontab"), encoding: .utf8)
            let line = try #require(crontab.split(separator: "\n").first { !$0.hasPrefix("#") })
            var words = line.split(separator: " ").dropFirst(5).map {
                $0.replacingOccurrences(of: "/var/lib/spots", with: data.path)
                    .replacingOccurrences(of: "/var/log/spots", with: log.deletingLastPathComponent().path)
            }
            if let url { words[1] = url }
            return words.joined(separator: " ")
        }

        /// Runs the crontab's command as cron does (sh -c, PATH=/usr/bin:/bin, nothing else) and
        /// returns its exit code and the lines it appended to the log, as JSON objects.
        func runCron(url: String? = nil) throws -> (status: Int32, lines: [[String: Any]]) {
            let before = (try? String(contentsOf: log, encoding: .utf8))?.count ?? 0
            let run = try NightlyJobTests.shell(["/bin/sh", "-c", try cronCommand(url: url)], cron: true)
            let text = try String(contentsOf: log, encoding: .utf8)
            return (run.status, try RefreshMonitoringTests.objects(String(text.dropFirst(before))))
        }

        /// NAME.status.json beside the index.
        func status() throws -> [String: Any] {
            let data = try Data(contentsOf: data.appendingPathComponent("helsinki.status.json"))
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        /// The metrics the sample pipeline names (helsinki.prom beside it).
        func metrics() throws -> PrometheusText {
            try PrometheusText(String(contentsOf: data.appendingPathComponent("helsinki.prom"), encoding: .utf8))
        }
    }

    /// Runs `command` (its output and errors together), in `folder` when given; `cron` gives it
    /// cron's environment: PATH=/usr/bin:/bin and nothing else.
    static func shell(_ command: [String], in folder: URL? = nil, cron: Bool = false) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = cron ? ["-i", "PATH=/usr/bin:/bin", "HOME=/tmp"] + command : command
        if let folder { process.currentDirectoryURL = folder }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("install puts spots, its man page and completions in PREFIX, generated from the option tables")
    func installs() throws {
        let installed = try Installed()
        defer { installed.folder.remove() }
        let share = installed.prefix.appendingPathComponent("share")
        let man = try String(contentsOf: share.appendingPathComponent("man/man1/spots.1"), encoding: .utf8)
        #expect(man.hasPrefix(".TH SPOTS 1 "))
        #expect(man == (try SpotsCLI.run(["help", "--man"])).output)
        let bash = share.appendingPathComponent("bash-completion/completions/spots").path
        let zsh = try String(contentsOf: share.appendingPathComponent("zsh/site-functions/_spots"), encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef spots\n"))
        for option in ["--record-failure", "--input", "--accept-drop", "--max-drop", "--tiles-dir"] {
            #expect(man.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(option) in the man page")
            #expect(zsh.contains("'\(option)["), "\(option) in the zsh completions")
        }
        let completed = try Self.shell([
            "/bin/bash", "-c",
            "source \"$0\"; COMP_WORDS=(spots refresh --log-format ''); COMP_CWORD=3; _spots; echo \"${COMPREPLY[*]}\"",
            bash,
        ])
        #expect(completed == (0, "text json\n"))
        for tool in ["bin/spots", "bin/spots-refresh-city"] {
            #expect(FileManager.default.isExecutableFile(atPath: installed.prefix.appendingPathComponent(tool).path))
        }
        let crontab = try installed.cronCommand()
        #expect(crontab.hasPrefix(installed.prefix.path + "/bin/spots-refresh-city file://" + installed.prefix.path))
    }

    @Test("the installed crontab line publishes the sample, then finds it unchanged; a log of JSON lines")
    func cronLine() throws {
        let installed = try Installed()
        defer { installed.folder.remove() }
        let first = try installed.runCron()
        #expect(first.status == 0)
        #expect(first.lines.first?["event"] as? String == "download")
        #expect(first.lines.contains { $0["event"] as? String == "result" && $0["outcome"] as? String == "published" })
        #expect(first.lines.last?["outcome"] as? String == "published" && first.lines.last?["spots"] as? Int == 776)
        let sample = SpotsCLI.root.appendingPathComponent("Samples/helsinki-center.osm.gz")
        #expect(FileManager.default.contentsEqual(atPath: installed.input.path, andPath: sample.path))
        #expect(try installed.status()["outcome"] as? String == "published")
        #expect(try installed.metrics().value("spots_refresh_spots") == 776)
        let second = try installed.runCron()
        #expect(second.status == 0 && second.lines.last?["outcome"] as? String == "unchanged")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: installed.data.path)
            .filter { $0.contains(".download.") }
        #expect(leftovers.isEmpty, "no download left behind")
    }

    @Test("a failed download and a cut one end as failed in the status, the metrics and the log; the input stays")
    func failures() throws {
        let installed = try Installed()
        defer { installed.folder.remove() }
        try #require(try installed.runCron().status == 0)
        let good = try Data(contentsOf: installed.input)
        let absent = installed.folder.url.appendingPathComponent("absent.osm.gz").absoluteString
        let missing = try installed.runCron(url: absent)
        #expect(missing.status == 69)
        let reason = "\(absent): download failed (curl exit 37)"
        let result = try #require(missing.lines.first { $0["event"] as? String == "result" })
        #expect(result["outcome"] as? String == "failed" && result["exit_code"] as? Int == 69)
        #expect(result["reason"] as? String == reason)
        #expect(
            missing.lines.last?["outcome"] as? String == "failed" && missing.lines.last?["message"] as? String == reason
        )
        var status = try installed.status()
        #expect(status["outcome"] as? String == "failed" && status["reason"] as? String == reason)
        #expect(status["exit_code"] as? Int == 69 && status["spots"] as? Int == 776)
        var metrics = try installed.metrics()
        #expect(
            metrics.metrics["spots_refresh_outcome"]?.samples.first { $0.labels["outcome"] == "failed" }?.value == 1)
        #expect(metrics.metrics["spots_refresh_failure_info"]?.samples.first?.labels["reason"] == reason)

        let cut = installed.folder.url.appendingPathComponent("cut.osm.gz")
        try good.prefix(1000).write(to: cut)
        let truncated = try installed.runCron(url: cut.absoluteString)
        #expect(truncated.status == 65)
        status = try installed.status()
        let download = try #require((status["reason"] as? String)?.split(separator: ":").first)
        #expect(download.hasPrefix(installed.input.path + ".download."), "the download, not the kept input")
        #expect(status["outcome"] as? String == "failed" && status["exit_code"] as? Int == 65)
        #expect((status["reason"] as? String)?.hasSuffix(": byte 1000: truncated gzip stream") == true)
        metrics = try installed.metrics()
        #expect(
            metrics.metrics["spots_refresh_outcome"]?.samples.first { $0.labels["outcome"] == "failed" }?.value == 1)
        #expect(try Data(contentsOf: installed.input) == good, "yesterday's good input is kept")
        #expect(
            try SpotsCLI.run(["inspect", installed.data.appendingPathComponent("helsinki.spots").path]).status == 0)
    }

    @Test("a download the gates refuse is kept as INPUT.rejected; the input and the index stay")
    func refusedDownload() throws {
        let installed = try Installed()
        defer { installed.folder.remove() }
        try #require(try installed.runCron().status == 0)
        let good = try Data(contentsOf: installed.input)
        let small = installed.folder.url.appendingPathComponent("small.osm")
        try cityXML(cafes: 600, restaurants: 0).write(to: small, atomically: true, encoding: .utf8)
        let refused = try installed.runCron(url: small.absoluteString)
        #expect(refused.status == 3)
        let summary = try #require(refused.lines.last)
        #expect(summary["outcome"] as? String == "refused" && summary["spots"] as? Int == 776)
        let kept = try #require(summary["refused"] as? [String: Any])
        #expect(
            kept["spots"] as? Int == 600 && (kept["index"] as? String)?.hasSuffix("helsinki.rejected.spots") == true)
        #expect(try Data(contentsOf: installed.input) == good)
        let rejectedInput = installed.input.path + ".rejected"
        #expect(FileManager.default.contentsEqual(atPath: rejectedInput, andPath: small.path))
    }

    @Test("without spots on PATH or beside it, the wrapper prints one JSON line naming SPOTS and exits 69")
    func noSpots() throws {
        try withTemporaryFolder { folder in
            let wrapper = folder.path("refresh-city.sh")
            try FileManager.default.copyItem(
                atPath: SpotsCLI.root.appendingPathComponent("Samples/cron/refresh-city.sh").path, toPath: wrapper)
            let run = try Self.shell([wrapper, "file:///absent.osm.gz", folder.path("city.json")], cron: true)
            #expect(run.status == 69)
            let lines = run.output.split(separator: "\n")
            #expect(lines.count == 1)
            let line = try #require(RefreshMonitoringTests.objects(run.output).first)
            #expect(line["event"] as? String == "result" && line["outcome"] as? String == "failed")
            #expect(line["exit_code"] as? Int == 69)
            #expect(
                line["message"] as? String == "spots not found on PATH nor beside \(wrapper): set SPOTS to its path")
        }
    }
}
