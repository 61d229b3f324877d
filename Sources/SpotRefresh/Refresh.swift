import Foundation
import SpotIndex
import SpotOutput
import SpotPipeline
import SpotReport
import SpotState

/// What a refresh did.
public enum RefreshOutcome {
    /// The inputs and the pipeline file are those the published index was built from: nothing
    /// was built. Carries the published index's spot count.
    case unchanged(spots: Int)
    /// A new index was published; the report compares it with the one it replaced, if any.
    /// `overridden` lists the drop gate's failures that `--accept-drop` let pass.
    case published(Report, overridden: [String])
    /// A gate refused the new build, kept as NAME.rejected.spots with its report as
    /// NAME.rejected.json; the published index is untouched. The report's diff explains the
    /// refusal, with one line per failed gate.
    case rejected(Report, reasons: [String])
    /// The pipeline is held after a rollback: nothing was built.
    case held
}

/// What a run did, and whether it lifted a hold (`--resume`, `--force`).
public struct RefreshResult {
    /// What the run did.
    public let outcome: RefreshOutcome
    /// Whether the pipeline was held and this run lifted the hold.
    public let liftedHold: Bool
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
    /// Rebuild even when the inputs are unchanged, and lift a hold.
    public let force: Bool
    /// Lift a hold (after `--rollback`) and run.
    public let resume: Bool
    /// Publish past the drop gate (`--accept-drop`): NAME.rejected.spots when it was built from
    /// these inputs and pipeline, else a new build; never one below `min_spots`.
    public let acceptDrop: Bool
    /// Threads that parse XML.
    public let threads: Int
    /// Where each step is logged.
    public let log: RefreshLog

    /// A refresh of `pipeline`; throws when its gates or generations are invalid, or it names no
    /// inputs or no output.
    public init(
        pipeline: Pipeline, log: RefreshLog, force: Bool = false, resume: Bool = false, acceptDrop: Bool = false,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(PipelineError) {
        settings = try RefreshSettings(pipeline)
        output = try pipeline.refreshOutput()
        self.pipeline = pipeline
        self.force = force
        self.resume = resume
        self.acceptDrop = acceptDrop
        self.threads = threads
        self.log = log
    }

    private var generations: Generations { Generations(output: output, keep: settings.keep) }

    /// Where a build that a gate refused is kept: NAME.rejected.spots beside the output.
    public var rejectedPath: String { generations.rejected }
    /// Where its report is kept: NAME.rejected.json.
    public var rejectedReportPath: String { generations.rejectedReport }
    /// Where every run records how it ended: NAME.status.json.
    public var statusPath: String { generations.status }
    /// The pipeline's name in the status and the metrics: the output's name without `.spots`.
    public var name: String { generations.pipelineName }

    /// Builds, checks and publishes (or skips, or refuses, or, held, does nothing); throws for a
    /// lock held elsewhere, unreadable inputs (OSMInputError), or files that cannot be written.
    public func run() throws -> RefreshResult {
        let generations = generations
        try checkFolder()
        let lock = try log.timed("lock") { (try RefreshLock(output: output), [:], nil) }
        defer { withExtendedLifetime(lock) {} }
        let held = RefreshStatus.read(generations.status)?.held ?? false
        if held && !resume && !force {
            log.event("held", level: .warning, message: "held since a rollback; run with --resume (or --force) to lift")
            return RefreshResult(outcome: .held, liftedHold: false)
        }
        if held { log.event("resume", level: .info, message: "the hold after a rollback is lifted") }
        return RefreshResult(outcome: try build(generations), liftedHold: held)
    }

    /// The steps after the lock and the hold: check, build (or take the refused build that
    /// `--accept-drop` accepts), gates, publish.
    private func build(_ generations: Generations) throws -> RefreshOutcome {
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
        let state: CandidateState?
        if let changes = settings.changes {
            switch try plan(ReplicationFolder(path: changes), published: published != nil) {
            case .unchanged(let sequence):
                log.stage(
                    "unchanged", seconds: 0, counts: ["spots": published?.count ?? 0, "sequence": sequence],
                    message: "no change file newer than the published index's state")
                return .unchanged(spots: published?.count ?? 0)
            case .update(let files, let newest):
                state = try updateCandidate(generations, changes: files, sequence: newest)
            case .build(let reason, let newest):
                log.event("full_build", level: .info, message: reason)
                state = try buildCandidate(generations, sequence: newest)
            }
        } else if !force, let published, let metadata = try? published.metadata(), pipeline.built(metadata) {
            log.stage(
                "unchanged", seconds: 0, counts: ["spots": published.count], message: "inputs and pipeline as published"
            )
            return .unchanged(spots: published.count)
        } else if acceptDrop, let refused = try? SpotIndexReader(path: generations.rejected),
            let metadata = try? refused.metadata(), pipeline.built(metadata)
        {
            try generations.move(generations.rejected, to: generations.candidate)
            log.event(
                "accept", level: .warning,
                message: "publishing \(generations.rejected), built from these inputs and pipeline, past the drop gate")
            state = nil
        } else {
            state = try buildCandidate(generations, sequence: nil)
        }
        let (report, drops, reasons) = try log.timed("gates") {
            () -> ((Report, [String], [String]), counts: [String: Int], message: String?) in
            let candidate = try SpotIndexReader(path: generations.candidate, shownAs: output)
            let report = try Report(index: candidate, against: published, maxDrop: settings.gates.maxDrop)
            let drops = settings.gates.dropFailures(of: report)
            let reasons = settings.gates.minimumFailures(of: report) + (acceptDrop ? [] : drops)
            return (
                (report, drops, reasons), ["failed": reasons.count],
                reasons.isEmpty ? nil : reasons.joined(separator: "; ")
            )
        }
        guard reasons.isEmpty else {
            try generations.move(generations.candidate, to: generations.rejected)
            try log.timed("report") { () -> ((), counts: [String: Int], message: String?) in
                let file = try AtomicOutput(path: generations.rejectedReport)
                try file.write(Array(ReportFormat.json.render(report).utf8))
                try file.commit()
                return ((), [:], generations.rejectedReport)
            }
            return .rejected(report, reasons: reasons)
        }
        if acceptDrop && !drops.isEmpty {
            log.event("drop_gate_overridden", level: .warning, message: drops.joined(separator: "; "))
        }
        try log.timed("publish") { () -> ((), counts: [String: Int], message: String?) in
            let pending = try state.map { state in
                try StatePair.prepare(forIndex: output, identity: state.identity, write: state.write)
            }
            do {
                try generations.publish(generations.candidate)
            } catch {
                pending?.discard()
                throw error
            }
            try pending?.finish()
            return ((), ["spots": report.coverage.total, "keep": generations.keep], output)
        }
        unlink(generations.rejectedReport)
        return .published(report, overridden: acceptDrop ? drops : [])
    }

    /// Builds the pipeline into the candidate file beside the output; returns the state to
    /// publish beside it when the pipeline keeps one (`state`, or `changes`), recording the
    /// replication `sequence` the build's inputs are as new as.
    private func buildCandidate(_ generations: Generations, sequence: Int?) throws -> CandidateState? {
        let keepsState = pipeline.keepState || settings.changes != nil
        let (bytes, state) = try log.timed("build") {
            () -> (([UInt8], BuildState?), counts: [String: Int], message: String?) in
            let (bytes, statistics, state) = try SpotBuild(pipeline: pipeline, threads: threads).run(
                keepingState: keepsState)
            return (
                (bytes, state),
                [
                    "nodes": statistics.nodes, "spots": statistics.spots, "input_bytes": statistics.inputBytes,
                    "index_bytes": bytes.count,
                ], nil
            )
        }
        try writeCandidate(bytes, generations)
        return state.map { state in
            var state = state
            state.metadata.sequence = sequence
            return CandidateState(identity: Array(bytes.prefix(32)), write: state.write)
        }
    }

    /// Applies `changes` to the published index and its state into the candidate file; returns
    /// the state to publish beside it, at replication `sequence`.
    private func updateCandidate(_ generations: Generations, changes: [String], sequence: Int) throws -> CandidateState
    {
        let result = try log.timed("update") { () -> (SpotUpdate.Result, counts: [String: Int], message: String?) in
            let result = try SpotUpdate(pipeline: pipeline, threads: threads).run(
                index: output, changes: changes, sequence: sequence)
            return (
                result,
                [
                    "changes": changes.count, "sequence": sequence, "created": result.changes.created,
                    "modified": result.changes.modified, "deleted": result.changes.deleted,
                    "skipped_older": result.changes.skippedOlder, "deleted_missing": result.changes.deletedMissing,
                    "spots": result.statistics.spots,
                    "index_bytes": result.index.count,
                ], nil
            )
        }
        try writeCandidate(result.index, generations)
        return CandidateState(identity: Array(result.index.prefix(32)), write: result.state.write)
    }

    /// Writes `bytes` as the candidate file beside the output.
    private func writeCandidate(_ bytes: [UInt8], _ generations: Generations) throws {
        try log.timed("write") { () -> ((), counts: [String: Int], message: String?) in
            let candidate = try AtomicOutput(path: generations.candidate)
            try candidate.write(bytes)
            try candidate.commit()
            return ((), ["bytes": bytes.count], nil)
        }
    }

    /// The output's folder, where the lock, the generations and the status file go.
    private var folder: String { URL(fileURLWithPath: output).deletingLastPathComponent().path }

    private var folderExists: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Throws, naming the folder as the cause, when the output's folder is missing: before the
    /// lock file, the build and the status file fail on it.
    private func checkFolder() throws(RefreshError) {
        guard folderExists else {
            throw RefreshError(
                .cannotPublish, file: folder, "the output folder does not exist (the pipeline's \"output\"); create it")
        }
    }

    /// The spots of the published index, nil when none is published or it is unreadable.
    public var publishedSpots: Int? { (try? SpotIndexReader(path: output))?.count }

    /// Records how a run that began at `started` ended: NAME.status.json (unless the output's
    /// folder is missing, the failure already named) and, when `metrics` names a file, the
    /// Prometheus metrics (both atomically; a file that cannot be written is logged as an error),
    /// then the log's result line with `reason`, why a failed run failed. The hold is set by a
    /// rollback and a held run, lifted by `liftedHold`, else kept.
    public func record(
        _ ending: RefreshEnding, exitCode: Int32, started: Date, reason: String? = nil, liftedHold: Bool = false,
        gateFailures: [String] = [], dropGateOverridden: Bool = false, metrics: String?
    ) {
        let previous = RefreshStatus.read(generations.status)
        let now = ISO8601DateFormatter().string(from: Date())
        let published = try? SpotIndexReader(path: output)
        let refused = ending == .refused ? try? SpotIndexReader(path: generations.rejected) : nil
        let status = RefreshStatus(
            pipeline: name, outcome: ending, exitCode: exitCode, time: now,
            durationSeconds: (Date().timeIntervalSince(started) * 1000).rounded() / 1000, index: output,
            spots: published?.count, refused: refused.map { .init(index: generations.rejected, spots: $0.count) },
            reason: reason, inputs: RefreshStatus.inputs(of: try? (refused ?? published)?.metadata()),
            gateFailures: gateFailures,
            held: [.rolledBack, .held].contains(ending) || (!liftedHold && previous?.held == true),
            dropGateOverridden: dropGateOverridden,
            lastSuccess: ending.isSuccess ? now : previous?.lastSuccess)
        do {
            if folderExists { try status.write(to: generations.status) }
            if let metrics { try RefreshMetrics.write(status, to: metrics) }
        } catch {
            log.event("status", level: .error, message: "\(error)")
        }
        log.result(ending, exitCode: exitCode, reason: reason)
    }

    /// Makes the previous generation current again, keeping the replaced index as
    /// NAME.rolledback.spots; the caller records the hold (`record(.rolledBack…)`).
    public func rollback() throws {
        try checkFolder()
        let lock = try log.timed("lock") { (try RefreshLock(output: output), [:], nil) }
        defer { withExtendedLifetime(lock) {} }
        try log.timed("rollback") { () -> ((), counts: [String: Int], message: String?) in
            try generations.rollback()
            return ((), [:], output)
        }
    }
}
