import Foundation
import SpotCluster
import Spots

/// What an index records about its build, stored as JSON in the META section.
public struct IndexMetadata: Codable, Equatable, Sendable {
    /// One input file of the build.
    public struct Input: Codable, Equatable, Sendable {
        /// The input as it was named on the command line.
        public var name: String
        /// Its size in bytes as read.
        public var bytes: Int
        /// The SHA-256 of its bytes, as lowercase hex.
        public var sha256: String?

        /// An input record.
        public init(name: String, bytes: Int, sha256: String? = nil) {
            self.name = name
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// The settings a build ran with, so that a later run can tell whether anything changed.
    public struct PipelineSettings: Codable, Equatable, Sendable {
        /// Same-name merging settings.
        public struct Dedupe: Codable, Equatable, Sendable {
            /// Whether merging ran.
            public var enabled: Bool
            /// The default distance in metres.
            public var radius: Double
            /// Per-category distances.
            public var radiusByCategory: [String: Double]

            enum CodingKeys: String, CodingKey {
                case enabled, radius
                case radiusByCategory = "radius_by_category"
            }

            /// Dedupe settings.
            public init(enabled: Bool, radius: Double, radiusByCategory: [String: Double]) {
                self.enabled = enabled
                self.radius = radius
                self.radiusByCategory = radiusByCategory
            }
        }

        /// The pipeline file, when one was given.
        public var file: String?
        /// The SHA-256 of the pipeline file, when one was given.
        public var sha256: String?
        /// The excluded selecting tags, sorted.
        public var exclude: [String]
        /// Whether every spot was kept.
        public var keepAll: Bool
        /// Merging settings.
        public var dedupe: Dedupe
        /// The settings of the cluster levels; nil when the build made none.
        public var clusters: ClusterSettings?

        enum CodingKeys: String, CodingKey {
            case file, sha256, exclude, dedupe, clusters
            case keepAll = "keep_all"
        }

        /// Settings as given.
        public init(
            file: String?, sha256: String?, exclude: [String], keepAll: Bool, dedupe: Dedupe,
            clusters: ClusterSettings? = nil
        ) {
            self.file = file
            self.sha256 = sha256
            self.exclude = exclude
            self.keepAll = keepAll
            self.dedupe = dedupe
            self.clusters = clusters
        }
    }

    /// The program that wrote the index ("spots 0.1.0").
    public var generator: String
    /// When the data is from, as ISO 8601 UTC: the newest timestamp in the inputs, or
    /// SOURCE_DATE_EPOCH; never the wall clock, so that builds are reproducible. Nil when unknown.
    public var buildTime: String?
    /// The inputs, in the order given.
    public var inputs: [Input]
    /// The settings of the build; nil for indexes written without a pipeline.
    public var pipeline: PipelineSettings?
    /// The extent of the spots; nil when there are none. Stored as `bbox_e7`, the array [west,
    /// south, east, north] in degrees × 10^7.
    public var bbox: GeoBox?
    /// What the build read, by name (nodes, ways, relations, input bytes, spots).
    public var statistics: [String: Int]
    /// What each stage of the build did, in chain order.
    public var stages: [StageReport]

    /// Metadata with the given fields.
    public init(
        generator: String, buildTime: String?, inputs: [Input], bbox: GeoBox?, statistics: [String: Int],
        stages: [StageReport] = [], pipeline: PipelineSettings? = nil
    ) {
        self.pipeline = pipeline
        self.generator = generator
        self.buildTime = buildTime
        self.inputs = inputs
        self.bbox = bbox
        self.statistics = statistics
        self.stages = stages
    }

    /// The tag counts that stages recorded for `reason` ("unmapped", "excluded"), over all stages.
    public func tagCounts(_ reason: String) -> [String: Int] {
        stages.reduce(into: [:]) { total, stage in total.merge(stage.tags[reason] ?? [:], uniquingKeysWith: +) }
    }

    private enum CodingKeys: String, CodingKey {
        case generator, inputs, statistics, stages, pipeline
        case buildTime = "build_time"
        case bbox = "bbox_e7"
    }

    /// The JSON form: snake_case keys, sorted, so that equal metadata gives equal bytes.
    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try! encoder.encode(self))
    }

    /// Reads the JSON form, the META section.
    static func decode(_ bytes: SectionBytes) throws -> IndexMetadata {
        try decoder.decode(IndexMetadata.self, from: Data(bytes))
    }

    static let decoder = JSONDecoder()
}
