import Foundation
import SpotTestSupport
import Testing

/// Paths and a process runner for end-to-end tests of the `spots` command (named apart from
/// the Spots module).
enum SpotsCLI {
    /// The package root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The shared real extracts (../shared/data), absent on a user's machine.
    static let sharedData = root.deletingLastPathComponent().appendingPathComponent("shared/data")
    static let hasSharedData = FileManager.default.fileExists(atPath: sharedData.path)
    /// The hand-written fixtures.
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/osm")

    /// The built `spots` executable: beside the test bundle in the build's products directory.
    static let executable: URL = {
        var directory = Bundle.main.bundleURL
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        for candidate in [directory, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("spots")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return directory.appendingPathComponent("spots")
    }()

    /// What a run printed and how it ended.
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `spots` with `arguments`, feeding `stdin` when given.
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Run {
        try run(executable, arguments, stdin: stdin, environment: environment)
    }

    /// Runs another program, `command[0]` found on the PATH, with the rest as its arguments.
    static func runTool(_ command: [String]) throws -> Run {
        try run(URL(fileURLWithPath: "/usr/bin/env"), command, stdin: nil, environment: [:])
    }

    private static func run(
        _ program: URL, _ arguments: [String], stdin: Data?, environment: [String: String]
    ) throws -> Run {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            // Feed stdin on another thread so that a full stdout pipe cannot deadlock us.
            let writer = input.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(stdin)
                try? writer.close()
            }
        }
        let stdoutData = output.fileHandleForReading.readDataToEndOfFile()
        let stderrData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// Builds `inputs` into an index in `folder` and returns its exported NDJSON objects; by
    /// default every amenity/tourism node and nothing else (the tests that count node spots).
    static func buildAndExport(
        _ inputs: [String], flags: [String] = ["--keep-all", "--no-dedupe", "--no-areas"], in folder: TemporaryFolder
    ) throws -> [[String: Any]] {
        let index = folder.path("out.spots")
        let build = try run(["build"] + inputs + ["-o", index, "-O", "--quiet"] + flags)
        try #require(build.status == 0, "build failed: \(build.stderr)")
        let export = try run(["export", index])
        try #require(export.status == 0, "export failed: \(export.stderr)")
        return try export.output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }
}

/// Coordinates as the export prints them: a JSON number with seven decimals, read back exactly.
func sevenDecimals(_ value: Any?) -> String? {
    guard let number = value as? NSNumber else { return nil }
    return String(format: "%.7f", number.doubleValue)
}

/// Calls `body` with a fresh temporary folder and the path of the index of the two samples,
/// built there; the folder is removed when `body` returns.
func withSampleIndex<T>(_ body: (_ folder: TemporaryFolder, _ index: String) throws -> T) throws -> T {
    try withTemporaryFolder { folder in
        let index = folder.path("samples.spots")
        let build = try SpotsCLI.run(["build", helsinki, himeji, "-o", index, "-q"])
        try #require(build.status == 0, "\(build.stderr)")
        return try body(folder, index)
    }
}
