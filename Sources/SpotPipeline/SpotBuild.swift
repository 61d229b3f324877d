import Foundation
import OSMXML
import SpotIndex
import Spots

/// How a build selects spots.
public struct BuildOptions: Sendable {
    /// Keep every amenity/tourism node, excluding nothing (today's default too; the category
    /// table's exclusion list will make the difference).
    public var keepAll = false
    /// Merge duplicate places (one place mapped twice). Repeats of the same OSM object are
    /// always folded into one record, whatever this says.
    public var dedupe = true
    /// The build time to record, as seconds since 1970 (SOURCE_DATE_EPOCH); when nil, the
    /// newest timestamp found in the inputs.
    public var sourceDateEpoch: Int?

    /// The default options.
    public init() {}
}

/// How far a build has read: bytes of all inputs, and their total when every input is a file.
public struct BuildProgress: Sendable {
    /// Raw input bytes read so far, over all inputs.
    public var bytesRead: Int
    /// The inputs' total size, when known.
    public var totalBytes: Int?
}

/// The build: reads OSM inputs, selects spots, and encodes the index.
public struct SpotBuild {
    /// The program name and version recorded in each index.
    public static let generator = "spots 0.1.0"

    /// The inputs, paths or "-" for standard input.
    public let inputs: [String]
    /// How spots are selected.
    public let options: BuildOptions

    /// A build of `inputs` with `options`.
    public init(inputs: [String], options: BuildOptions = BuildOptions()) {
        self.inputs = inputs
        self.options = options
    }

    /// Reads every input and returns the index's bytes and what the build counted.
    /// Throws `OSMInputError` for an input that cannot be read.
    public func run(progress: ((BuildProgress) -> Void)? = nil) throws -> (index: [UInt8], statistics: BuildStatistics) {
        let sizes = inputs.map(Self.fileSize)
        let total = sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + $1! }
        var selector = SpotSelector(categories: .standard)
        var statistics = BuildStatistics()
        var newestTimestamp: String?
        var inputRecords: [IndexMetadata.Input] = []
        let filter = OSMElementFilter(types: [.node], tagKeys: SpotSelector.selectingKeys)
        for input in inputs {
            let done = statistics.inputBytes
            let summary = try OSMReader(file: input, filter: filter).read(into: &selector) { step in
                progress?(BuildProgress(bytesRead: done + step.bytesRead, totalBytes: total))
            }
            statistics.nodes += summary.nodes
            statistics.ways += summary.ways
            statistics.relations += summary.relations
            statistics.deletedElements += summary.deleted
            statistics.inputBytes += summary.inputBytes
            statistics.xmlBytes += summary.xmlBytes
            newestTimestamp = [newestTimestamp, summary.newestTimestamp].compactMap { $0 }.max()
            inputRecords.append(IndexMetadata.Input(name: input, bytes: summary.inputBytes))
        }
        let spots = selector.spots.values.map(\.spot).sorted { $0.ref < $1.ref }
        statistics.badCoordinates = selector.badCoordinates
        statistics.repeatedObjects = selector.repeatedObjects
        statistics.spots = spots.count
        let box = BoundingBox(enclosing: spots.map(\.coordinate))
        let metadata = IndexMetadata(
            generator: Self.generator,
            buildTime: options.sourceDateEpoch.map(Self.iso8601) ?? newestTimestamp,
            inputs: inputRecords,
            bboxE7: box.map { [$0.minLongitudeE7, $0.minLatitudeE7, $0.maxLongitudeE7, $0.maxLatitudeE7] },
            statistics: statistics.byName)
        return (SpotIndexWriter.encode(spots, metadata: metadata), statistics)
    }

    private static func fileSize(_ path: String) -> Int? {
        guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }

    private static func iso8601(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
