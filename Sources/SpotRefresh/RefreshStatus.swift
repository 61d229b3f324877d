import Foundation
import SpotIndex
import SpotJSON
import SpotOutput
import SpotPipeline

/// How a refresh run ended, as its log's result line, NAME.status.json and the metrics name it.
public enum RefreshEnding: String, CaseIterable, Sendable {
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
public struct RefreshStatus: Sendable, Equatable {
    /// One input of the index the run ended with, as its metadata records it.
    public struct Input: Sendable, Equatable {
        /// The input as the metadata names it.
        public var path: String
        /// Its size in bytes.
        public var bytes: Int
        /// The SHA-256 of its bytes, when recorded.
        public var sha256: String?
    }

    /// A build a gate refused: where it is kept and its spots.
    public struct Refused: Sendable, Equatable {
        /// NAME.rejected.spots.
        public var index: String
        /// Its spots.
        public var spots: Int
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
    /// The published index `spots` counts: the output path.
    public var index: String
    /// The spots of the published index after it, nil when nothing is published.
    public var spots: Int?
    /// The build the last run refused, when it refused one.
    public var refused: Refused?
    /// Why the last run failed (the error line, or what `--record-failure` gave), when it failed.
    public var reason: String?
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

    /// The inputs `metadata` records.
    static func inputs(of metadata: IndexMetadata?) -> [Input] {
        metadata?.inputs.map { Input(path: $0.name, bytes: $0.bytes, sha256: $0.sha256) } ?? []
    }

    /// The status file at `path`, or nil when there is none or it cannot be read.
    public static func read(_ path: String) -> RefreshStatus? {
        guard let data = FileManager.default.contents(atPath: path),
            let value = try? JSONValue(parsing: data)
        else { return nil }
        return try? RefreshStatus(JSONField(value, document: path))
    }

    /// The status as NAME.status.json has it: snake_case keys, absent optional members left out.
    private var json: JSONValue {
        var members: [String: JSONValue] = [
            "pipeline": .string(pipeline), "outcome": .string(outcome.rawValue), "exit_code": .integer(exitCode),
            "time": .string(time), "duration_s": .number(durationSeconds), "index": .string(index),
            "inputs": .array(
                inputs.map { input in
                    .object(
                        ["path": .string(input.path), "bytes": .integer(input.bytes)].merging(
                            input.sha256.map { ["sha256": .string($0)] } ?? [:]
                        ) { $1 })
                }),
            "gate_failures": .array(gateFailures.map(JSONValue.string)), "held": .bool(held),
            "drop_gate_overridden": .bool(dropGateOverridden),
        ]
        if let spots { members["spots"] = .integer(spots) }
        if let refused {
            members["refused"] = .object(["index": .string(refused.index), "spots": .integer(refused.spots)])
        }
        if let reason { members["reason"] = .string(reason) }
        if let lastSuccess { members["last_success"] = .string(lastSuccess) }
        return .object(members)
    }

    /// Writes the status to `path` atomically (a temporary file renamed over it), laid out as
    /// Foundation's pretty-printing encoder laid it out before (`JSONValue.Layout.pretty`).
    public func write(to path: String) throws(OutputError) {
        let output = try AtomicOutput(path: path)
        try output.write(Array(json.text(.pretty).utf8) + [0x0A])
        try output.commit()
    }
}

extension RefreshStatus {
    /// The status as `json` holds it: the members `json` writes (absent optional ones, or null,
    /// are nil; other members are let be).
    private init(_ json: JSONField) throws(JSONFieldError) {
        let outcome = try json.member("outcome")
        guard let ending = RefreshEnding(rawValue: try outcome.string()) else { throw outcome.error("unknown outcome") }
        self.outcome = ending
        pipeline = try json.member("pipeline").string()
        exitCode = Int32(clamping: try json.member("exit_code").wholeNumber())
        time = try json.member("time").string()
        durationSeconds = try json.member("duration_s").number()
        index = try json.optionalMember("index")?.string() ?? ""
        spots = try json.optionalMember("spots")?.wholeNumber()
        refused = try json.optionalMember("refused").map { (refused) throws(JSONFieldError) in
            Refused(index: try refused.member("index").string(), spots: try refused.member("spots").wholeNumber())
        }
        reason = try json.optionalMember("reason")?.string()
        inputs = try json.member("inputs").array().map { (input) throws(JSONFieldError) in
            Input(
                path: try input.member("path").string(), bytes: try input.member("bytes").wholeNumber(),
                sha256: try input.optionalMember("sha256")?.string())
        }
        gateFailures = try json.member("gate_failures").array().map { (line) throws(JSONFieldError) in try line.string()
        }
        held = try json.member("held").bool()
        dropGateOverridden = try json.member("drop_gate_overridden").bool()
        lastSuccess = try json.optionalMember("last_success")?.string()
    }
}
