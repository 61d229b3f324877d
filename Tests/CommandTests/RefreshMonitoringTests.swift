import Foundation
import SpotTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What an operator watches (docs/refresh.md): JSON logs with a result line, the
/// status file, Prometheus metrics, the hold after a rollback, and accepting a reviewed drop.
@Suite("spots refresh: logs, status, metrics, hold and accepted drops")
struct RefreshMonitoringTests {
    /// The JSON objects of a JSON log, one a line; fails on a line that is not one.
    static func objects(_ log: String) throws -> [[String: Any]] {
        try log.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    static func status(_ folder: RefreshFolder) throws -> [String: Any] {
        let data = try #require(folder.contents(folder.url.appendingPathComponent("out/city.status.json")))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(
        "a refused run: every stderr line is JSON, the last the result; stdout one JSON line; the report in NAME.rejected.json"
    )
    func refusedRunLog() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 30, restaurants: 30)
        #expect(try folder.refresh(["--log-format", "json"]).status == 0)
        try folder.writeInput(cafes: 20, restaurants: 30)
        let run = try folder.refresh(["--log-format", "json"])
        #expect(run.status == 3)
        let lines = try Self.objects(run.stderr)
        #expect(lines.allSatisfy { $0["time"] is String && $0["level"] is String && $0["event"] is String })
        let result = try #require(lines.last)
        #expect(result["event"] as? String == "result" && result["outcome"] as? String == "refused")
        #expect(result["exit_code"] as? Int == 3)
        #expect(lines.contains { $0["event"] as? String == "failure" && $0["level"] as? String == "error" })
        let report = folder.url.appendingPathComponent("out/city.rejected.json")
        #expect(
            lines.contains { ($0["message"] as? String)?.hasSuffix("city.rejected.json") == true }, "named in the log")
        let summary = try Self.objects(run.output)
        #expect(summary.count == 1 && summary[0]["outcome"] as? String == "refused")
        let reportData = try #require(folder.contents(report))
        let json = try #require(JSONSerialization.jsonObject(with: reportData) as? [String: Any])
        let index = try #require(json["index"] as? [String: Any])
        #expect(index["file"] as? String == folder.output.path, "titled with the output it would have replaced")
        let status = try Self.status(folder)
        #expect(status["outcome"] as? String == "refused" && status["exit_code"] as? Int == 3)
        #expect((status["gate_failures"] as? [String])?.isEmpty == false)
    }

    @Test("the status file and the metrics follow every run; the metrics parse as Prometheus text")
    func statusAndMetrics() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        let metrics = folder.url.appendingPathComponent("out/spots.prom")
        #expect(try folder.refresh(["--metrics", metrics.path]).status == 0)
        let status = try Self.status(folder)
        #expect(status["outcome"] as? String == "published" && status["spots"] as? Int == 20)
        let inputs = try #require(status["inputs"] as? [[String: Any]])
        #expect(inputs.count == 1 && (inputs[0]["sha256"] as? String)?.count == 64)
        #expect(status["held"] as? Bool == false && status["last_success"] is String)
        let metricsData = try #require(folder.contents(metrics))
        let text = String(decoding: metricsData, as: UTF8.self)
        let parsed = try PrometheusText(text)
        for name in [
            "last_run_timestamp_seconds", "last_success_timestamp_seconds", "duration_seconds", "spots", "outcome",
            "gate_failures",
        ] {
            let metric = try #require(parsed.metrics["spots_refresh_" + name], "\(name)")
            #expect(metric.type == "gauge" && !metric.help.isEmpty)
            #expect(metric.samples.allSatisfy { $0.labels["pipeline"] == "city" })
        }
        #expect(parsed.value("spots_refresh_spots") == 20)
        let outcomes = parsed.metrics["spots_refresh_outcome"]!.samples
        #expect(outcomes.count == 8 && outcomes.map(\.value).reduce(0, +) == 1)
        #expect(outcomes.first { $0.value == 1 }?.labels["outcome"] == "published")
        #expect((parsed.value("spots_refresh_last_run_timestamp_seconds") ?? 0) > 1.7e9)
        let before = parsed.value("spots_refresh_last_success_timestamp_seconds")
        // A failed run: the status and the metrics say so, the last success stays.
        try "<osm><node id=\"1\"".write(to: folder.input, atomically: true, encoding: .utf8)
        #expect(try folder.refresh(["--metrics", metrics.path]).status == 65)
        let failedData = try #require(folder.contents(metrics))
        let failed = try PrometheusText(String(decoding: failedData, as: UTF8.self))
        #expect(failed.metrics["spots_refresh_outcome"]!.samples.first { $0.value == 1 }?.labels["outcome"] == "failed")
        #expect(failed.value("spots_refresh_last_success_timestamp_seconds") == before)
        #expect(try Self.status(folder)["exit_code"] as? Int == 65)
    }

    @Test("the pipeline's metrics key names the metrics file, relative to the pipeline file; an empty one is refused")
    func metricsKey() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        let settings =
            #"{"inputs": ["city.osm"], "output": "out/city.spots", "gates": {"min_spots": 5, "max_drop": 0.2}, "metrics": "out/textfile/spots.prom"}"#
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("out/textfile"), withIntermediateDirectories: true)
        try settings.write(toFile: folder.pipeline, atomically: true, encoding: .utf8)
        #expect(try folder.refresh().status == 0)
        let data = try #require(folder.contents(folder.url.appendingPathComponent("out/textfile/spots.prom")))
        #expect(try PrometheusText(String(decoding: data, as: UTF8.self)).value("spots_refresh_spots") == 20)
        try settings.replacingOccurrences(of: "out/textfile/spots.prom", with: "")
            .write(toFile: folder.pipeline, atomically: true, encoding: .utf8)
        let refused = try folder.refresh()
        #expect(refused.status == 78 && refused.stderr.contains(".metrics"))
    }

    @Test("two runs at once: the second logs locked as JSON and exits 75")
    func locked() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        let descriptor = open(folder.url.appendingPathComponent("out/.city.spots.lock").path, O_RDWR | O_CREAT, 0o666)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let run = try folder.refresh(["--log-format", "json"])
        #expect(run.status == 75)
        let logged = try Self.objects(run.stderr)
        let result = try #require(logged.last)
        #expect(result["outcome"] as? String == "locked" && result["exit_code"] as? Int == 75)
        #expect(try Self.status(folder)["outcome"] as? String == "locked")
    }

    @Test("--rollback holds: later runs log held, exit 0 and build nothing, until --resume (or --force) lifts it")
    func holdAndResume() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        #expect(try folder.refresh().status == 0)
        try folder.writeInput(cafes: 12, restaurants: 10)
        #expect(try folder.refresh().status == 0)
        #expect(try folder.refresh(["--rollback"]).status == 0)
        #expect(try Self.status(folder)["held"] as? Bool == true)
        let rolledBack = try #require(folder.contents(folder.output))
        let held = try folder.refresh(["--log-format", "json"])
        #expect(held.status == 0)
        let lines = try Self.objects(held.stderr)
        #expect(lines.last?["outcome"] as? String == "held")
        #expect(!lines.contains { $0["stage"] as? String == "build" })
        #expect(folder.contents(folder.output) == rolledBack, "nothing was built")
        let resumed = try folder.refresh(["--resume", "--log-format", "json"])
        #expect(resumed.status == 0)
        #expect(try Self.objects(resumed.stderr).last?["outcome"] as? String == "resumed")
        #expect(try Self.status(folder)["held"] as? Bool == false)
        #expect(folder.contents(folder.output) != rolledBack, "the new input was built and published")
        #expect(try folder.refresh(["--rollback"]).status == 0)
        let forced = try folder.refresh(["--force"])
        #expect(forced.status == 0 && forced.output.hasPrefix("published: "))
        #expect(try Self.status(folder)["held"] as? Bool == false, "--force lifts the hold too")
    }

    @Test("--accept-drop publishes the refused build when the inputs are as built, else a new build past the drop gate")
    func acceptDrop() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 30, restaurants: 30)
        #expect(try folder.refresh().status == 0)
        try folder.writeInput(cafes: 20, restaurants: 30)
        #expect(try folder.refresh().status == 3)
        let refused = try #require(folder.contents(folder.generation("rejected")))
        let accepted = try folder.refresh(["--accept-drop", "--log-format", "json"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let lines = try Self.objects(accepted.stderr)
        #expect(!lines.contains { $0["stage"] as? String == "build" }, "the refused build itself, not rebuilt")
        #expect(lines.contains { $0["event"] as? String == "drop_gate_overridden" })
        #expect(folder.contents(folder.output) == refused)
        let status = try Self.status(folder)
        #expect(status["outcome"] as? String == "published" && status["drop_gate_overridden"] as? Bool == true)
        // Refused again, then the input changes: a new build is published past the drop gate.
        try folder.writeInput(cafes: 10, restaurants: 30)
        #expect(try folder.refresh().status == 3)
        try folder.writeInput(cafes: 11, restaurants: 30)
        let rebuilt = try folder.refresh(["--accept-drop", "--log-format", "json"])
        #expect(rebuilt.status == 0)
        #expect(try Self.objects(rebuilt.stderr).contains { $0["stage"] as? String == "build" })
        #expect(try Self.status(folder)["spots"] as? Int == 41)
        // Never below min_spots (5).
        try folder.writeInput(cafes: 1, restaurants: 1)
        let tooFew = try folder.refresh(["--accept-drop"])
        #expect(tooFew.status == 3 && tooFew.stderr.contains("min_spots"))
    }
}

/// The Prometheus text exposition format, read strictly enough for a test: `# HELP` and
/// `# TYPE` before each metric's samples, `name{label="value",…} number`.
struct PrometheusText {
    struct Metric {
        var help = ""
        var type = ""
        var samples: [(labels: [String: String], value: Double)] = []
    }

    private(set) var metrics: [String: Metric] = [:]

    init(_ text: String) throws {
        for line in text.split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if line.hasPrefix("# HELP ") {
                metrics[words[2], default: Metric()].help = words.count > 3 ? words[3] : ""
            } else if line.hasPrefix("# TYPE ") {
                metrics[words[2], default: Metric()].type = words[3]
            } else {
                let name = String(line.prefix { $0 != "{" && $0 != " " })
                try #require(metrics[name]?.type.isEmpty == false, "a sample before its TYPE: \(line)")
                let labels = try Self.labels(line)
                let value = try #require(Double(String(line.split(separator: " ").last!)), "\(line)")
                metrics[name]!.samples.append((labels, value))
            }
        }
    }

    /// The labels of a sample line, `name{key="value",…} number`: values are quoted, with `\\`,
    /// `\"` and `\n` escaped, and may hold commas and braces.
    private static func labels(_ line: String) throws -> [String: String] {
        guard let open = line.firstIndex(of: "{") else { return [:] }
        var labels: [String: String] = [:]
        var rest = line[line.index(after: open)...]
        while let equals = rest.firstIndex(of: "="), rest.first != "}" {
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            let quote = rest.popFirst()
            try #require(quote == "\"", "a label value opens with a quote: \(line)")
            var value = ""
            while let character = rest.popFirst(), character != "\"" {
                guard character == "\\" else {
                    value.append(character)
                    continue
                }
                let next = rest.popFirst()
                let escaped = try #require(next, "an escape at the end: \(line)")
                value.append(escaped == "n" ? "\n" : escaped)
            }
            labels[key] = value
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return labels
    }

    /// The value of `name`'s one sample.
    func value(_ name: String) -> Double? { metrics[name]?.samples.first?.value }
}

/// Samples/cron's wrapper as its crontab line runs it: stdout and stderr appended to one log.
@Suite(
    "Samples/cron/refresh-city.sh: a log of JSON lines throughout",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
        "curl is absent: the cron wrapper's test skipped"))
struct CronWrapperTests {
    /// Runs the wrapper on `url` for a pipeline reading `city.osm.gz` in `folder`, as the
    /// crontab does (`>>log 2>&1`); returns its exit code and the log's lines as JSON objects.
    static func runWrapper(_ url: String, in folder: RefreshFolder) throws -> (status: Int32, lines: [[String: Any]]) {
        let log = folder.url.appendingPathComponent("city.log").path
        let script = SpotsCLI.root.appendingPathComponent("Samples/cron/refresh-city.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" \"$1\" \"$2\" >>\"$3\" 2>&1", script, url, folder.pipeline, log]
        process.environment = ProcessInfo.processInfo.environment.merging(["SPOTS": SpotsCLI.executable.path]) { $1 }
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOfFile: log, encoding: .utf8)
        return (process.terminationStatus, try RefreshMonitoringTests.objects(text))
    }

    @Test(
        "a download, a refresh, and failures (a missing download, a cut gzip) all log JSON lines ending with the summary"
    )
    func jsonLines() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try #"{"inputs": ["city.osm.gz"], "output": "out/city.spots", "gates": {"min_spots": 1, "max_drop": 0.5}}"#
            .write(toFile: folder.pipeline, atomically: true, encoding: .utf8)
        let sample = SpotsCLI.root.appendingPathComponent("Samples/helsinki-center.osm.gz")
        let published = try Self.runWrapper(sample.absoluteString, in: folder)
        #expect(published.status == 0)
        #expect(published.lines.contains { $0["event"] as? String == "download" })
        #expect(
            published.lines.contains { $0["event"] as? String == "result" && $0["outcome"] as? String == "published" })
        #expect(published.lines.last?["outcome"] as? String == "published", "the summary line ends the run")
        let missing = try Self.runWrapper(folder.url.appendingPathComponent("absent.osm.gz").absoluteString, in: folder)
        #expect(missing.status == 69)
        #expect(missing.lines.contains { $0["event"] as? String == "result" && $0["exit_code"] as? Int == 69 })
        #expect(missing.lines.last?["outcome"] as? String == "failed" && missing.lines.last?["exit_code"] as? Int == 69)
        let cut = folder.url.appendingPathComponent("cut.osm.gz")
        try Data(try Data(contentsOf: sample).prefix(1000)).write(to: cut)
        let truncated = try Self.runWrapper(cut.absoluteString, in: folder)
        #expect(truncated.status == 65)
        #expect(truncated.lines.contains { $0["event"] as? String == "failure" && $0["level"] as? String == "error" })
    }
}
