import SpotExport
import SpotIndex

/// `spots export INDEX`: the index's spots as NDJSON, GeoJSON or CSV.
enum ExportCommand {
    static let options = [
        OptionSpec(names: ["--format"], valueName: "format", help: "ndjson (default), geojson or csv."),
        OptionSpec(names: ["-o", "--output"], valueName: "output", help: "Write to this file (atomically) instead of\nstandard output."),
        Help.option,
    ]

    static let help = Help(
        overview: "Export an index's spots as NDJSON, GeoJSON or CSV.",
        usage: "spots export <index> [--format ndjson|geojson|csv] [-o <output>]",
        arguments: [("<index>", "An index written by 'spots build'.")],
        options: options,
        discussion: "Coordinates have seven decimals; GeoJSON points are [lon, lat], NDJSON and CSV\nhave lat and lon columns. The README lists every field.")

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let name = arguments.value("--format") ?? "ndjson"
        guard let format = ExportFormat(rawValue: name) else {
            throw UsageError("--format must be ndjson, geojson or csv, not '\(name)'")
        }
        let index = try SpotIndexReader(path: path)
        try index.requireValidChecksums()
        let sink = try OutputSink(path: arguments.value("--output"))
        try SpotExporter(format: format).export(index) { try sink.write($0) }
        try sink.finish()
    }
}
