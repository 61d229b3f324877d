import Foundation
import SpotPipeline

/// `spots build INPUT... -o OUT.spots`: reads OSM extracts and writes an index.
enum BuildCommand {
    static let options = [
        OptionSpec(names: ["-o", "--output"], valueName: "output", help: "The index file to write. Written to a temporary file\nbeside it and renamed, so it is replaced only on success."),
        OptionSpec(names: ["--keep-all"], valueName: nil, help: "Keep every amenity/tourism node: no exclusions, values\nwithout a category kept with category null."),
        OptionSpec(names: ["--no-dedupe"], valueName: nil, help: "Do not merge duplicate places. (The same OSM object met\ntwice is always one record.)"),
        OptionSpec(names: ["-q", "--quiet"], valueName: nil, help: "Print nothing but errors."),
        Help.option,
    ]

    static let help = Help(
        overview: "Build a place-search index from OpenStreetMap extracts.",
        usage: "spots build <input> ... -o <output> [--keep-all] [--no-dedupe] [--quiet]",
        arguments: [("<input>", "OSM XML, plain or gzip (detected by content, every\nmember read); - for standard input.")],
        options: options,
        discussion: "Every node tagged amenity=* or tourism=* becomes a spot. SOURCE_DATE_EPOCH, when\nset, is recorded as the build time; otherwise the newest timestamp in the inputs.")

    static func run(_ arguments: Arguments) throws {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing <input>: give at least one OSM file") }
        guard let outputPath = arguments.value("--output") else { throw UsageError("missing '-o <output>'") }
        var options = BuildOptions()
        options.keepAll = arguments.flag("--keep-all")
        options.dedupe = !arguments.flag("--no-dedupe")
        if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int(epoch) else { throw UsageError("SOURCE_DATE_EPOCH is not a whole number: '\(epoch)'") }
            options.sourceDateEpoch = seconds
        }
        let quiet = arguments.flag("--quiet")
        let started = Date()
        let output = try AtomicOutput(path: outputPath)
        let progress = ProgressBar(enabled: !quiet)
        defer { progress.finish() }
        let (index, statistics) = try SpotBuild(inputs: arguments.positionals, options: options).run { step in
            progress.update(done: step.bytesRead, total: step.totalBytes)
        }
        try output.write(index)
        try output.commit()
        progress.finish()
        if !quiet {
            let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
            printError(
                "spots: wrote \(outputPath): \(grouped(statistics.spots)) spots from \(grouped(statistics.nodes)) nodes, "
                    + "\(ProgressBar.bytes(index.count)), in \(seconds) s")
        }
    }
}
