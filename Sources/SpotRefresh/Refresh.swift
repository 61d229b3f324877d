import Foundation
import SpotIndex
import SpotPipeline
import SpotReport

/// What a refresh did.
public enum RefreshOutcome {
    /// The inputs and the pipeline file are those the published index was built from: nothing
    /// was built. Carries the published index's spot count.
    case unchanged(spots: Int)
    /// A new index was published; the report compares it with the one it replaced, if any.
    case published(Report)
    /// A gate refused the new build, kept as NAME.rejected.spots; the published index is
    /// untouched. The report's diff explains the refusal, with one line per failed gate.
    case rejected(Report, reasons: [String])
}

/// The nightly job behind `spots refresh`: build the pipeline's inputs, check the gates against
/// the published index, and publish atomically, never replacing a good index with a bad one.
///
/// Steps, each logged: take the lock beside the output (`RefreshLock`); skip the build when the
/// published index was made from the same inputs and pipeline file (sizes and SHA-256 digests);
/// build into a candidate file beside the output; apply the gates (minimum spot count, maximum
/// drop overall and per category, against the published index); publish by renaming over the
/// output while keeping earlier generations (`Generations`).
public struct Refresh {
    /// What to build and where to publish.
    public let pipeline: Pipeline
    /// The published path.
    public let output: String
    /// The gates and the generations to keep.
    public let settings: RefreshSettings
    /// Rebuild even when the inputs are unchanged.
    public let force: Bool
    /// Threads that parse XML.
    public let threads: Int
    /// Where each step is logged.
    public let log: RefreshLog

    /// A refresh of `pipeline`; throws when its gates or generations are invalid, or it names no
    /// inputs or no output.
    public init(
        pipeline: Pipeline, log: RefreshLog, force: Bool = false,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(PipelineError) {
        settings = try RefreshSettings(pipeline)
        output = try pipeline.refreshOutput()
        self.pipeline = pipeline
        self.force = force
        self.threads = threads
        self.log = log
    }

    private var generations: Generations { Generations(output: output, keep: settings.keep) }

    /// Where a build that a gate refused is kept: NAME.rejected.spots beside the output.
    public var rejectedPath: String { generations.rejected }

    /// Builds, checks and publishes (or skips, or refuses); throws for a lock held elsewhere,
    /// unreadable inputs (OSMInputError), or files that cannot be written.
    public func run() throws -> RefreshOutcome {
        let generations = generations
        let lock = try log.timed("lock") { (try RefreshLock(output: output), [:], nil) }
        defer { withExtendedLifetime(lock) {} }
        unlink(generations.candidate)  // left by a run that was killed; the lock is ours now
        let published = log.timed("check") { () -> (SpotIndexReader?, counts: [String: Int], message: String?) in
            guard FileManager.default.fileExists(atPath: output) else { return (nil, [:], "nothing published yet") }
            do {
                let index = try SpotIndexReader(path: output)
                return (index, ["published_spots": index.count], nil)
            } catch {
                return (nil, [:], "the published index is unreadable (\(error)); the gates compare with nothing")
            }
        }
        if !force, let published, let metadata = try? published.metadata(), pipeline.built(metadata) {
            log.stage(
                "unchanged", seconds: 0, counts: ["spots": published.count], message: "inputs and pipeline as published"
            )
            return .unchanged(spots: published.count)
        }
        let bytes = try log.timed("build") { () -> ([UInt8], counts: [String: Int], message: String?) in
            let (bytes, statistics) = try SpotBuild(pipeline: pipeline, threads: threads).run()
            return (
                bytes,
                [
                    "nodes": statistics.nodes, "spots": statistics.spots, "input_bytes": statistics.inputBytes,
                    "index_bytes": bytes.count,
                ], nil
            )
        }
        try log.timed("write") { () -> ((), counts: [String: Int], message: String?) in
            let candidate = try AtomicOutput(path: generations.candidate)
            try candidate.write(bytes)
            try candidate.commit()
            return ((), ["bytes": bytes.count], nil)
        }
        let (report, reasons) = try log.timed("gates") {
            () -> ((Report, [String]), counts: [String: Int], message: String?) in
            let candidate = try SpotIndexReader(path: generations.candidate)
            let report = try Report(index: candidate, against: published, maxDrop: settings.gates.maxDrop)
            let reasons = settings.gates.failures(of: report)
            return (
                (report, reasons), ["failed": reasons.count], reasons.isEmpty ? nil : reasons.joined(separator: "; ")
            )
        }
        guard reasons.isEmpty else {
            try generations.move(generations.candidate, to: generations.rejected)
            return .rejected(report, reasons: reasons)
        }
        try log.timed("publish") { () -> ((), counts: [String: Int], message: String?) in
            try generations.publish(generations.candidate)
            return ((), ["spots": report.coverage.total, "keep": generations.keep], output)
        }
        return .published(report)
    }

    /// Makes the previous generation current again, keeping the replaced index as
    /// NAME.rolledback.spots.
    public func rollback() throws {
        let lock = try log.timed("lock") { (try RefreshLock(output: output), [:], nil) }
        defer { withExtendedLifetime(lock) {} }
        try log.timed("rollback") { () -> ((), counts: [String: Int], message: String?) in
            try generations.rollback()
            return ((), [:], output)
        }
    }
}
