import Foundation
import OSMXML
import SpotCluster
import SpotIndex
import Spots

/// How spots that are one place are merged.
public struct DedupeSettings: Sendable, Equatable {
    /// Whether same-name spots are merged at all (`--no-dedupe` turns it off).
    public var enabled: Bool
    /// The distance in metres within which same-category, same-name spots are one place.
    public var radius: Double
    /// Per-category distances that replace `radius`.
    public var radiusByCategory: [Category: Double]

    /// The distance for spots of `category`.
    public func radius(for category: Category?) -> Double {
        category.flatMap { radiusByCategory[$0] } ?? radius
    }
}

/// What the nightly refresh checks before it publishes (used by `spots refresh`).
public struct Gates: Sendable, Equatable {
    /// The fewest spots a build may have.
    public var minSpots: Int
    /// The largest fraction by which the spot count, overall or of one category, may fall.
    public var maxDrop: Double
}

/// A build's description: what to read, where to write, how to select, categorize and merge.
/// Read from a pipeline file (Pipelines/NAME.json), each field absent there taken from
/// Pipelines/default.json, which is compiled into the program. The README documents the schema.
public struct Pipeline: Sendable {
    /// The pipeline file, or nil for the defaults alone.
    public var file: String?
    /// The SHA-256 of the pipeline file's bytes, or nil for the defaults alone.
    public var fileSHA256: String?
    /// OSM inputs, resolved against the pipeline file's folder.
    public var inputs: [String]
    /// The output index, resolved against the pipeline file's folder.
    public var output: String?
    /// The tag-to-category table.
    public var categories: CategoryTable
    /// Folded query words and phrases that name categories, stored in the index for search.
    public var categoryWords: [String: [Category]]
    /// Selecting tags ("amenity=bench") whose objects are not places.
    public var exclude: Set<String>
    /// Keep every amenity/tourism object: no exclusions, unmapped values kept with no category.
    public var keepAll: Bool
    /// Ways and multipolygon relations become spots too (`areas`; `--no-areas` reads nodes only).
    public var areas: Bool
    /// Same-name merging.
    public var dedupe: DedupeSettings
    /// The refresh gates.
    public var gates: Gates
    /// How many published generations the refresh keeps.
    public var keep: Int
    /// How the build clusters spots for maps; nil when it writes no cluster levels
    /// (`clusters.enabled` false, or `--no-clusters`).
    public var clusters: ClusterSettings?
    /// Bounds on one element of the input (`limits`; `--max-element-bytes`, `--max-tags`,
    /// `--max-value-bytes`): an input over them is refused.
    public var limits: OSMReadLimits

    /// The settings as the index metadata records them.
    public var settings: IndexMetadata.PipelineSettings {
        IndexMetadata.PipelineSettings(
            file: file, sha256: fileSHA256, exclude: keepAll ? [] : exclude.sorted(), keepAll: keepAll,
            dedupe: .init(
                enabled: dedupe.enabled, radius: dedupe.radius,
                radiusByCategory: Dictionary(uniqueKeysWithValues: dedupe.radiusByCategory.map { ($0.key.rawValue, $0.value) })),
            clusters: clusters)
    }

    /// The built-in defaults (Pipelines/default.json and categories.json).
    public static func defaults() throws(PipelineError) -> Pipeline {
        try PipelineFile.parse(Defaults.pipeline, file: "default.json", folder: nil, over: nil)
    }

    /// The pipeline in `path`, over the defaults.
    public static func load(_ path: String) throws(PipelineError) -> Pipeline {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read it as UTF-8 text" : "No such file or directory"
            throw PipelineError(isUnreadable: true, file: path, path: nil, message: reason)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var pipeline = try PipelineFile.parse(text, file: path, folder: folder, over: try defaults())
        pipeline.file = path
        pipeline.fileSHA256 = SHA256.hex(of: Array(text.utf8))
        return pipeline
    }
}

/// The JSON form of a pipeline file.
enum PipelineFile {
    static let keys: Set<String> = ["inputs", "output", "categories", "category_words", "exclude", "keep_all", "areas", "dedupe", "gates", "keep", "clusters", "limits"]

    /// Parses `text` (the contents of `file`), resolving paths against `folder` (nil: the
    /// built-in folder), taking absent fields from `base` (nil: every field but inputs and
    /// output must be present, as in default.json).
    static func parse(_ text: String, file: String, folder: URL?, over base: Pipeline?) throws(PipelineError) -> Pipeline {
        let root = try JSONNode.parse(text, file: file).object(allowing: keys)
        func field(_ key: String) throws(PipelineError) -> JSONNode? {
            if root[key] == nil && base == nil && !["inputs", "output"].contains(key) {
                throw PipelineError(file: file, path: "." + key, message: "missing")
            }
            return root[key]
        }
        func resolve(_ node: JSONNode) throws(PipelineError) -> String {
            let path = try node.string()
            guard !path.isEmpty else { throw node.error("expected a path") }
            guard let folder, !path.hasPrefix("/") else { return path }
            return folder.appendingPathComponent(path).standardizedFileURL.path
        }

        let inputs = try root["inputs"].map { (node) throws(PipelineError) in try node.array().map(resolve) } ?? base?.inputs ?? []
        let output = try root["output"].map(resolve) ?? base?.output
        let categories = try field("categories").map { (node) throws(PipelineError) in
            try CategoryFile.parse(try dataFile(node, folder: folder, builtIn: Defaults.categories), file: try node.string())
        } ?? base!.categories
        let categoryWords = try field("category_words").map { (node) throws(PipelineError) in
            try CategoryWordsFile.parse(try dataFile(node, folder: folder, builtIn: Defaults.categoryWords), file: try node.string())
        } ?? base!.categoryWords
        let exclude = try field("exclude").map { (node) throws(PipelineError) in
            Set(try node.array().map { (item) throws(PipelineError) in try tag(item).key + "=" + tag(item).value })
        } ?? base!.exclude
        let keepAll = try field("keep_all")?.bool() ?? base!.keepAll
        let areas = try field("areas")?.bool() ?? base!.areas
        let dedupe = try dedupeSettings(try field("dedupe"), base: base?.dedupe)
        let gates = try gateSettings(try field("gates"), base: base?.gates)
        let keep = try field("keep")?.integer(atLeast: 1) ?? base!.keep
        let clusters = try clusterSettings(try field("clusters"), base: base)
        let limits = try readLimits(try field("limits"), base: base?.limits)
        return Pipeline(
            file: nil, fileSHA256: nil, inputs: inputs, output: output, categories: categories, categoryWords: categoryWords, exclude: exclude,
            keepAll: keepAll, areas: areas,
            dedupe: dedupe, gates: gates, keep: keep, clusters: clusters, limits: limits)
    }

    /// A `key=value` tag string.
    static func tag(_ node: JSONNode) throws(PipelineError) -> (key: String, value: String) {
        let text = try node.string()
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw node.error("expected \"key=value\", got \"\(text)\"") }
        return (String(parts[0]), String(parts[1]))
    }

    /// The text of the data file a pipeline names: the built-in one for default.json.
    private static func dataFile(_ node: JSONNode, folder: URL?, builtIn: String) throws(PipelineError) -> String {
        let name = try node.string()
        guard let folder else { return builtIn }
        let path = name.hasPrefix("/") ? name : folder.appendingPathComponent(name).path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw node.error("cannot read the file \(path)")
        }
        return text
    }

    private static func dedupeSettings(_ node: JSONNode?, base: DedupeSettings?) throws(PipelineError) -> DedupeSettings {
        let fields = try node?.object(allowing: ["enabled", "radius", "radius_by_category"]) ?? [:]
        func required(_ key: String) throws(PipelineError) -> JSONNode? {
            if fields[key] == nil && base == nil { throw PipelineError(file: node!.file, path: node!.path + "." + key, message: "missing") }
            return fields[key]
        }
        let range = 0.0...200.0
        var byCategory = base?.radiusByCategory ?? [:]
        if let overrides = try required("radius_by_category") {
            byCategory = [:]
            for (name, value) in try overrides.object() {
                guard let category = Category(rawValue: name) else { throw value.error("unknown category \"\(name)\"") }
                byCategory[category] = try value.number(in: range, "a distance in metres")
            }
        }
        return DedupeSettings(
            enabled: try required("enabled")?.bool() ?? base!.enabled,
            radius: try required("radius")?.number(in: range, "a distance in metres") ?? base!.radius,
            radiusByCategory: byCategory)
    }

    /// The `clusters` object: `enabled`, `max_zoom`, `radius` (pixels) and `extent` (pixels);
    /// nil when disabled. Absent fields come from `base`, or from supercluster's defaults when
    /// `base` has cluster levels turned off.
    private static func clusterSettings(_ node: JSONNode?, base: Pipeline?) throws(PipelineError) -> ClusterSettings? {
        let keys = ["enabled", "max_zoom", "radius", "extent"]
        let fields = try node?.object(allowing: Set(keys)) ?? [:]
        if base == nil, let missing = keys.first(where: { fields[$0] == nil }) {
            throw PipelineError(file: node?.file ?? "default.json", path: ".clusters." + missing, message: "missing")
        }
        guard try fields["enabled"]?.bool() ?? (base?.clusters != nil) else { return nil }
        let defaults = base?.clusters ?? .standard
        var maxZoom = defaults.maxZoom
        if let zoom = fields["max_zoom"] {
            maxZoom = try zoom.integer(atLeast: ClusterSettings.maxZoomRange.lowerBound)
            guard ClusterSettings.maxZoomRange.contains(maxZoom) else { throw zoom.error("expected a zoom from 0 to \(ClusterSettings.maxZoomRange.upperBound)") }
        }
        return ClusterSettings(
            maxZoom: maxZoom,
            radius: try fields["radius"]?.number(in: ClusterSettings.radiusRange, "a radius in pixels") ?? defaults.radius,
            extent: try fields["extent"]?.number(in: ClusterSettings.extentRange, "a tile size in pixels") ?? defaults.extent)
    }

    /// The `limits` object: `max_element_bytes`, `max_tags`, `max_value_bytes`, each a whole
    /// number of at least 1; absent fields come from `base`.
    private static func readLimits(_ node: JSONNode?, base: OSMReadLimits?) throws(PipelineError) -> OSMReadLimits {
        let keys = ["max_element_bytes", "max_tags", "max_value_bytes"]
        let fields = try node?.object(allowing: Set(keys)) ?? [:]
        if base == nil, let missing = keys.first(where: { fields[$0] == nil }) {
            throw PipelineError(file: node?.file ?? "default.json", path: ".limits." + missing, message: "missing")
        }
        return OSMReadLimits(
            maxElementBytes: try fields["max_element_bytes"]?.integer(atLeast: 1) ?? base!.maxElementBytes,
            maxTags: try fields["max_tags"]?.integer(atLeast: 1) ?? base!.maxTags,
            maxValueBytes: try fields["max_value_bytes"]?.integer(atLeast: 1) ?? base!.maxValueBytes)
    }

    private static func gateSettings(_ node: JSONNode?, base: Gates?) throws(PipelineError) -> Gates {
        let fields = try node?.object(allowing: ["min_spots", "max_drop"]) ?? [:]
        if base == nil, let missing = ["min_spots", "max_drop"].first(where: { fields[$0] == nil }) {
            throw PipelineError(file: node?.file ?? "default.json", path: ".gates." + missing, message: "missing")
        }
        return Gates(
            minSpots: try fields["min_spots"]?.integer(atLeast: 0) ?? base!.minSpots,
            maxDrop: try fields["max_drop"]?.number(in: 0...1, "a fraction") ?? base!.maxDrop)
    }
}
