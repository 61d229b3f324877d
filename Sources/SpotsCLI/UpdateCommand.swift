import Foundation
import SpotIndex
import SpotOutput
import SpotPipeline
import SpotRefresh
import SpotState
import Spots

/// `spots update NAME.spots CHANGE.osc.gz... [-o NEW.spots]`: applies osmChange files to an index
/// built with `--keep-state`.
enum UpdateCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["-o", "--output"], valueName: "output",
            help: """
                Write the updated index (and its state beside it) here
                instead of replacing the index in place.
                """),
        OptionSpec(
            names: ["-O", "--overwrite"], valueName: nil,
            help: "Replace the -o output if it exists; without it, exit 73."),
        OptionSpec(
            names: ["--pipeline"], valueName: "file",
            help: """
                The pipeline file the index was built with, when it was
                built with one (the index records its name and SHA-256).
                """),
        OptionSpec(names: ["--keep-all"], valueName: nil, help: "As for build: when the index was built with it."),
        OptionSpec(names: ["--no-dedupe"], valueName: nil, help: "As for build: when the index was built with it."),
        OptionSpec(names: ["--no-areas"], valueName: nil, help: "As for build: when the index was built with it."),
        OptionSpec(names: ["--no-clusters"], valueName: nil, help: "As for build: when the index was built with it."),
        OptionSpec(
            names: ["--threads"], valueName: "n",
            help: "Threads that inflate the change files (default: one per core)."),
        OptionSpec(names: ["-q", "--quiet"], valueName: nil, help: "Print nothing but warnings and errors."),
        Help.option,
    ]

    static let help = Help(
        command: "update",
        overview: "Apply osmChange files to an index built with --keep-state.",
        arguments: [
            Help.Argument(name: "<index>", repeated: false, help: "The index (NAME.spots, with NAME.state beside it)."),
            Help.Argument(
                name: "<change>", repeated: true, required: true,
                help: """
                    osmChange files (.osc, plain, gzip or bzip2), applied
                    in order.
                    """),
        ],
        options: options,
        discussion: """
            A change file laid out as replication servers lay it out (NNN.osc.gz beside
            NNN.state.txt) gives the state its sequence number, which 'spots refresh' continues
            from. The update gives the index a build of the changed extract would give: creations,
            modifications (a newer version replaces an older one; an older or equal version is
            skipped and counted) and deletions are applied to the state's records, node
            locations and way node lists; areas whose nodes or ways changed get new points;
            deduplication, the search tables and the cluster levels are made again. The index
            and its state are written as a pair, in place unless -o is given; a bad change file
            (exit 65) or a damaged or mismatched state (exit 65) leaves both as they were.
            """)

    static func run(_ arguments: Arguments) throws {
        guard let index = arguments.positionals.first else {
            throw UsageError("missing <index>: give the index built with --keep-state")
        }
        let changes = Array(arguments.positionals.dropFirst())
        guard !changes.isEmpty else { throw UsageError("missing <change>: give at least one osmChange file") }
        var pipeline = try arguments.value("--pipeline").map(Pipeline.load) ?? Pipeline.defaults()
        if arguments.flag("--keep-all") { pipeline.keepAll = true }
        if arguments.flag("--no-dedupe") { pipeline.dedupe.enabled = false }
        if arguments.flag("--no-areas") { pipeline.areas = false }
        if arguments.flag("--no-clusters") { pipeline.clusters = nil }
        let outputPath = arguments.value("--output") ?? index
        let target = try OutputTarget(
            path: outputPath, inputs: changes, overwrite: outputPath == index || arguments.flag("--overwrite"),
            replaceWith: "-O/--overwrite")
        guard target.isRegularFile else {
            throw UsageError("an update writes a state file beside the index: give -o a file, not \(outputPath)")
        }
        let started = Date()
        let old = try SpotIndexReader(path: index)
        // A replication server's change file has its sequence beside it (NNN.state.txt).
        let result = try SpotUpdate(pipeline: pipeline, threads: try arguments.threads()).run(
            index: index, changes: changes, sequence: ReplicationFolder.sequence(ofChange: changes.last!))
        let output = try OutputSink(target)
        try output.write(result.index)
        try output.finish(index: result.index, at: outputPath, pairedWith: result.state.write)
        guard !arguments.flag("--quiet") else { return }
        let changed = try SpotChanges(from: old, to: SpotIndexReader(path: outputPath))
        let counts = result.changes
        let grouped = NumberText.grouped
        let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
        var skipped = ""
        if counts.skippedOlder > 0 { skipped += ", \(grouped(counts.skippedOlder)) older versions skipped" }
        if counts.deletedMissing > 0 {
            skipped += ", \(grouped(counts.deletedMissing)) deletions of objects the index never had skipped"
        }
        printError(
            "spots: updated \(outputPath): \(grouped(result.statistics.spots)) spots (\(changed.summary)), "
                + "\(ProgressBar.bytes(result.index.count)), from \(changes.count == 1 ? URL(fileURLWithPath: changes[0]).lastPathComponent : "\(changes.count) change files") "
                + "(\(grouped(counts.created)) created, \(grouped(counts.modified)) modified, "
                + "\(grouped(counts.deleted)) deleted\(skipped)), in \(seconds) s")
    }
}
