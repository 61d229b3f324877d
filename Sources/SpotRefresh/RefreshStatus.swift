import Foundation
import SpotIndex
import SpotOutput
import SpotPipeline

/// How a refresh run ended, as its log's result line, NAME.status.json and the metrics name it.
public enum RefreshEnding: String, CaseIterable, Sendable, Codable {
    /// A new index was published.
    case published
    /// The inputs and pipeline were those of the published index: nothing was built.
    case unchanged
    /// A gate refused the build, kept as NAME.rejected.spots.
    case refused
    /// The pipeline is held after a rollback: nothing was built.
    case held
    /// Another refresh of the output held the lock.
    case locked
    /// `--rollback` made the previous generation current again, and held the pipeline.
    case rolledBack = "rolled_back"
    /// `--resume` lifted the hold, and the run published or found nothing to build.
    case resumed
    /// Anything else stopped the run: an input, the pipeline file, a file that could not be written.
    case failed

    /// Whether the published index is good after such a run.
    public var isSuccess: Bool { [.published, .unchanged, .resumed].contains(self) }
}

/// NAME.status.json beside the output, written atomically after every run, whatever its
/// outcome: what monitoring reads to know whether last night worked (docs/refresh.md).
public struct RefreshStatus: Codable, Sendable, Equatable {
    /// One input of the index the run ended with, as its metadata records it.
    public struct Input: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int
        public var sha256: String?
    }

    /// The pipeline's name: its output's file name without `.spots`.
    public var pipeline: String
    /// How the last run ended.
    public var outcome: RefreshEnding
    /// Its exit code.
    public var exitCode: Int32
    /// When it ended (ISO 8601, UTC).
    public var time: String
    /// How long it took, in seconds.
    public var durationSeconds: Double
    /// The spots of the published index after it, nil when nothing is published.
    public var spots: Int?
    /// The inputs of the index it ended with (published, or refused), with their SHA-256.
    public var inputs: [Input]
    /// The gates the last build failed, one line each.
    public var gateFailures: [String]
    /// Whether the pipeline is held (after `--rollback`, until `--resume` or `--force`).
    public var held: Bool
    /// Whether the run published past the drop gate (`--accept-drop`).
    public var dropGateOverridden: Bool
    /// When a run last ended well (published, unchanged or resumed), if ever.
    public var lastSuccess: String?

    enum CodingKeys: String, CodingKey {
        case pipeline, outcome, time, spots, inputs, held
        case exitCode = "exit_code"
        case durationSeconds = "duration_s"
        case gateFailures = "gate_failures"
        case dropGateOverridden = "drop_gate_overridden"
        case lastSuccess = "last_success"
    }

    /// The inputs `metadata` records.
    static func inputs(of metadata: IndexMetadata?) -> [Input] {
        metadata?.inputs.map { Input(path: $0.name, bytes: $0.bytes, sha256: $0.sha256) } ?? []
    }

    /// The status file at `path`, or nil when there is none or it cannot be read.
    public static func read(_ path: String) -> RefreshStatus? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(RefreshStatus.self, from: data)
    }

    /// Writes the status to `path` atomically (a temporary file renamed over it).
    public func write(to path: String) throws(OutputError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes = Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
        let output = try AtomicOutput(path: path)
        try output.write(bytes)
        try output.commit()
    }
}
