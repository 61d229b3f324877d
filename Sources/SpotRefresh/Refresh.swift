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
    /// What to build, where to publish, the gates and the generations to keep.
    public let pipeline: Pipeline
    /// The published path.
    public let output: String
    /// Rebuild even when the inputs are unchanged.
    public let force: Bool
    /// Threads that parse XML.
    public let threads: Int
    /// Where each step is logged.
    public let log: RefreshLog

    /// A refresh of `pipeline`, whose output must be set.
    public init(pipeline: Pipeline, log: RefreshLog, force: Bool = false, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        precondition(pipeline.output != nil, "a refresh needs the pipeline's output")
        self.pipeline = pipeline
        self.output = pipeline.output!
        self.force = force
        self.threads = threads
        self.log = log
    }

    private var generations: Generations { Generations(output: output, keep: pipeline.keep) }

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
            log.stage("unchanged", seconds: 0, counts: ["spots": published.count], message: "inputs and pipeline as published")
            return .unchanged(spots: published.count)
        }
        let bytes = try log.timed("build") { () -> ([UInt8], counts: [String: Int], message: String?) in
            let (bytes, statistics) = try SpotBuild(pipeline: pipeline, threads: threads).run()
            return (bytes, ["nodes": statistics.nodes, "spots": statistics.spots, "input_bytes": statistics.inputBytes, "index_bytes": bytes.count], nil)
        }
        try log.timed("write") { () -> ((), counts: [String: Int], message: String?) in
            let candidate = try AtomicOutput(path: generations.candidate)
            try candidate.write(bytes)
            try candidate.commit()
            return ((), ["bytes": bytes.count], nil)
        }
        let (report, reasons) = try log.timed("gates") { () -> ((Report, [String]), counts: [String: Int], message: String?) in
            let report = try Report(index: try SpotIndexReader(path: generations.candidate), against: published, maxDrop: pipeline.gates.maxDrop)
            let reasons = gateFailures(report, spots: report.coverage.total)
            return ((report, reasons), ["failed": reasons.count], reasons.isEmpty ? nil : reasons.joined(separator: "; "))
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

    /// The gates `report` fails, one line each: too few spots, or a fall of more than the
    /// maximum drop overall or in one category against the published index.
    private func gateFailures(_ report: Report, spots: Int) -> [String] {
        var reasons: [String] = []
        let gates = pipeline.gates
        if spots < gates.minSpots { reasons.append("\(spots) spots, fewer than gates.min_spots \(gates.minSpots)") }
        guard let diff = report.diff else { return reasons }
        if diff.total.fell(byMoreThan: gates.maxDrop) {
            reasons.append("spots fell from \(diff.total.before) to \(diff.total.after), more than gates.max_drop \(gates.maxDrop)")
        }
        reasons += diff.warningMessages
        return reasons
    }
}
