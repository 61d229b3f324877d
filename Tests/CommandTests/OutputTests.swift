import Foundation
import SpotTestSupport
import Testing

/// The bytes of the file at `path`, or nil.
private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// The type of the file at `path` itself (a link not followed), as `lstat` gives it.
private func fileType(_ path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
}

/// The device number of /dev/null (major 1, minor 3), as glibc's `makedev` makes it.
private let nullDeviceNumber: dev_t = 1 << 8 | 3

/// Whether the kernel lets a test make a character device (a copy of /dev/null) in a temporary
/// folder and write to it: not in most containers without CAP_MKNOD, nor on a nodev mount.
private let canMakeDevices: Bool = {
    guard let folder = try? TemporaryFolder() else { return false }
    defer { folder.remove() }
    let path = folder.path("null")
    guard mknod(path, S_IFCHR | 0o666, nullDeviceNumber) == 0 else { return false }
    let descriptor = open(path, O_WRONLY)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
}()

@Suite("Outputs: inputs, existing files, links, special files")
struct OutputTests {
    @Test("build refuses an input as its output, by path and through a link, and touches nothing")
    func buildInputAsOutput() throws {
        try withTemporaryFolder { folder in
            let input = try folder.write(Array(try #require(bytes(himeji))), to: "h.osm")
            let link = folder.path("link.osm")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
            for (inputs, output) in [([input], input), ([input], link), ([link], input), ([himeji, input], input)] {
                let run = try SpotsCLI.run(["build"] + inputs + ["-o", output, "-O", "-q"])
                #expect(run.status == 64, "\(run.stderr)")
                #expect(run.stderr.hasSuffix("is one of the inputs\n"))
                #expect(run.stderr.split(separator: "\n").count == 1)
            }
            #expect(bytes(input) == bytes(himeji))
            #expect(fileType(link) == S_IFLNK)
        }
    }

    @Test("export refuses its index as its output")
    func exportInputAsOutput() throws {
        try withSmallIndex { _, index in
            let before = bytes(index)
            let run = try SpotsCLI.run(["export", index, "-o", index, "-O"])
            #expect(run.status == 64)
            #expect(run.stderr == "spots: \(index): is one of the inputs\n")
            #expect(bytes(index) == before)
        }
    }

    @Test("an existing file is replaced only with -O")
    func existingFile() throws {
        try withSmallIndex { folder, index in
            for command in [["export", index], ["build", himeji, "-q"]] {
                let output = try folder.write("keep me", to: "existing")
                let refused = try SpotsCLI.run(command + ["-o", output])
                #expect(refused.status == 73)
                #expect(refused.stderr == "spots: \(output): exists; give -O/--overwrite to replace it\n")
                #expect(folder.contents("existing") == "keep me")
                let replaced = try SpotsCLI.run(command + ["-o", output, "--overwrite"])
                #expect(replaced.status == 0, "\(replaced.stderr)")
                #expect(folder.contents("existing") != "keep me")
            }
        }
    }

    @Test("build --pipeline replaces an existing output only with the pipeline's overwrite or -O")
    func pipelineOverwrite() throws {
        try withTemporaryFolder { folder in
            let output = try folder.write("keep me", to: "city.spots")
            func pipeline(_ extra: String) throws -> String {
                try folder.write(#"{"inputs": ["\#(himeji)"], "output": "city.spots"\#(extra)}"#, to: "city.json")
            }
            let refused = try SpotsCLI.run(["build", "--pipeline", try pipeline(""), "-q"])
            #expect(refused.status == 73)
            #expect(refused.stderr.contains(#"-O/--overwrite or "overwrite": true"#))
            #expect(folder.contents("city.spots") == "keep me")
            let invalid = try SpotsCLI.run(["build", "--pipeline", try pipeline(#", "overwrite": "yes""#), "-q"])
            #expect(invalid.status == 78)
            #expect(invalid.stderr.contains(".overwrite"))
            let replaced = try SpotsCLI.run(["build", "--pipeline", try pipeline(#", "overwrite": true"#), "-q"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(folder.contents("city.spots") != "keep me")
            try folder.write("keep me", to: "city.spots")
            let flag = try SpotsCLI.run(["build", "--pipeline", try pipeline(""), "-O", "-q"])
            #expect(flag.status == 0, "\(flag.stderr)")
            #expect(bytes(output).map { $0.starts(with: Data("keep me".utf8)) } == false)
        }
    }

    @Test("a symbolic link to a regular file: the target is replaced, the link kept")
    func symbolicLink() throws {
        try withSmallIndex { folder, index in
            let target = try folder.write("old", to: "target.ndjson")
            let link = folder.path("link.ndjson")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let run = try SpotsCLI.run(["export", index, "-o", link, "-O"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(fileType(link) == S_IFLNK)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
            #expect(bytes(target) == (try SpotsCLI.run(["export", index]).stdout))
        }
    }

    @Test("a FIFO is written straight through, read by another thread, and stays a FIFO")
    func fifo() throws {
        try withSmallIndex { folder, index in
            let fifo = folder.path("pipe")
            try #require(mkfifo(fifo, 0o600) == 0)
            let received = LockedData()
            let reader = Thread {
                received.set(FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data())
            }
            reader.start()
            let run = try SpotsCLI.run(["export", index, "-o", fifo])
            // Should the run have failed before opening the FIFO, an end of file frees the reader.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            #expect(run.status == 0, "\(run.stderr)")
            let expected = try SpotsCLI.run(["export", index]).stdout
            #expect(received.wait() == expected)
            #expect(fileType(fifo) == S_IFIFO)
        }
    }

    @Test("/dev/null reached through a symbolic link is written to, and stays a character device")
    func devNullThroughLink() throws {
        try withSmallIndex { folder, index in
            let link = folder.path("null")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
            for command in [["export", index], ["report", index], ["search", index, "--query", "castle"]] {
                let run = try SpotsCLI.run(command + ["-o", link])
                #expect(run.status == 0, "\(run.stderr)")
            }
            #expect(fileType(link) == S_IFLNK)
            #expect(fileType("/dev/null") == S_IFCHR)
        }
    }

    @Test("-o - writes to standard output")
    func standardOutput() throws {
        try withSmallIndex { _, index in
            let run = try SpotsCLI.run(["export", index, "-o", "-"])
            #expect(run.status == 0)
            #expect(run.stdout == (try SpotsCLI.run(["export", index]).stdout))
            let table = try SpotsCLI.run(["search", index, "--query", "castle", "-o", "-"])
            #expect(table.output.hasPrefix("distance"))
        }
    }

    @Test(
        "a character device made with mknod is written through, never renamed over",
        .enabled(if: canMakeDevices, "mknod or writing a device in a temporary folder is not allowed here: skipped"))
    func characterDevice() throws {
        try withSmallIndex { folder, index in
            let device = folder.path("null")
            try #require(mknod(device, S_IFCHR | 0o666, nullDeviceNumber) == 0)
            let run = try SpotsCLI.run(["export", index, "-o", device])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(fileType(device) == S_IFCHR)
        }
    }
}

/// Data handed from a reading thread to the test, once.
private final class LockedData: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    func set(_ value: Data) {
        data = value
        done.signal()
    }

    /// The data, or nil after a minute without it.
    func wait() -> Data? {
        done.wait(timeout: .now() + 60) == .success ? data : nil
    }
}
