import Foundation
import SpotTestSupport
import Testing

@Suite("spots build --threads: parsing on several cores changes nothing but the time")
struct ThreadsCommandTests {
    /// Builds `inputs` with `--threads N` for each N and returns each index's bytes and the
    /// build's summary line.
    private func builds(_ inputs: [String], threads: [Int], in folder: TemporaryFolder) throws -> [(
        index: Data, summary: String
    )] {
        try threads.map { count in
            let output = folder.url.appendingPathComponent("threads-\(count).spots")
            let run = try SpotsCLI.run(
                ["build"] + inputs + ["-o", output.path, "-O", "--verbose", "--threads", String(count)])
            #expect(run.status == 0, "build with \(count) threads: \(run.stderr)")
            return (try Data(contentsOf: output), run.stderr)
        }
    }

    /// The number before `label` in a build summary ("3 parsed apart").
    private func count(before label: String, in summary: String) -> Int? {
        guard let range = summary.range(of: " " + label) else { return nil }
        let digits = summary[..<range.lowerBound].reversed().prefix { $0.isNumber || $0 == "," }
        return Int(String(digits.reversed()).replacingOccurrences(of: ",", with: ""))
    }

    @Test("the sample's index is byte-identical with 1, 2, 3 and 8 threads, and pieces are parsed apart with each")
    func sampleIsIdentical() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let results = try builds([helsinki, himeji], threads: [1, 2, 3, 8], in: folder)
        for result in results.dropFirst() { #expect(result.index == results[0].index) }
        for result in results {
            #expect((count(before: "parsed apart", in: result.summary) ?? 0) > 0, "\(result.summary)")
            #expect((count(before: "plain elements read directly", in: result.summary) ?? 0) > 0, "\(result.summary)")
        }
    }

    @Test(
        "every real extract gives a byte-identical index with 1 and 2 threads",
        .enabled(if: SpotsCLI.hasSharedData, "../shared/data is absent: real-data comparison skipped"))
    func realExtractsAreIdentical() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = try FileManager.default.contentsOfDirectory(atPath: SpotsCLI.sharedData.path).filter {
            $0.hasSuffix(".osm.gz")
        }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let results = try builds(
                [SpotsCLI.sharedData.appendingPathComponent(file).path], threads: [1, 2], in: folder)
            #expect(results[0].index == results[1].index, "\(file)")
        }
    }

    @Test("--threads takes a whole number from 1 up", arguments: ["0", "-1", "two", "1.5", "100000"])
    func refusesBadThreadCounts(_ value: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try SpotsCLI.run(["build", helsinki, "-o", folder.path("x.spots"), "--threads", value])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--threads"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.spots")))
    }
}
