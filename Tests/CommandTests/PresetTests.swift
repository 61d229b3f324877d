import Foundation
import SpotTestSupport
import Testing

/// The shipped pipeline presets (and address points) on the real extracts, against an
/// independent count from the tags: Tests/Support/preset_counts.py reads the same pipeline and
/// category files with Python's own XML parser and counts, by category and by result type,
/// the nodes a build without deduplication or areas keeps.
@Suite(
    "Pipeline presets against an independent count",
    .enabled(if: SpotsCLI.hasSharedData, "../shared/data is absent: preset counts skipped"),
    .enabled(if: hasPython, "python3 is absent: preset counts skipped"))
struct PresetTests {
    static let presets = ["default", "places", "outdoors"]
    static let counter = SpotsCLI.root.appendingPathComponent("Tests/Support/preset_counts.py").path

    /// Counts by category and by result type, and the total, as the counter prints them.
    struct Counts: Decodable, Equatable {
        var byCategory: [String: Int]
        var byResultType: [String: Int]
        var total: Int

        enum CodingKeys: String, CodingKey {
            case byCategory = "by_category"
            case byResultType = "by_result_type"
            case total
        }
    }

    /// The counts of the index built from `input` with `pipeline`, read from its export.
    static func built(_ input: String, pipeline: String, in folder: TemporaryFolder) throws -> Counts {
        let spots = try SpotsCLI.buildAndExport(
            [input], flags: ["--pipeline", pipeline, "--no-dedupe", "--no-areas"], in: folder)
        var counts = Counts(byCategory: [:], byResultType: [:], total: spots.count)
        for spot in spots {
            counts.byCategory[spot["category"] as? String ?? "(none)", default: 0] += 1
            counts.byResultType[try #require(spot["result_type"] as? String), default: 0] += 1
        }
        return counts
    }

    /// The independent count of `input` with `pipeline`'s nodes.
    static func counted(_ input: String, pipeline: String) throws -> Counts {
        let run = try SpotsCLI.runTool(["python3", counter, pipeline, input, "--nodes-only"])
        try #require(run.status == 0, "preset_counts.py: \(run.stderr)")
        return try JSONDecoder().decode(Counts.self, from: run.stdout)
    }

    @Test(
        "each preset's spots by category and result type are the independent count's",
        arguments: presets, realExtracts.map(\.file))
    func presetMatchesCount(_ preset: String, _ file: String) throws {
        let input = SpotsCLI.sharedData.appendingPathComponent(file).path
        let pipeline = SpotsCLI.root.appendingPathComponent("Pipelines/\(preset).json").path
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ours = try Self.built(input, pipeline: pipeline, in: folder)
        #expect(ours == (try Self.counted(input, pipeline: pipeline)))
        #expect(ours.total > 0)
    }

    @Test("places with address points: every numbered object without a selecting tag is an address point")
    func addressPointsMatchCount() throws {
        let input = SpotsCLI.sharedData.appendingPathComponent("helsinki-center.osm.gz").path
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let places = SpotsCLI.root.appendingPathComponent("Pipelines/places.json").path
        let pipeline = try folder.write(
            #"{"select": \#(try Self.selectKeys(places)), "addresses": true}"#, to: "addresses.json")
        let ours = try Self.built(input, pipeline: pipeline, in: folder)
        #expect(ours == (try Self.counted(input, pipeline: pipeline)))
        #expect((ours.byResultType["address"] ?? 0) > 100)
    }

    /// The `select` array of the pipeline file at `path`, as JSON text.
    static func selectKeys(_ path: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let keys = try #require((object as? [String: Any])?["select"])
        return String(decoding: try JSONSerialization.data(withJSONObject: keys), as: UTF8.self)
    }
}
