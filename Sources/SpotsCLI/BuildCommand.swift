import Foundation
import SpotOutput
import SpotPipeline
import SpotRefresh
import SpotReport
import SpotState
import Spots

/// `spots build INPUT... -o OUT.spots`: reads OSM extracts and writes an index.
enum BuildCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["-o", "--output"], valueName: "output",
            help: """
                The index file to write. Written to a temporary file
                beside it and renamed, so it is replaced only on success;
                a FIFO or device is written straight through, - is
                standard output.
                """),
        OptionSpec(
            names: ["-O", "--overwrite"], valueName: nil,
            help: """
                Replace the output file if it exists (pipeline:
                overwrite); without it, exit 73.
                """),
        OptionSpec(
            names: ["--pipeline"], valueName: "file",
            help: """
                A pipeline file (Pipelines/NAME.json): inputs, output,
                selecting keys, categories, exclusions, dedup settings
                (presets: Pipelines/places.json, outdoors.json).
                Inputs, -o and flags given here override it.
                """),
        OptionSpec(
            names: ["--keep-all"], valueName: nil,
            help: """
                Keep every selected element: no exclusions,
                values without a category kept with category null.
                """),
        OptionSpec(
            names: ["--no-dedupe"], valueName: nil,
            help: """
                Do not merge same-name places. (The same OSM object
                met twice is always one spot.)
                """),
        OptionSpec(
            names: ["--no-areas"], valueName: nil,
            help: """
                Read nodes only: no spots for ways and multipolygon
                relations, and no node locations kept (faster).
                """),
        OptionSpec(
            names: ["--keep-state"], valueName: nil,
            help: """
                Also write NAME.state beside the index (pipeline:
                state): what 'spots update' needs to apply change
                files to it. A regular file output only.
                """),
        OptionSpec(
            names: ["--no-clusters"], valueName: nil,
            help: """
                Write no cluster levels ('spots cluster' then clusters
                at query time): a smaller index, a faster build.
                """),
        OptionSpec(
            names: ["--threads"], valueName: "n",
            help: """
                Threads that parse XML (default: one per core; at
                most 16 run). The index is the same for any number.
                """),
        OptionSpec(
            names: ["--max-element-bytes"], valueName: "n",
            help: """
                Refuse an element larger than n bytes of XML, or a PBF
                node, way or relation message larger than n bytes
                (default 16777216; pipeline: limits.max_element_bytes).
                """),
        OptionSpec(
            names: ["--max-tags"], valueName: "n",
            help: """
                Refuse an element with more than n tags (default
                10000; pipeline: limits.max_tags).
                """),
        OptionSpec(
            names: ["--max-value-bytes"], valueName: "n",
            help: """
                Refuse a tag key or value longer than n bytes
                (default 65536; pipeline: limits.max_value_bytes).
                """),
        OptionSpec(names: ["-q", "--quiet"], valueName: nil, help: "Print nothing but warnings and errors."),
        OptionSpec(
            names: ["-v", "--verbose"], valueName: nil,
            help: "Also say how the inputs were read (XML pieces, threads, PBF blocks)."),
        Help.option,
    ]

    static let help = Help(
        command: "build",
        overview: "Build a place-search index from OpenStreetMap extracts.",
        arguments: [
            Help.Argument(
                name: "<input>", repeated: true,
                help: """
                    OSM XML, plain, gzip or bzip2 (every member or
                    stream read), or OSM PBF; the format is told by
                    content. - for standard input.
                    """)
        ],
        options: options,
        discussion: """
            Every node, way and multipolygon relation tagged amenity=* or tourism=* (the
            pipeline's select keys) is a candidate (an area at a point inside it, an open way halfway along); the pipeline
            (by default the built-in Pipelines/default.json) excludes street furniture, maps
            values to categories, drops values without one, and merges same-name places within
            50 m. SOURCE_DATE_EPOCH, when set, is recorded as the build time; otherwise the
            newest timestamp in the inputs. An input over a limit is refused (exit 65) with a
            message naming the limit. SIGINT or SIGTERM stops the build, removes its temporary
            file and leaves the output as it was.
            """)

    static func run(_ arguments: Arguments) throws {
        var pipeline = try arguments.value("--pipeline").map(Pipeline.load) ?? Pipeline.defaults()
        // A pipeline file is refused whole: its refresh fields (gates, keep) are checked by a build too.
        _ = try RefreshSettings(pipeline)
        if !arguments.positionals.isEmpty { pipeline.inputs = arguments.positionals }
        if let output = arguments.value("--output") { pipeline.output = output }
        if arguments.flag("--overwrite") { pipeline.overwrite = true }
        if arguments.flag("--keep-all") { pipeline.keepAll = true }
        if arguments.flag("--no-dedupe") { pipeline.dedupe.enabled = false }
        if arguments.flag("--no-areas") { pipeline.areas = false }
        if arguments.flag("--no-clusters") { pipeline.clusters = nil }
        if arguments.flag("--keep-state") { pipeline.keepState = true }
        if let bytes = try arguments.integer("--max-element-bytes", in: 1...) {
            pipeline.limits.maxElementBytes = bytes
        }
        if let tags = try arguments.integer("--max-tags", in: 1...) { pipeline.limits.maxTags = tags }
        if let bytes = try arguments.integer("--max-value-bytes", in: 1...) { pipeline.limits.maxValueBytes = bytes }
        guard !pipeline.inputs.isEmpty else { throw UsageError("missing <input>: give at least one OSM file") }
        guard let outputPath = pipeline.output else { throw UsageError("missing '-o <output>'") }
        var sourceDateEpoch: Int?
        if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int(epoch) else {
                throw UsageError("SOURCE_DATE_EPOCH is not a whole number: '\(epoch)'")
            }
            sourceDateEpoch = seconds
        }
        let threads = try arguments.threads()
        let quiet = arguments.flag("--quiet")
        let started = Date()
        let replaceWith =
            arguments.value("--pipeline") == nil ? "-O/--overwrite" : "-O/--overwrite or \"overwrite\": true"
        let target = try OutputTarget(
            path: outputPath, inputs: pipeline.inputs, overwrite: pipeline.overwrite, replaceWith: replaceWith)
        guard !pipeline.keepState || target.isRegularFile else {
            throw UsageError("--keep-state writes a state file beside the index: give -o a file, not \(outputPath)")
        }
        let output = try OutputSink(target)
        let progress = ProgressBar(enabled: !quiet)
        defer { progress.finish() }
        let build = SpotBuild(pipeline: pipeline, sourceDateEpoch: sourceDateEpoch, threads: threads)
        let (index, statistics, state) = try build.run(keepingState: pipeline.keepState) { step in
            progress.update(done: step.bytesRead, total: step.totalBytes)
        }
        try output.write(index)
        try output.finish(index: index, at: outputPath, pairedWith: state?.write)
        progress.finish()
        if statistics.spots == 0 {
            let keys = pipeline.selection.keys.joined(separator: ", ")
            printError(
                "spots: warning: \(outputPath) has no spots: no object of the inputs was kept (selecting \(keys))")
        }
        guard !quiet else { return }
        let summary = BuildSummary(statistics: statistics, build: build, bytes: index.count, since: started)
        printError("spots: wrote \(outputPath): " + summary.made)
        if arguments.flag("--verbose") { printError("spots: read " + summary.reading) }
    }
}

/// The lines a build prints when done: what it made (spots by category group, its size, from
/// what, in how long) first, for everyone; how it read the inputs, for `--verbose`.
struct BuildSummary {
    let statistics: BuildStatistics
    let build: SpotBuild
    /// The index's size in bytes.
    let bytes: Int
    let since: Date

    /// "1,139 spots (1,030 in MapKit categories, 109 in Spots' own), 101.5 KB, from
    /// helsinki-center.osm.gz and himeji-castle.osm.pbf (24,273 nodes, 5,131 ways, 620
    /// relations), in 0.09 s".
    var made: String {
        let grouped = NumberText.grouped
        var groups = ["\(grouped(statistics.mapKitSpots)) in MapKit categories"]
        if statistics.extensionSpots > 0 { groups.append("\(grouped(statistics.extensionSpots)) in Spots' own") }
        if statistics.uncategorizedSpots > 0 { groups.append("\(grouped(statistics.uncategorizedSpots)) without") }
        let elements =
            "\(grouped(statistics.nodes)) nodes"
            + (build.pipeline.areas
                ? ", \(grouped(statistics.ways)) ways, \(grouped(statistics.relations)) relations" : "")
        let seconds = String(format: "%.2f", Date().timeIntervalSince(since))
        return "\(grouped(statistics.spots)) spots (" + groups.joined(separator: ", ") + "), "
            + "\(ProgressBar.bytes(bytes)), from \(inputs) (\(elements)), in \(seconds) s"
    }

    /// The inputs by file name: up to three named, more counted.
    private var inputs: String {
        let names = build.pipeline.inputs.map { URL(fileURLWithPath: $0).lastPathComponent }
        switch names.count {
        case 1: return names[0]
        case 2, 3: return names.dropLast().joined(separator: ", ") + " and " + names.last!
        default: return "\(names.count) inputs"
        }
    }

    /// "XML in 5 pieces, 3 parsed apart (2 threads), 2 in order, 29,833 plain elements read
    /// directly; PBF in 1 blocks (2 threads)".
    var reading: String {
        let grouped = NumberText.grouped
        let pieces = statistics.parallelPieces + statistics.sequentialPieces
        let threads = "\(build.threads) thread\(build.threads == 1 ? "" : "s")"
        var how: [String] = []
        if pieces > 0 || statistics.pbfBlocks == 0 {
            how.append(
                "XML in \(grouped(pieces)) pieces, \(grouped(statistics.parallelPieces)) parsed apart (\(threads)), "
                    + "\(grouped(statistics.sequentialPieces)) in order, "
                    + "\(grouped(statistics.plainElements)) plain elements read directly")
        }
        if statistics.pbfBlocks > 0 { how.append("PBF in \(grouped(statistics.pbfBlocks)) blocks (\(threads))") }
        return how.joined(separator: "; ")
    }
}
