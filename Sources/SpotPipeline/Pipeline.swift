import Foundation
import OSMInput
import SpotCluster
import SpotIndex
import SpotJSON
import SpotText
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

/// A build's description: what to read, where to write, how to select, categorize and merge.
/// Read from a pipeline file (Pipelines/NAME.json), each field absent there taken from
/// Pipelines/default.json, which is compiled into the program. docs/build.md documents the schema.
public struct Pipeline: Sendable {
    /// The pipeline file, or nil for the defaults alone.
    public var file: String?
    /// The SHA-256 of the pipeline file's bytes, or nil for the defaults alone.
    public var fileSHA256: String?
    /// OSM inputs, resolved against the pipeline file's folder.
    public var inputs: [String]
    /// The output index, resolved against the pipeline file's folder.
    public var output: String?
    /// An existing output may be replaced (`overwrite`; `-O`/`--overwrite`).
    public var overwrite: Bool
    /// The build also writes the index's state file, for updates from change files (`state`;
    /// `--keep-state`).
    public var keepState: Bool
    /// The tag-to-category table.
    public var categories: CategoryTable
    /// The query words that name categories and OSM values (`category_words`, `value_words`):
    /// the index stores them unless they are the built-in ones, which every reader has.
    public var searchWords: SearchWords
    /// What makes an object a spot (`select`, `addresses`).
    public var selection: SpotSelection
    /// Selecting tags ("amenity=bench") whose objects are not places.
    public var exclude: Set<String>
    /// Keep every selected object: no exclusions, unmapped values kept with no category.
    public var keepAll: Bool
    /// Ways and multipolygon relations become spots too (`areas`; `--no-areas` reads nodes only).
    public var areas: Bool
    /// Same-name merging.
    public var dedupe: DedupeSettings
    /// The fields the build does not read (`gates`, `keep`): the nightly refresh's, which
    /// SpotRefresh reads into its settings.
    public var refreshFields: PipelineFields
    /// How the build clusters spots for maps; nil when it writes no cluster levels
    /// (`clusters.enabled` false, or `--no-clusters`).
    public var clusters: ClusterSettings?
    /// Bounds on one element of the input (`limits`; `--max-element-bytes`, `--max-tags`,
    /// `--max-value-bytes`): an input over them is refused.
    public var limits: OSMReadLimits

    /// The settings as the index metadata records them. The pipeline file is recorded by its
    /// name (last path component) and SHA-256, not its path as typed, so that the same inputs
    /// give the same index whether the file was named by a relative or an absolute path.
    public var settings: IndexMetadata.PipelineSettings {
        IndexMetadata.PipelineSettings(
            file: file.map { URL(fileURLWithPath: $0).lastPathComponent }, sha256: fileSHA256,
            exclude: keepAll ? [] : exclude.sorted(), keepAll: keepAll,
            dedupe: .init(
                enabled: dedupe.enabled, radius: dedupe.radius,
                radiusByCategory: Dictionary(
                    uniqueKeysWithValues: dedupe.radiusByCategory.map { ($0.key.rawValue, $0.value) })),
            clusters: clusters, select: selection.keys, addresses: selection.addresses,
            unreachedCategories: unreachedCategories.map(\.rawValue))
    }

    /// The categories that no rule of the selected keys gives: what this pipeline's builds never
    /// produce.
    public var unreachedCategories: [Category] {
        categories.unreachedCategories(selecting: selection.keys)
    }

    /// The built-in defaults (Pipelines/default.json and categories.json).
    public static func defaults() throws(PipelineError) -> Pipeline {
        do throws(JSONFieldError) {
            return try PipelineFile.parse(
                BuiltInPipelineFiles.defaultPipeline, file: "default.json", folder: nil, over: nil)
        } catch {
            throw PipelineError(error)
        }
    }

    /// The pipeline in `path`, over the defaults.
    public static func load(_ path: String) throws(PipelineError) -> Pipeline {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: path)
                ? "cannot read it as UTF-8 text" : "No such file or directory"
            throw PipelineError(isUnreadable: true, file: path, path: nil, message: reason)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let base = try defaults()
        var pipeline: Pipeline
        do throws(JSONFieldError) {
            pipeline = try PipelineFile.parse(text, file: path, folder: folder, over: base)
        } catch {
            throw PipelineError(error)
        }
        pipeline.file = path
        pipeline.fileSHA256 = SHA256.hex(of: Array(text.utf8))
        return pipeline
    }
}

/// Top-level fields of a pipeline file that the build does not read, kept as JSON for the
/// module that does: the nightly refresh's `gates`, `keep`, `metrics` and `changes`, which SpotRefresh reads and
/// checks. So the pipeline file carries them while the build knows nothing of the refresh.
public struct PipelineFields: Sendable {
    /// The keys of the fields kept, among a pipeline file's top-level keys.
    static let keys: Set<String> = ["gates", "keep", "metrics", "changes"]

    /// The fields as the pipeline file has them.
    public let fields: PipelineObject
    /// The same fields of the pipeline beneath: default.json's; nil for default.json itself.
    public var base: PipelineFields? { beneath.first }
    private let beneath: [PipelineFields]

    /// The fields of `keys` among `root`, a pipeline file's top level, over those of `base`.
    init(of root: PipelineObject, over base: PipelineFields?) {
        fields = PipelineObject(root.object, members: root.members.filter { Self.keys.contains($0.key) })
        beneath = base.map { [$0] } ?? []
    }
}
