import Foundation
import SpotIndex
import SpotIndexWriting
import SpotPipeline
import SpotTestSupport
import Spots

@testable import SpotReport

/// Indexes for the report tests: the embedded sample built in process, and hand-made ones.
enum Fixtures {
    /// The package root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The embedded real sample of central Helsinki.
    static let helsinki = root.appendingPathComponent("Samples/helsinki-center.osm.gz").path
    /// Values the category table maps to `cafe`: excluding them all removes the category.
    static let cafeTags = ["amenity=cafe", "amenity=ice_cream", "amenity=internet_cafe"]

    /// A folder for this test run's indexes, removed by nobody: the system cleans its temporary folder.
    static let folder = try! TemporaryFolder("SpotReportTests")

    /// The sample built with the default pipeline.
    static let sample: String = try! build(name: "sample")
    /// The sample built with `--keep-all`: spots without a category kept.
    static let sampleKeepAll: String = try! build(name: "keep-all") { $0.keepAll = true }
    /// The sample built with the default pipeline less every cafe value.
    static let sampleWithoutCafes: String = try! build(name: "no-cafes") { $0.exclude.formUnion(cafeTags) }

    /// Builds the sample with the default pipeline, changed by `change`, into an index file.
    static func build(name: String, _ change: (inout Pipeline) -> Void = { _ in }) throws -> String {
        var pipeline = try Pipeline.defaults()
        pipeline.inputs = [helsinki]
        change(&pipeline)
        let (bytes, _) = try SpotBuild(pipeline: pipeline).run()
        return try folder.write(bytes, to: name + ".spots")
    }

    /// Writes `spots` (with `metadata`) as an index and returns its path.
    static func write(_ spots: [Spot], metadata: IndexMetadata = Fixtures.metadata(), name: String = UUID().uuidString)
        throws -> String
    {
        try folder.write(SpotIndexWriter.encode(spots, metadata: metadata), to: name + ".spots")
    }

    /// Metadata of a hand-made index, with `unmapped` tag counts recorded by a categorize stage.
    static func metadata(unmapped: [String: Int] = [:]) -> IndexMetadata {
        let stage = StageReport(
            stage: "categorize", input: 0, output: 0,
            dropped: unmapped.isEmpty ? [:] : ["unmapped": unmapped.values.reduce(0, +)],
            tags: unmapped.isEmpty ? [:] : ["unmapped": unmapped])
        return IndexMetadata(
            generator: "tests", buildTime: nil, inputs: [], bbox: nil, statistics: [:], stages: [stage])
    }

    /// A node spot at `latitude`, `longitude` (degrees).
    static func spot(
        _ id: Int64, _ category: Category?, latitude: Double = 60.17, longitude: Double = 24.94, kind: String? = nil,
        name: String? = nil, names: [String: String] = [:], address: [String: String] = [:],
        details: [Spot.Detail: String] = [:],
        merged: [OSMRef] = []
    ) -> Spot {
        Spot(
            ref: OSMRef(.node, id),
            coordinate: Coordinate(
                latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))!,
            tagKey: "amenity", kind: kind ?? category?.rawValue ?? "unknown", category: category, name: name,
            names: names,
            address: address, details: details, merged: merged)
    }

    /// The report of the index at `path`, compared with `older` when given.
    static func report(_ path: String, against older: String? = nil, maxDrop: Double = Report.defaultMaxDrop) throws
        -> Report
    {
        try Report(
            index: SpotIndexReader(path: path),
            against: older.map { (path) throws(IndexError) in try SpotIndexReader(path: path) }, maxDrop: maxDrop)
    }
}
