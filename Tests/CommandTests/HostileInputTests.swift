import Foundation
import SpotTestSupport
import Testing

/// One damaged or hostile file and the command run on it, from Tests/Fixtures/damaged/manifest.json.
struct DamagedFixture: CustomTestStringConvertible, Sendable {
    let entry: Int

    static let folder = SpotsCLI.root.appendingPathComponent("Tests/Fixtures/damaged")
    nonisolated(unsafe) private static let manifest: [[String: Any]] = {
        let url = folder.appendingPathComponent("manifest.json")
        return (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [[String: Any]] ?? []
    }()
    static let all = manifest.indices.map(DamagedFixture.init)

    var json: [String: Any] { Self.manifest[entry] }
    var path: String { Self.folder.appendingPathComponent(json["file"] as! String).path }
    var command: [String] { json["command"] as! [String] }
    var testDescription: String { "\(json["file"]!) \(command.joined(separator: " "))" }
}

/// Whether this build runs under ThreadSanitizer (`swift test --sanitize=thread`), whose runtime
/// is linked into the test process and into `spots` alike.
private let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

@Suite("Damaged and hostile input: a clear one-line error, never a crash, nothing left behind")
struct HostileInputTests {
    @Test("the manifest lists fixtures") func manifestIsNotEmpty() {
        #expect(DamagedFixture.all.count >= 15)
    }

    @Test("each fixture gives its expected exit code and message", arguments: DamagedFixture.all)
    func expectedOutcome(_ fixture: DamagedFixture) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("out.spots")
        var arguments = [fixture.command[0], fixture.path] + fixture.command.dropFirst()
        if fixture.command[0] == "build" { arguments += ["-o", output, "--quiet"] }
        let run = try SpotsCLI.run(arguments)
        let exit = (fixture.json["exit"] as! NSNumber).int32Value
        #expect(run.status == exit, "\(run.stderr)")
        if let message = fixture.json["message"] as? String {
            #expect(run.stderr.split(separator: "\n").count == 1, "one error line, got: \(run.stderr)")
            #expect(run.stderr.hasPrefix("spots: \(fixture.path): "))
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
        if exit != 0 {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "nothing left behind")
        }
    }

    @Test("a gzip bomb (256 MiB of white space in 1 MB) is read in bounded memory, not refused")
    func gzipBombInBoundedMemory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bomb = folder.path("bomb.osm.gz")
        let make = try shell(
            "(printf '<osm version=\"0.6\">'; head -c 268435456 /dev/zero | tr '\\0' ' '; printf '</osm>\\n') | gzip -1 > '\(bomb)'"
        )
        try #require(make == 0)
        let run = try spawnMeasured(["build", bomb, "-o", folder.path("out.spots"), "--quiet"])
        #expect(run.status == 0)
        // The ring is at most 64 MiB; the process stays far below the 256 MiB it inflates (about
        // 50 MiB). ThreadSanitizer's shadow memory more than doubles that, so it is not measured there.
        if !underThreadSanitizer {
            #expect(run.peakKiB > 0 && run.peakKiB < 128 * 1024, "peak RSS \(run.peakKiB / 1024) MiB")
        }
    }

    @Test(
        "a full disk (a file-size limit, SIGXFSZ ignored): exit 74, old output intact, no temporary file",
        .disabled(
            if: underThreadSanitizer,
            "ThreadSanitizer's runtime dies of SIGBUS under a file-size limit, before any code of Spots runs (even `spots --help`)"
        ))
    func fullDiskKeepsOldOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("out.spots")
        try Data("old index".utf8).write(to: URL(fileURLWithPath: output))
        let sample = SpotsCLI.root.appendingPathComponent("Samples/himeji-castle.osm").path
        let errors = folder.path("stderr")
        let status = try shell(
            "trap '' XFSZ; ulimit -f 8; exec '\(SpotsCLI.executable.path)' build '\(sample)' -o '\(output)' -O --quiet 2>'\(errors)'"
        )
        #expect(status == 74)
        let message = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(message.hasPrefix("spots: \(output): File too large"), "\(message)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old index")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["out.spots", "stderr"])
    }

    @Test("an I/O error while reading the input: exit 74 naming it")
    func readError() throws {
        // Reading /proc/self/mem at offset 0 (unmapped) fails with EIO.
        let run = try SpotsCLI.run(["build", "/proc/self/mem", "-o", "/tmp/never.spots", "--quiet"])
        #expect(run.status == 74)
        #expect(run.stderr == "spots: /proc/self/mem: byte 0: Input/output error\n")
    }

    @Test(
        "SIGTERM and SIGINT during a build: ended by the signal, temporary file removed, old output intact",
        arguments: [SIGTERM, SIGINT])
    func signalDuringBuild(_ signalNumber: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("out.spots")
        try Data("old index".utf8).write(to: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = SpotsCLI.executable
        process.arguments = ["build", "-", "-o", output, "-O", "--quiet"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        // The build waits for more of standard input, its temporary file open.
        input.fileHandleForWriting.write(Data("<osm version=\"0.6\">\n".utf8))
        let deadline = Date().addingTimeInterval(20)
        while try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count < 2 && Date() < deadline {
            usleep(20_000)
        }
        try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 2,
            "no temporary file appeared")
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signalNumber)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.spots"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old index")
    }

    @Test("standard input that ends early or is closed: one error line, nothing written")
    func standardInputEndsEarly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("out.spots")
        let sample = try Data(contentsOf: SpotsCLI.root.appendingPathComponent("Samples/helsinki-center.osm.gz"))
        let cut = try SpotsCLI.run(["build", "-", "-o", output, "--quiet"], stdin: sample.prefix(sample.count / 2))
        #expect(cut.status == 65)
        #expect(cut.stderr.hasPrefix("spots: -: byte \(sample.count / 2): truncated gzip stream"))
        let closed = try shell("exec '\(SpotsCLI.executable.path)' build - -o '\(output)' --quiet <&- 2>/dev/null")
        #expect(closed != 0 && closed < 128)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("an output pipe closed early (export | head -1): no error output, no crash")
    func outputPipeClosedEarly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let index = folder.path("out.spots")
        let sample = SpotsCLI.root.appendingPathComponent("Samples/helsinki-center.osm.gz").path
        try #require(try SpotsCLI.run(["build", sample, "-o", index, "--quiet", "--keep-all"]).status == 0)
        let errors = folder.path("stderr")
        let report = folder.path("status")
        // bash: PIPESTATUS gives the status of spots itself; 141 is death by SIGPIPE, as cat has.
        let status = try shell(
            "'\(SpotsCLI.executable.path)' export '\(index)' 2>'\(errors)' | head -1 >/dev/null; echo ${PIPESTATUS[0]} > '\(report)'",
            shell: "/bin/bash")
        #expect(status == 0)
        let spotsStatus = try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(spotsStatus == "141" || spotsStatus == "0")
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "")
    }

    /// Runs `script` with `shell -c` and returns its exit status.
    private func shell(_ script: String, shell: String = "/bin/sh") throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `spots` with `arguments` and returns its exit status and peak resident memory: the
    /// kernel's high-water mark of its own memory (VmHWM), read every 20 ms until it exits.
    /// (`wait4`'s `ru_maxrss` will not do: Linux carries the parent's peak over into a child.)
    private func spawnMeasured(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int) {
        let process = Process()
        process.executableURL = SpotsCLI.executable
        process.arguments = arguments
        try process.run()
        let status = "/proc/\(process.processIdentifier)/status"
        var peak = 0
        while process.isRunning {
            let text = (try? String(contentsOfFile: status, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kiB = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            {
                peak = max(peak, kiB)
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        return (process.terminationStatus, peak)
    }
}
