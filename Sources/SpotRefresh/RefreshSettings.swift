import Foundation
import SpotJSON
import SpotPipeline

/// What `spots refresh` reads of a pipeline file beside what a build reads: the gates and the
/// generations to keep (`gates`, `keep`), the metrics file (`metrics`) and the change files (`changes`). The pipeline keeps these fields as JSON
/// (`Pipeline.refreshFields`); a field the file leaves out comes from default.json, and an
/// invalid one is refused with its JSON path (`.gates.max_drop`), as for the rest of the file.
public struct RefreshSettings: Sendable, Equatable {
    /// What a new build must pass to be published.
    public var gates: Gates
    /// How many published generations to keep, the current one included.
    public var keep: Int
    /// Where to write the Prometheus metrics after each run (`metrics`, relative to the
    /// pipeline file's folder), if anywhere.
    public var metrics: String?
    /// A folder of osmChange files laid out as a replication server lays them out (`changes`,
    /// relative to the pipeline file's folder): when set, a refresh applies the ones newer than
    /// the published index's state instead of building from the inputs (`ReplicationFolder`).
    public var changes: String?

    /// The settings of `pipeline`; throws for an invalid field.
    public init(_ pipeline: Pipeline) throws(PipelineError) {
        do throws(JSONFieldError) {
            try self.init(pipeline.refreshFields)
        } catch {
            throw PipelineError(error)
        }
    }

    private static let gateKeys = ["min_spots", "max_drop"]

    /// The settings of `fields`, over those of the pipeline beneath (none for default.json, which
    /// must then give every field).
    private init(_ fields: PipelineFields) throws(JSONFieldError) {
        let base = try fields.base.map { (base) throws(JSONFieldError) in try RefreshSettings(base) }
        let root = fields.fields
        let gates = try root.object("gates", allowing: Set(Self.gateKeys), required: base == nil)
        if base == nil, let missing = Self.gateKeys.first(where: { gates[$0] == nil }) { throw gates.missing(missing) }
        self.gates = Gates(
            minSpots: try gates.integer("min_spots", atLeast: 0, inherited: base?.gates.minSpots),
            maxDrop: try gates.number("max_drop", in: 0...1, "a fraction", inherited: base?.gates.maxDrop))
        keep = try root.integer("keep", atLeast: 1, inherited: base?.keep)
        func path(_ node: JSONField) throws(JSONFieldError) -> String {
            let path = try node.string()
            guard !path.isEmpty else { throw node.error("expected a path") }
            guard !path.hasPrefix("/") else { return path }
            return URL(fileURLWithPath: root.file).deletingLastPathComponent().appendingPathComponent(path)
                .standardizedFileURL.path
        }
        metrics = try root["metrics"].map(path) ?? base?.metrics
        changes = try root["changes"].map(path) ?? base?.changes
    }
}
