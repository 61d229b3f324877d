import Foundation
import SpotTestSupport
import Testing

/// The real extracts of ../shared/data, each with the POI node count its README gives.
let realExtracts: [(file: String, poiNodes: Int)] = [
    ("monaco-2021-04.osm.gz", 761), ("andorra-2021-04.osm.gz", 923), ("liechtenstein-2015-07.osm.gz", 341),
    ("helsinki-center.osm.gz", 1110), ("pois-union.osm.gz", 3135),
]

/// Whether python3 runs here (the independent reader is a Python script on pyexpat).
let hasPython: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import xml.parsers.expat, gzip"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

@Suite(
    "Real extracts against an independent reader",
    .enabled(if: SpotsCLI.hasSharedData, "../shared/data is absent: real-data tests skipped"))
struct RealDataTests {
    @Test(
        "with --keep-all --no-dedupe, the spots are exactly the oracle's amenity/tourism nodes",
        .enabled(if: hasPython, "python3 with pyexpat is absent: oracle comparison skipped"),
        arguments: realExtracts.map(\.file))
    func matchesIndependentReader(_ file: String) throws {
        let input = SpotsCLI.sharedData.appendingPathComponent(file).path
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ours = try SpotsCLI.buildAndExport([input], in: folder)
        let oracle = try oracleSpots(input)
        #expect(ours.count == realExtracts.first { $0.file == file }!.poiNodes)
        #expect(oracle.count == ours.count)
        let theirs = Dictionary(uniqueKeysWithValues: oracle.map { (($0["osm_id"] as! NSNumber).int64Value, $0) })
        var mismatches: [String] = []
        for spot in ours {
            let id = (spot["osm_id"] as! NSNumber).int64Value
            guard let want = theirs[id] else {
                mismatches.append("n\(id) not in the oracle")
                continue
            }
            if sevenDecimals(spot["lat"]) != want["lat"] as? String
                || sevenDecimals(spot["lon"]) != want["lon"] as? String
                || spot["name"] as? String != want["name"] as? String
                || spot["tag"] as? String != want["tag"] as? String
            {
                mismatches.append("n\(id): \(spot) vs \(want)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("a multi-member gzip (members cut mid-element) gives the same spots as the single-member file")
    func readsMultiMemberGzip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let original = SpotsCLI.sharedData.appendingPathComponent("monaco-2021-04.osm.gz")
        let xml = try shell("gzip -dc '\(original.path)'")
        var members = Data()
        let cuts = [0, xml.count / 3 + 17, 2 * xml.count / 3 + 5, xml.count]
        for (start, end) in zip(cuts, cuts.dropFirst()) {
            let piece = folder.url.appendingPathComponent("piece")
            try xml[start..<end].write(to: piece)
            members += try shell("gzip -c '\(piece.path)'")
        }
        let multi = folder.url.appendingPathComponent("multi.osm.gz")
        try members.write(to: multi)
        let expected = try SpotsCLI.buildAndExport([original.path], in: folder)
        let got = try SpotsCLI.buildAndExport([multi.path], in: folder)
        #expect(got.count == 761)
        #expect(got.map { $0["osm_id"] as! NSNumber } == expected.map { $0["osm_id"] as! NSNumber })
    }

    @Test("standard input gives the same spots as the file")
    func readsStandardInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = SpotsCLI.sharedData.appendingPathComponent("liechtenstein-2015-07.osm.gz")
        let index = folder.path("stdin.spots")
        let build = try SpotsCLI.run(
            ["build", "-", "-o", index, "--quiet", "--keep-all", "--no-dedupe", "--no-areas"],
            stdin: try Data(contentsOf: file))
        try #require(build.status == 0, "\(build.stderr)")
        let fromStdin = try SpotsCLI.run(["export", index]).output
        let fromFile = try SpotsCLI.buildAndExport([file.path], in: folder)
        #expect(fromStdin.split(separator: "\n").count == fromFile.count)
        #expect(fromFile.count == 341)
    }

    private func oracleSpots(_ path: String) throws -> [[String: Any]] {
        let script = SpotsCLI.root.appendingPathComponent("Tests/Support/osm_oracle.py").path
        let output = try shell("python3 '\(script)' '\(path)'")
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }
}

/// Runs a shell command and returns its standard output; fails the test when it fails.
func shell(_ command: String) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(command) failed")
    return data
}
