import Foundation
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
        modes: [Help.Mode(required: ["--pipeline"], optional: ["--force", "--rollback", "--log-format", "--threads"])],
        discussion: """
            Holds a lock beside the output (a second refresh exits 75 at once). Skips the build
            when the inputs (size and SHA-256) and the pipeline file are those the published index
            was built from. A build with fewer than gates.min_spots spots, or whose spots fell by
            more than gates.max_drop overall or in a category, is kept as NAME.rejected.spots, its
            report diff printed, and the exit code is 3; the published index is untouched.
            Publishing renames over the output and keeps `keep` generations (NAME.1.spots, ...).
            Logs go to standard error, one line per step; a summary line to standard output.
            """)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.isEmpty else {
            let argument = arguments.positionals[0]
            throw UsageError("unexpected argument '\(argument)'; the inputs come from the pipeline file")
        }
        guard let file = arguments.value("--pipeline") else { throw UsageError("missing '--pipeline <file>'") }
        let format = try arguments.choice("--log-format", as: RefreshLog.Format.self) ?? .text
        let pipeline = try Pipeline.load(file)
        let output = try pipeline.refreshOutput()
        let threads = try arguments.threads()
        let log = RefreshLog(format: format) { FileHandle.standardError.write(Data($0.utf8)) }
        let refresh = try Refresh(pipeline: pipeline, log: log, force: arguments.flag("--force"), threads: threads)
        if arguments.flag("--rollback") {
            try refresh.rollback()
            print("rolled back: \(output) is the previous generation again")
            return
        }
        switch try refresh.run() {
        case .unchanged(let spots):
            print("unchanged: \(output) (\(spots) spots) was built from these inputs and this pipeline")
        case .published(let report):
            print("published: \(output), \(summary(report))")
        case .rejected(let report, let reasons):
            print(ReportFormat.text.render(report), terminator: "")
            let why = reasons.joined(separator: "; ")
            throw RefreshError(.gateRefused, file: output, "not published, kept as \(refresh.rejectedPath): " + why)
        }
    }

    private static func summary(_ report: Report) -> String {
        guard let diff = report.diff else { return "\(report.coverage.total) spots (nothing published before)" }
        let change = diff.references
        let changes = "\(change.added) added, \(change.removed) removed, \(change.moved) moved"
        return "\(report.coverage.total) spots (was \(diff.total.before): \(changes))"
    }
}
