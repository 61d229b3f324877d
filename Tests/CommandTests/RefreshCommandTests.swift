import Foundation
import SpotTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A folder with a pipeline file for `spots refresh`: input `city.osm`, output `out/city.spots`.
struct RefreshFolder {
    let folder: TemporaryFolder
    var url: URL { folder.url }
    var pipeline: String { url.appendingPathComponent("city.json").path }
    var input: URL { url.appendingPathComponent("city.osm") }
    var output: URL { url.appendingPathComponent("out/city.spots") }
    func generation(_ name: String) -> URL { url.appendingPathComponent("out/city.\(name).spots") }

    init(keep: Int = 3) throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("out"), withIntermediateDirectories: true)
        let settings =
            #"{"inputs": ["city.osm"], "output": "out/city.spots", "gates": {"min_spots": 5, "max_drop": 0.2}, "keep": \#(keep)}"#
        try settings.write(toFile: pipeline, atomically: true, encoding: .utf8)
    }

    /// Writes an input of `cafes` cafés and `restaurants` restaurants, their ids from `firstID`.
    func writeInput(cafes: Int, restaurants: Int, firstID: Int = 1) throws {
        let xml = cityXML(cafes: cafes, restaurants: restaurants, firstID: firstID)
        try xml.write(to: input, atomically: true, encoding: .utf8)
    }

    func refresh(_ flags: [String] = []) throws -> SpotsCLI.Run {
        try SpotsCLI.run(["refresh", "--pipeline", pipeline] + flags)
    }

    func contents(_ file: URL) -> Data? { try? Data(contentsOf: file) }

    func remove() { folder.remove() }
}

@Suite("spots refresh: the nightly job that never publishes a bad index")
struct RefreshCommandTests {
    @Test(
        "a first refresh publishes; a second with the same inputs says unchanged and rebuilds nothing; --force rebuilds"
    )
    func publishesThenSkips() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        let first = try folder.refresh()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.output.hasPrefix("published: "))
        let published = try #require(folder.contents(folder.output))
        let second = try folder.refresh()
        #expect(second.status == 0)
        #expect(second.output.hasPrefix("unchanged: "))
        #expect(!second.stderr.contains("build"))
        #expect(!FileManager.default.fileExists(atPath: folder.generation("1").path))
        let forced = try folder.refresh(["--force"])
        #expect(forced.status == 0 && forced.output.hasPrefix("published: "))
        #expect(folder.contents(folder.generation("1")) == published)
        #expect(folder.contents(folder.output) == published, "the same inputs give the same bytes")
    }

    @Test("a build whose cafés fell by a third is refused with exit 3, kept as NAME.rejected.spots, the diff on stdout")
    func gateRefuses() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 30, restaurants: 30)
        #expect(try folder.refresh().status == 0)
        let published = try #require(folder.contents(folder.output))
        try folder.writeInput(cafes: 20, restaurants: 30)
        let refused = try folder.refresh()
        #expect(refused.status == 3)
        #expect(folder.contents(folder.output) == published, "the published index is untouched")
        #expect(FileManager.default.fileExists(atPath: folder.generation("rejected").path))
        #expect(refused.output.contains("cafe"), "the report diff explains the refusal")
        let errorLines = refused.stderr.split(separator: "\n").filter { $0.hasPrefix("spots: ") }
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.contains("cafe") == true)
    }

    @Test("fewer spots than gates.min_spots are refused")
    func minimumSpots() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 2, restaurants: 2)
        let refused = try folder.refresh()
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("min_spots"))
        #expect(!FileManager.default.fileExists(atPath: folder.output.path))
    }

    @Test("generations are kept up to `keep`, and --rollback makes the previous one current again")
    func generationsAndRollback() throws {
        let folder = try RefreshFolder(keep: 3)
        defer { folder.remove() }
        var versions: [Data] = []
        for first in [1, 1001, 2001, 3001] {
            try folder.writeInput(cafes: 10, restaurants: 10, firstID: first)
            #expect(try folder.refresh().status == 0)
            versions.append(try #require(folder.contents(folder.output)))
        }
        #expect(folder.contents(folder.generation("1")) == versions[2])
        #expect(folder.contents(folder.generation("2")) == versions[1])
        #expect(
            !FileManager.default.fileExists(atPath: folder.generation("3").path),
            "keep 3: the current one and two before")
        let rollback = try folder.refresh(["--rollback"])
        #expect(rollback.status == 0, "\(rollback.stderr)")
        #expect(folder.contents(folder.output) == versions[2])
        #expect(folder.contents(folder.generation("rolledback")) == versions[3])
        #expect(folder.contents(folder.generation("1")) == versions[1])
        #expect(try folder.refresh(["--rollback"]).status == 0)
        let nothingLeft = try folder.refresh(["--rollback"])
        #expect(nothingLeft.status == 66)
        #expect(folder.contents(folder.output) == versions[1])
    }

    @Test("while another process holds the lock, a refresh exits 75 at once naming its pid")
    func lockHeldElsewhere() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        let lockPath = folder.url.appendingPathComponent("out/.city.spots.lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o666)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let pid = Array("4242\n".utf8)
        _ = pwrite(descriptor, pid, pid.count, 0)
        let blocked = try folder.refresh()
        #expect(blocked.status == 75)
        #expect(blocked.stderr.contains("pid 4242"))
        #expect(!FileManager.default.fileExists(atPath: folder.output.path))
        flock(descriptor, LOCK_UN)
        #expect(try folder.refresh().status == 0, "the lock is free again")
    }

    @Test(
        "two refreshes started together: one publishes, the other exits 75 (or, started after, finds the inputs unchanged)"
    )
    func twoAtOnce() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: helsinki), to: folder.url.appendingPathComponent("city.osm.gz"))
        try #"{"inputs": ["city.osm.gz"], "output": "out/city.spots", "gates": {"min_spots": 5}}"#.write(
            toFile: folder.pipeline, atomically: true, encoding: .utf8)
        let other = Process()
        other.executableURL = SpotsCLI.executable
        other.arguments = ["refresh", "--pipeline", folder.pipeline]
        other.standardOutput = FileHandle.nullDevice
        other.standardError = FileHandle.nullDevice
        try other.run()
        let this = try folder.refresh()
        other.waitUntilExit()
        let statuses = [this.status, other.terminationStatus].sorted()
        #expect(statuses == [0, 0] || statuses == [0, 75], "\(statuses): \(this.stderr)")
        #expect(try SpotsCLI.run(["inspect", folder.output.path]).status == 0)
    }

    @Test(
        "a refresh killed with SIGKILL mid-build leaves the published index intact; the next run cleans up and succeeds"
    )
    func killedMidBuild() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        #expect(try folder.refresh().status == 0)
        let published = try #require(folder.contents(folder.output))
        try FileManager.default.removeItem(at: folder.input)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: helsinki), to: folder.url.appendingPathComponent("city.osm.gz"))
        try #"{"inputs": ["city.osm.gz"], "output": "out/city.spots", "gates": {"min_spots": 5, "max_drop": 1}}"#.write(
            toFile: folder.pipeline, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = SpotsCLI.executable
        process.arguments = ["refresh", "--pipeline", folder.pipeline]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let current = try #require(folder.contents(folder.output))
        if current != published {
            #expect(
                try SpotsCLI.run(["inspect", folder.output.path]).status == 0, "the published path holds a good index")
        }
        let next = try folder.refresh()
        #expect(next.status == 0, "\(next.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("out").path
        )
        .filter { $0.contains(".tmp.") || $0.contains("candidate") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("a truncated input exits 65 and publishes nothing")
    func truncatedInput() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        #expect(try folder.refresh().status == 0)
        let published = try #require(folder.contents(folder.output))
        let text = try Data(contentsOf: folder.input)
        try text.prefix(text.count / 2).write(to: folder.input)
        let run = try folder.refresh()
        #expect(run.status == 65)
        #expect(folder.contents(folder.output) == published)
    }

    @Test("--log-format json writes one JSON object per line: time, level, event; a stage's duration_s and counts")
    func jsonLog() throws {
        let folder = try RefreshFolder()
        defer { folder.remove() }
        try folder.writeInput(cafes: 10, restaurants: 10)
        let run = try folder.refresh(["--log-format", "json"])
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count >= 6)
        for line in lines {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["time"] is String && object["level"] is String && object["event"] is String)
            if object["event"] as? String == "stage" {
                #expect(
                    object["stage"] is String && object["duration_s"] is NSNumber && object["counts"] is [String: Any])
            }
        }
        #expect(lines.contains { $0.contains("\"stage\":\"publish\"") })
    }

    @Test("usage errors exit 64; a pipeline without an output exits 78")
    func usageErrors() throws {
        #expect(try SpotsCLI.run(["refresh"]).status == 64)
        let folder = try RefreshFolder()
        defer { folder.remove() }
        #expect(try folder.refresh(["--log-format", "xml"]).status == 64)
        try #"{"inputs": ["city.osm"]}"#.write(toFile: folder.pipeline, atomically: true, encoding: .utf8)
        let run = try folder.refresh()
        #expect(run.status == 78)
        #expect(run.stderr.contains(".output"))
    }
}
