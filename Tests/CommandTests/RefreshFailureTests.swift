import Foundation
import SpotTestSupport
import Testing

/// `spots refresh` as the nightly wrapper uses it: a failure recorded for the wrapper
/// (`--record-failure`), a download built before it replaces the input (`--input`), a missing
/// output folder named as the cause, counts that say which index they are of, and an index that
/// records its pipeline file by name, whatever path named it.
@Suite("spots refresh: recorded failures, --input, the output folder, counts and the pipeline's name")
struct RefreshFailureTests {
    @Test("--record-failure: failed with the reason in the status, the metrics and the log; exit 69")
    func recordFailure() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        #expect(try folder.refresh().status == 0)
        let reason = "https://example.org/city.osm.gz: download failed (curl exit 22)"
        let text = try folder.refresh(["--record-failure", reason])
        #expect(text.status == 69 && text.output.isEmpty)
        let lines = text.stderr.split(separator: "\n")
        try #require(lines.count == 2, "\(text.stderr)")
        #expect(lines[0].hasSuffix("  result  failed  exit 69"))
        #expect(lines.last == "spots: \(reason)")
        let metrics = folder.url.appendingPathComponent("out/city.prom")
        let json = try folder.refresh(["--record-failure", reason, "--log-format", "json", "--metrics", metrics.path])
        #expect(json.status == 69)
        let log = try RefreshMonitoringTests.objects(json.stderr)
        try #require(log.map { $0["event"] as? String } == ["failure", "result"], "\(json.stderr)")
        #expect(log[1]["outcome"] as? String == "failed" && log[1]["reason"] as? String == reason)
        #expect(log[1]["exit_code"] as? Int == 69 && log[1]["level"] as? String == "error")
        let summary = try #require(RefreshMonitoringTests.objects(json.output).first)
        #expect(summary["outcome"] as? String == "failed" && summary["message"] as? String == reason)
        let status = try RefreshMonitoringTests.status(folder)
        #expect(status["outcome"] as? String == "failed" && status["reason"] as? String == reason)
        #expect(status["exit_code"] as? Int == 69 && status["spots"] as? Int == 20)
        #expect(status["index"] as? String == folder.output.path)
        let parsed = try PrometheusText(String(decoding: try #require(folder.contents(metrics)), as: UTF8.self))
        #expect(parsed.metrics["spots_refresh_outcome"]?.samples.first { $0.labels["outcome"] == "failed" }?.value == 1)
        let info = try #require(parsed.metrics["spots_refresh_failure_info"]?.samples.first)
        #expect(info.labels == ["pipeline": "city", "reason": reason] && info.value == 1)
        // A run that does not fail clears the reason.
        #expect(try folder.refresh(["--metrics", metrics.path]).status == 0)
        #expect(try RefreshMonitoringTests.status(folder)["reason"] == nil)
        let cleared = try PrometheusText(String(decoding: try #require(folder.contents(metrics)), as: UTF8.self))
        #expect(cleared.metrics["spots_refresh_failure_info"]?.samples.isEmpty == true)
        let empty = try folder.refresh(["--record-failure", ""])
        #expect(empty.status == 64 && empty.stderr.hasPrefix("spots: '--record-failure' needs a reason of one line\n"))
    }

    @Test("--input builds from the named file, leaving the pipeline's input as it was")
    func input() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        #expect(try folder.refresh().status == 0)
        let kept = try #require(folder.contents(folder.input))
        let download = folder.url.appendingPathComponent("city.osm.download")
        try cityXML(cafes: 11, restaurants: 10).write(to: download, atomically: true, encoding: .utf8)
        let run = try folder.refresh(["--input", download.path, "--log-format", "json"])
        #expect(run.status == 0)
        let summary = try #require(RefreshMonitoringTests.objects(run.output).first)
        #expect(summary["outcome"] as? String == "published" && summary["spots"] as? Int == 21)
        #expect(folder.contents(folder.input) == kept, "the input is the caller's to replace")
        let inputs = try #require(RefreshMonitoringTests.status(folder)["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["path"] as? String } == [download.path])
        // The same bytes again are unchanged, whatever file holds them.
        #expect(try folder.refresh(["--input", download.path]).output.hasPrefix("unchanged: "))
        let missing = try folder.refresh(["--input", folder.url.appendingPathComponent("absent.osm").path])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasSuffix("spots: \(folder.url.path)/absent.osm: No such file or directory\n"))
    }

    @Test("a missing output folder is the one error, named as the cause; exit 73")
    func missingOutputFolder() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        try FileManager.default.removeItem(at: folder.output.deletingLastPathComponent())
        let out = folder.url.appendingPathComponent("out").path
        let message = "\(out): the output folder does not exist (the pipeline's \"output\"); create it"
        let text = try folder.refresh()
        #expect(text.status == 73)
        let lines = text.stderr.split(separator: "\n")
        try #require(lines.count == 2, "\(text.stderr)")
        #expect(lines[0].hasSuffix("  result  failed  exit 73"))
        #expect(lines[1] == "spots: " + message)
        let json = try folder.refresh(["--log-format", "json"])
        #expect(json.status == 73)
        let log = try RefreshMonitoringTests.objects(json.stderr)
        try #require(log.map { $0["event"] as? String } == ["failure", "result"], "\(json.stderr)")
        #expect(log[0]["message"] as? String == message && log[1]["reason"] as? String == message)
    }

    @Test("a refused build's summary and the status name the index each count is of")
    func refusedCounts() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 30, restaurants: 30)
        #expect(try folder.refresh().status == 0)
        try folder.writeInput(cafes: 20, restaurants: 30)
        let json = try folder.refresh(["--log-format", "json"])
        #expect(json.status == 3)
        let summary = try #require(RefreshMonitoringTests.objects(json.output).first)
        let rejected = folder.generation("rejected").path
        #expect(summary["spots"] as? Int == 60 && summary["output"] as? String == folder.output.path)
        let status = try RefreshMonitoringTests.status(folder)
        #expect(status["spots"] as? Int == 60 && status["index"] as? String == folder.output.path)
        for refused in [summary["refused"], status["refused"]].map({ $0 as? [String: Any] }) {
            #expect(refused?["index"] as? String == rejected && refused?["spots"] as? Int == 50)
        }
        let text = try folder.refresh()
        #expect(text.status == 3)
        let error = try #require(text.stderr.split(separator: "\n").last)
        #expect(
            error.hasPrefix(
                "spots: \(folder.output.path): not published, kept as \(rejected) (50 spots); "
                    + "the published index keeps 60 spots: "))
    }

    @Test("the index records the pipeline file by name: --force gives the same bytes from a relative or absolute path")
    func pipelineByName() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        #expect(try folder.refresh().status == 0)
        let published = try #require(folder.contents(folder.output))
        let inspect = try SpotsCLI.run(["inspect", folder.output.path])
        #expect(inspect.output.contains("city.json") && !inspect.output.contains(folder.pipeline))
        let relative = try NightlyJobTests.shell(
            [SpotsCLI.executable.path, "refresh", "--pipeline", "city.json"], in: folder.url)
        #expect(relative.status == 0 && relative.output.contains("unchanged: "), "the same pipeline by another path")
        let forced = try NightlyJobTests.shell(
            [SpotsCLI.executable.path, "refresh", "--pipeline", "./city.json", "--force"], in: folder.url)
        #expect(forced.status == 0)
        #expect(folder.contents(folder.output) == published)
    }

    @Test("spots help --man and --completions bash|zsh; any other form is a usage error")
    func helpDocuments() throws {
        let man = try SpotsCLI.run(["help", "--man"])
        #expect(man.status == 0 && man.output.contains(".SS spots refresh\n"))
        #expect(man.output.contains("\\fB\\-\\-record\\-failure\\fR \\fI<reason>\\fR"))
        for shell in ["bash", "zsh"] {
            let run = try SpotsCLI.run(["help", "--completions", shell])
            #expect(run.status == 0 && run.output.contains("--pipeline") && run.output.contains("refresh"))
        }
        let fish = try SpotsCLI.run(["help", "--completions", "fish"])
        #expect(fish.status == 64)
        #expect(
            fish.stderr
                == "spots: '--completions' needs bash or zsh\n"
                + "USAGE: spots help [<subcommand>] | --man | --completions bash|zsh\n")
        let bogus = try SpotsCLI.run(["help", "--bogus"])
        #expect(bogus.status == 64 && bogus.stderr.hasPrefix("spots: unknown option '--bogus'; "))
    }
}
