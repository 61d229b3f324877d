import Foundation
import OSMInput
import SpotIndex
import SpotState
import Spots

/// An update of an index from osmChange files: its state (`StatePair.open(forIndex:)`) with the
/// changes applied (`ChangeSet`) gives the records, node locations and way node lists a build
/// of the changed extract would read; the candidates are made of them as the build makes them
/// (`CandidateMaker`), and every stage runs and the index is encoded as in a build. So the
/// update's index is the build's, by construction: the tests compare them on edited extracts.
public struct SpotUpdate {
    /// The pipeline the index was built with (checked against the index's metadata).
    public let pipeline: Pipeline
    /// Threads that read the change files' compression (their XML is parsed in order).
    public let threads: Int

    /// An update by `pipeline`.
    public init(pipeline: Pipeline, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.pipeline = pipeline
        self.threads = threads
    }

    /// What an update made: the new index's bytes, what it read and did, and the new state.
    public struct Result {
        /// The index's bytes.
        public let index: [UInt8]
        /// The stages' reports and counts, as a build's; the elements counted are the change files'.
        public let statistics: BuildStatistics
        /// What the change files did.
        public let changes: ChangeCounts
        /// The state to publish with the index.
        public let state: UpdatedState
    }

    /// Applies `changes` (osmChange files, in order) to the index at `index` and its state;
    /// the new state records `sequence` as the replication sequence reached, when given.
    /// Throws `StateError` (no state, a damaged or mismatched one), `IndexError`,
    /// `OSMInputError` (a change file that cannot be read) or `UpdateError`.
    public func run(index: String, changes files: [String], sequence: Int? = nil) throws -> Result {
        let state = try StatePair.open(forIndex: index)
        let metadata = try StateMetadata(state)
        let recorded = try SpotIndexReader(path: index).metadata()
        guard let settings = recorded.pipeline, settings == pipeline.settings, metadata.areas == pipeline.areas else {
            throw UpdateError(file: index, Self.mismatch(recorded.pipeline, pipeline.settings))
        }
        let base = try RecordTable(state)
        let build = SpotBuild(pipeline: pipeline, threads: threads)
        let maker = build.candidateMaker
        let geometry = try StateGeometry(
            state, metadata: metadata, folder: URL(fileURLWithPath: state.path).deletingLastPathComponent().path)
        var changeSet = ChangeSet(
            base: base, maker: maker, areas: metadata.areas,
            stateHas: Self.presence(in: geometry, areas: metadata.areas))
        var statistics = BuildStatistics()
        let (newest, inputs) = try read(
            files, into: &changeSet, statistics: &statistics, after: (metadata.timestamp, recorded.inputs))
        let areas = metadata.areas ? ChangedAreaSource(changes: changeSet, state: geometry) : nil
        let (records, made) = try changeSet.records.withTable { table in
            let (merged, fromBase) = changeSet.merged(with: table)
            // An area of the base whose lookups no change touches is placed by replaying them.
            let made = try maker.candidates(of: merged, areas: areas) { position in
                fromBase[position] && !merged[position].lookups.isEmpty
                    && !merged[position].lookups.touches(
                        ways: { changeSet.ways[$0] != nil }, nodes: { changeSet.nodes[$0] != nil })
            }
            var records = RecordArena()
            for (position, record) in merged.enumerated() { records.append(record, lookups: made.lookups[position]) }
            return (records, made)
        }
        // The pages of the state and its base that making the candidates read are not needed
        // while the index is encoded: the records are copied, the areas placed.
        geometry.baseFile.releaseResidentPages()
        state.releaseResidentPages()
        var candidates = made.candidates
        var read = StageReport(stage: "read")
        read.dropped = made.failures
        if changeSet.badCoordinates > 0 { read.dropped["bad_coordinates"] = changeSet.badCoordinates }
        if changeSet.badIDs > 0 { read.dropped["bad_ids"] = changeSet.badIDs }
        read.output = candidates.count
        read.input = read.output + read.dropped.values.reduce(0, +)
        statistics.stages = [read]
        let index = build.encode(&candidates, statistics: &statistics, newestTimestamp: newest, inputs: inputs)
        var updated = metadata
        updated.generator = SpotBuild.generator
        updated.timestamp = newest
        updated.sequence = sequence ?? metadata.sequence
        return Result(
            index: index, statistics: statistics, changes: changeSet.counts,
            state: try UpdatedState(metadata: updated, records: records, changes: changeSet, geometry: geometry))
    }

    /// Reads the change `files` into `changeSet`, counting their elements and bytes in
    /// `statistics`; returns the newest timestamp and the inputs to record, `earlier`'s and theirs.
    private func read(
        _ files: [String], into changeSet: inout ChangeSet, statistics: inout BuildStatistics,
        after earlier: (newest: String?, inputs: [IndexMetadata.Input])
    ) throws -> (newest: String?, inputs: [IndexMetadata.Input]) {
        var (newest, inputs) = earlier
        let filter = ChangeSet.filter(pipeline.selection, areas: pipeline.areas)
        for file in files {
            let hasher = SHA256()
            let summary = try OSMReader(
                file: file, filter: filter, limits: pipeline.limits, threads: threads, form: .changes
            )
            .read(into: &changeSet, rawBytes: hasher.update)
            statistics.add(summary)
            newest = [newest, summary.newestTimestamp].compactMap { $0 }.max()
            inputs.append(IndexMetadata.Input(name: file, bytes: summary.inputBytes, sha256: hasher.hexDigest()))
        }
        return (newest, inputs)
    }

    /// Whether `geometry` has a node or way, for a change set's count of deletions of objects
    /// the state never had: nil when it cannot tell (no areas read: no locations kept; a
    /// damaged block, which the candidates' own reads then report).
    private static func presence(
        in geometry: StateGeometry, areas: Bool
    ) -> (OSMElementType, Int64) -> Bool? {
        { type, id in
            guard areas else { return nil }
            do {
                switch type {
                case .node: return try geometry.location(of: id) != nil
                case .way: return try geometry.nodes(of: id) != nil
                case .relation: return nil
                }
            } catch {
                return nil
            }
        }
    }

    /// What differs between the pipeline an index records and the one given.
    private static func mismatch(
        _ recorded: IndexMetadata.PipelineSettings?, _ given: IndexMetadata.PipelineSettings
    ) -> String {
        guard let recorded else { return "records no pipeline: rebuild it with --keep-state" }
        if recorded.file != given.file || recorded.sha256 != given.sha256 {
            let name = recorded.file.map { "pipeline \($0) (SHA-256 \($0 == given.file ? "differs" : "recorded"))" }
            return "was built with \(name ?? "the default pipeline"); update it with the same (--pipeline FILE)"
        }
        return "was built with other settings (keep_all, dedupe, clusters, areas, select or exclude); "
            + "update it with the same flags as its build"
    }
}

/// Why an update cannot run: the pipeline or flags differ from the index's build (exit 65).
public struct UpdateError: Error, CustomStringConvertible, Sendable {
    /// The index.
    public let file: String
    /// What differs.
    public let message: String

    init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: what is wrong`.
    public var description: String { "\(file): \(message)" }
}
