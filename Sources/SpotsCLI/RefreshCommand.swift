import Foundation
import SpotJSON
import SpotPipeline
import SpotRefresh
import SpotReport

/// `spots refresh --pipeline Pipelines/NAME.json`: the nightly job that never publishes a bad
/// index.
enum RefreshCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["--pipeline"], valueName: "file",
            help: """
                The pipeline file: inputs, output, gates.min_spots,
                gates.max_drop and keep (generations).
                """),
        OptionSpec(
            names: ["--input"], valueName: "file",
            help: """
                Build from this file instead of the pipeline's first
                input, for this run (a fresh download; the caller
                replaces the input after it is published).
                """),
        OptionSpec(
            names: ["--record-failure"], valueName: "reason",
            help: """
                Build nothing: record a failed run, for this reason,
                in the status file, the metrics and the log (a cron
                wrapper's download failed); exit 69.
                """),
        OptionSpec(
            names: ["--force"], valueName: nil,
            help: """
                Rebuild even when the inputs and the pipeline file
                are those of the published index.
                """),
        OptionSpec(
            names: ["--rollback"], valueName: nil,
            help: """
                Make the previous generation (NAME.1.spots) current
                again; the replaced one is kept as NAME.rolledback.spots.
                """),
        OptionSpec(
            names: ["--resume"], valueName: nil,
            help: """
                Lift the hold a rollback set, and run.
                """),
        OptionSpec(
            names: ["--accept-drop"], valueName: nil,
            help: """
                Publish past the drop gate: NAME.rejected.spots when
                the inputs and pipeline are those it was built from,
                else a new build; never one below gates.min_spots.
                """),
        OptionSpec(
            names: ["--metrics"], valueName: "file",
            help: """
                Write Prometheus metrics to this file after each run
                (atomically, for node_exporter's textfile collector);
                the pipeline's "metrics" key does the same.
                """),
        .choice(
            ["--log-format"], of: RefreshLog.Format.self,
            help: """
                text (default) or json: one JSON object per line
                on standard error.
                """),
        OptionSpec(
            names: ["--threads"], valueName: "n",
            help: """
                Threads that parse XML (default: one per core; at
                most 16 run).
                """),
        Help.option,
    ]

    static let help = Help(
        command: "refresh",
        overview: "Rebuild a published index from its pipeline, publishing only a build that passes the gates.",
        options: options,
        modes: [
            Help.Mode(
                required: ["--pipeline"],
                optional: [
                    "--input", "--force", "--rollback", "--resume", "--accept-drop", "--metrics", "--log-format",
                    "--threads",
                ]),
            Help.Mode(required: ["--pipeline", "--record-failure"], optional: ["--metrics", "--log-format"]),
        ],
        discussion: """
            Holds a lock beside the output (a second refresh exits 75 at once). Skips the build
            when the inputs (size and SHA-256) and the pipeline file are those the published index
            was built from. A build with fewer than gates.min_spots spots, or whose spots fell by
            more than gates.max_drop overall or in a category, is kept as NAME.rejected.spots, its
            report diff printed, and the exit code is 3; the published index is untouched.
            Publishing renames over the output and keeps `keep` generations (NAME.1.spots, ...).
            --rollback also holds the pipeline: later runs build nothing (outcome held, exit 0)
            until --resume or --force. Every run writes NAME.status.json beside the output, and
            so does --record-failure, for a failure before spots ran (a download).
            Logs go to standard error, one line per step and a last result line; a summary line
            to standard output (with --log-format json, one JSON object each, and the refused
            build's report in NAME.rejected.json).
            """)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.isEmpty else {
            let argument = arguments.positionals[0]
            throw UsageError("unexpected argument '\(argument)'; the inputs come from the pipeline file")
        }
        guard let file = arguments.value("--pipeline") else { throw UsageError("missing '--pipeline <file>'") }
        let format = try arguments.choice("--log-format", as: RefreshLog.Format.self) ?? .text
        let log = RefreshLog(format: format) { FileHandle.standardError.write(Data($0.utf8)) }
        let started = Date()
        var refresh: Refresh?
        var summary = RunSummary(ending: .failed)
        let recorded = arguments.value("--record-failure")
        if let recorded, recorded.isEmpty || recorded.contains("\n") {
            throw UsageError("'--record-failure' needs a reason of one line")
        }
        do {
            var pipeline = try Pipeline.load(file)
            if let input = arguments.value("--input") { pipeline = pipeline.replacingFirstInput(with: input) }
            let made = try Refresh(
                pipeline: pipeline, log: log, force: arguments.flag("--force"), resume: arguments.flag("--resume"),
                acceptDrop: arguments.flag("--accept-drop"), threads: try arguments.threads())
            refresh = made
            summary =
                try recorded.map { RunSummary(ending: .failed, error: RecordedFailure(reason: $0)) }
                ?? run(made, rollback: arguments.flag("--rollback"), text: format == .text)
        } catch {
            summary = RunSummary(ending: (error as? RefreshError)?.kind == .locked ? .locked : .failed, error: error)
        }
        let code = summary.error.map { $0 is RecordedFailure ? .unavailable : exitCode(for: $0) } ?? .ok
        let reason = summary.ending == .failed ? summary.error.map { "\($0)" } : nil
        if let error = summary.error, format == .json {
            log.event("failure", level: .error, message: "\(error)")
        }
        if let refresh {
            refresh.record(
                summary.ending, exitCode: code.rawValue, started: started, reason: reason,
                liftedHold: summary.liftedHold, gateFailures: summary.gateFailures,
                dropGateOverridden: summary.dropGateOverridden,
                metrics: arguments.value("--metrics") ?? refresh.settings.metrics)
        } else {
            log.result(summary.ending, exitCode: code.rawValue, reason: reason)
        }
        switch format {
        case .text: if let line = summary.line { print(line) }
        case .json: print(summary.json(output: refresh?.output, exitCode: code.rawValue))
        }
        // Text mode keeps the one error line `spots: …`; JSON mode has logged it as JSON.
        guard let error = summary.error else { return }
        guard format == .text else { throw ReportedFailure(code: code) }
        guard error is RecordedFailure else { throw error }
        printError("spots: \(error)")
        throw ReportedFailure(code: code)
    }

    /// Runs `refresh` (or rolls it back) and says how it ended; in text mode a refused build's
    /// report is printed on standard output first.
    private static func run(_ refresh: Refresh, rollback: Bool, text: Bool) throws -> RunSummary {
        let output = refresh.output
        if rollback {
            try refresh.rollback()
            return RunSummary(
                ending: .rolledBack, line: "rolled back: \(output) is the previous generation again, held")
        }
        let result = try refresh.run()
        var summary: RunSummary
        switch result.outcome {
        case .unchanged(let spots):
            summary = RunSummary(
                ending: .unchanged, spots: spots,
                line: "unchanged: \(output) (\(spots) spots) "
                    + (refresh.settings.changes.map { "has every change file of \($0)" }
                        ?? "was built from these inputs and this pipeline"))
        case .published(let report, let overridden):
            summary = RunSummary(
                ending: .published, spots: report.coverage.total, line: "published: \(output), \(Self.summary(report))",
                gateFailures: overridden, dropGateOverridden: !overridden.isEmpty)
        case .rejected(let report, let reasons):
            if text { print(ReportFormat.text.render(report), terminator: "") }
            let why = reasons.joined(separator: "; ")
            let published = refresh.publishedSpots
            let kept = "\(refresh.rejectedPath) (\(report.coverage.total) spots)"
            let stays = published.map { "; the published index keeps \($0) spots" } ?? ""
            summary = RunSummary(
                ending: .refused, spots: published, gateFailures: reasons,
                error: RefreshError(.gateRefused, file: output, "not published, kept as \(kept)\(stays): " + why))
            summary.refused = (refresh.rejectedPath, report.coverage.total)
        case .held:
            summary = RunSummary(
                ending: .held, line: "held: \(output) is held since a rollback; --resume lifts the hold")
        }
        if result.liftedHold && summary.ending.isSuccess { summary.ending = .resumed }
        summary.liftedHold = result.liftedHold
        return summary
    }

    private static func summary(_ report: Report) -> String {
        guard let diff = report.diff else { return "\(report.coverage.total) spots (nothing published before)" }
        let change = diff.references
        let changes = "\(change.added) added, \(change.removed) removed, \(change.moved) moved"
        return "\(report.coverage.total) spots (was \(diff.total.before): \(changes))"
    }
}

/// How a refresh run ended, as the command prints and records it.
private struct RunSummary {
    var ending: RefreshEnding
    /// The spots of the published index.
    var spots: Int?
    /// The build a gate refused: where it is kept and its spots.
    var refused: (index: String, spots: Int)?
    /// The text summary line, when the run has one.
    var line: String?
    var gateFailures: [String] = []
    var dropGateOverridden = false
    var liftedHold = false
    /// Why the run failed, if it did.
    var error: Error?

    init(
        ending: RefreshEnding, spots: Int? = nil, line: String? = nil, gateFailures: [String] = [],
        dropGateOverridden: Bool = false, error: Error? = nil
    ) {
        self.ending = ending
        self.spots = spots
        self.line = line
        self.gateFailures = gateFailures
        self.dropGateOverridden = dropGateOverridden
        self.error = error
    }

    /// The one JSON line of standard output in JSON mode.
    func json(output: String?, exitCode: Int32) -> String {
        var fields = [("outcome", RefreshLog.json(ending.rawValue)), ("exit_code", "\(exitCode)")]
        if let output { fields.append(("output", RefreshLog.json(output))) }
        if let spots { fields.append(("spots", "\(spots)")) }
        if let refused {
            let counted = [("index", RefreshLog.json(refused.index)), ("spots", "\(refused.spots)")]
            fields.append(("refused", JSONText.object(counted, escaping: .short)))
        }
        if !gateFailures.isEmpty {
            fields.append(("gate_failures", "[" + gateFailures.map(RefreshLog.json).joined(separator: ",") + "]"))
        }
        if dropGateOverridden { fields.append(("drop_gate_overridden", "true")) }
        if let message = line ?? error.map({ "\($0)" }) { fields.append(("message", RefreshLog.json(message))) }
        return JSONText.object(fields, escaping: .short)
    }
}

/// A failure before `spots` ran, which the caller (a cron wrapper whose download failed) asks
/// to have recorded with `--record-failure`: the run ends as failed, exit 69.
private struct RecordedFailure: Error, CustomStringConvertible {
    /// Why the run failed, as the caller put it.
    let reason: String

    var description: String { reason }
}
