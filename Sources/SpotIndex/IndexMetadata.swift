import Foundation
import SpotCluster
import SpotJSON
import Spots

/// What an index records about its build, stored as JSON in the META section.
public struct IndexMetadata: Equatable, Sendable {
    /// One input file of the build.
    public struct Input: Equatable, Sendable {
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
    public struct PipelineSettings: Equatable, Sendable {
        /// Same-name merging settings.
        public struct Dedupe: Equatable, Sendable {
            /// Whether merging ran.
            public var enabled: Bool
            /// The default distance in metres.
            public var radius: Double
            /// Per-category distances.
            public var radiusByCategory: [String: Double]

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
        /// The selecting keys, in order of precedence (stored only when not `defaultSelect`).
        public var select: [String]
        /// Whether the build made address points (stored only when it did).
        public var addresses: Bool
        /// The categories no rule of the selected keys gives, by name, in `Category` order
        /// (stored only when not `defaultUnreachedCategories`).
        public var unreachedCategories: [String]

        /// The selecting keys of a build that records none: `amenity`, then `tourism`.
        public static let defaultSelect = ["amenity", "tourism"]
        /// The categories that the built-in table's `amenity` and `tourism` rules never give:
        /// what an index that records none leaves out. SpotPipeline's tests keep it equal to
        /// the built-in table's.
        public static let defaultUnreachedCategories = [
            "airport", "bakery", "laundry", "stadium", "baseball", "basketball", "beauty", "bowling", "fairground",
            "fishing", "golf", "goKart", "kayaking", "miniGolf", "skatePark", "skating", "soccer", "tennis",
            "volleyball",
        ]

        /// Settings as given.
        public init(
            file: String?, sha256: String?, exclude: [String], keepAll: Bool, dedupe: Dedupe,
            clusters: ClusterSettings? = nil, select: [String] = PipelineSettings.defaultSelect,
            addresses: Bool = false,
            unreachedCategories: [String] = defaultUnreachedCategories
        ) {
            self.file = file
            self.sha256 = sha256
            self.exclude = exclude
            self.keepAll = keepAll
            self.dedupe = dedupe
            self.clusters = clusters
            self.select = select
            self.addresses = addresses
            self.unreachedCategories = unreachedCategories
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

    /// The JSON form, the META section: snake_case keys, sorted, absent optional members left
    /// out, written as Foundation's encoder wrote it (`JSONValue.Layout.compact`, slashes
    /// escaped), so that equal metadata gives equal bytes, as it always has.
    package func encoded() -> [UInt8] {
        var members: [String: JSONValue] = [
            "generator": .string(generator),
            "inputs": .array(
                inputs.map { input in
                    var fields: [String: JSONValue] = ["name": .string(input.name), "bytes": .integer(input.bytes)]
                    fields["sha256"] = input.sha256.map(JSONValue.string)
                    return .object(fields)
                }),
            "statistics": Self.counts(statistics),
            "stages": .array(
                stages.map { stage in
                    .object([
                        "stage": .string(stage.stage), "input": .integer(stage.input), "output": .integer(stage.output),
                        "dropped": Self.counts(stage.dropped), "tags": .object(stage.tags.mapValues(Self.counts)),
                    ])
                }),
        ]
        members["build_time"] = buildTime.map(JSONValue.string)
        members["bbox_e7"] = bbox.map { box in
            .array([box.westE7, box.southE7, box.eastE7, box.northE7].map(JSONValue.integer))
        }
        members["pipeline"] = pipeline.map { settings in
            var fields: [String: JSONValue] = [
                "exclude": .array(settings.exclude.map(JSONValue.string)), "keep_all": .bool(settings.keepAll),
                "dedupe": .object([
                    "enabled": .bool(settings.dedupe.enabled), "radius": .number(settings.dedupe.radius),
                    "radius_by_category": .object(settings.dedupe.radiusByCategory.mapValues(JSONValue.number)),
                ]),
            ]
            fields["file"] = settings.file.map(JSONValue.string)
            if settings.select != PipelineSettings.defaultSelect {
                fields["select"] = .array(settings.select.map(JSONValue.string))
            }
            if settings.addresses { fields["addresses"] = .bool(true) }
            if settings.unreachedCategories != PipelineSettings.defaultUnreachedCategories {
                fields["unreached_categories"] = .array(settings.unreachedCategories.map(JSONValue.string))
            }
            fields["sha256"] = settings.sha256.map(JSONValue.string)
            fields["clusters"] = settings.clusters.map { clusters in
                .object([
                    "max_zoom": .integer(clusters.maxZoom), "radius": .number(clusters.radius),
                    "extent": .number(clusters.extent),
                ])
            }
            return .object(fields)
        }
        return Array(JSONValue.object(members).text(.compact, escaping: .shortWithSlash).utf8)
    }

    /// Counts by name as a JSON object.
    private static func counts(_ counts: [String: Int]) -> JSONValue { .object(counts.mapValues(JSONValue.integer)) }

    /// Reads the JSON form, the META section, as Foundation's decoder read it: members it does
    /// not know are let be, an optional member may be absent or null.
    static func decode(_ bytes: SectionBytes) throws -> IndexMetadata {
        let json = JSONField(try JSONValue(parsing: Array(bytes)), document: "META")
        func counts(_ field: JSONField) throws(JSONFieldError) -> [String: Int] {
            try field.members { (count) throws(JSONFieldError) in try count.wholeNumber() }
        }
        var metadata = IndexMetadata(
            generator: try json.member("generator").string(),
            buildTime: try json.optionalMember("build_time")?.string(),
            inputs: try json.member("inputs").array().map { (input) throws(JSONFieldError) in
                Input(
                    name: try input.member("name").string(), bytes: try input.member("bytes").wholeNumber(),
                    sha256: try input.optionalMember("sha256")?.string())
            },
            bbox: try json.optionalMember("bbox_e7").map(box),
            statistics: try counts(try json.member("statistics")),
            stages: try json.member("stages").array().map { (stage) throws(JSONFieldError) in
                StageReport(
                    stage: try stage.member("stage").string(), input: try stage.member("input").wholeNumber(),
                    output: try stage.member("output").wholeNumber(), dropped: try counts(try stage.member("dropped")),
                    tags: try stage.member("tags").members(counts))
            })
        metadata.pipeline = try json.optionalMember("pipeline").map { (settings) throws(JSONFieldError) in
            let dedupe = try settings.member("dedupe")
            return PipelineSettings(
                file: try settings.optionalMember("file")?.string(),
                sha256: try settings.optionalMember("sha256")?.string(),
                exclude: try settings.member("exclude").array().map { (tag) throws(JSONFieldError) in try tag.string()
                },
                keepAll: try settings.member("keep_all").bool(),
                dedupe: PipelineSettings.Dedupe(
                    enabled: try dedupe.member("enabled").bool(), radius: try dedupe.member("radius").number(),
                    radiusByCategory: try dedupe.member("radius_by_category").members {
                        (radius) throws(JSONFieldError) in try radius.number()
                    }),
                clusters: try settings.optionalMember("clusters").map(clusterSettings),
                select: try settings.optionalMember("select")?.array().map { (key) throws(JSONFieldError) in
                    try key.string()
                } ?? PipelineSettings.defaultSelect,
                addresses: try settings.optionalMember("addresses")?.bool() ?? false,
                unreachedCategories: try settings.optionalMember("unreached_categories")?.array().map {
                    (name) throws(JSONFieldError) in try name.string()
                } ?? PipelineSettings.defaultUnreachedCategories)
        }
        return metadata
    }

    /// A box as `bbox_e7` stores it: the array [west, south, east, north] in degrees × 10^7.
    private static func box(_ field: JSONField) throws(JSONFieldError) -> GeoBox {
        let edges = try field.array().map { (edge) throws(JSONFieldError) in try edge.wholeNumber() }
        guard edges.count == 4, let west = Int32(exactly: edges[0]), let south = Int32(exactly: edges[1]),
            let east = Int32(exactly: edges[2]), let north = Int32(exactly: edges[3])
        else { throw field.error("expected [west, south, east, north]") }
        return GeoBox(westE7: west, southE7: south, eastE7: east, northE7: north)
    }

    /// Cluster settings as stored, taken as they are (a corrupt index's are not checked here).
    private static func clusterSettings(_ field: JSONField) throws(JSONFieldError) -> ClusterSettings {
        var settings = ClusterSettings.standard
        settings.maxZoom = try field.member("max_zoom").wholeNumber()
        settings.radius = try field.member("radius").number()
        settings.extent = try field.member("extent").number()
        return settings
    }
}
