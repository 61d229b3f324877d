import SpotExport
import SpotIndex

/// `spots export INDEX`: the index's spots as NDJSON, GeoJSON or CSV.
enum ExportCommand {
    static let options: [OptionSpec] = [
        .choice(["--format"], of: ExportFormat.self, help: "ndjson (default), geojson or csv."),
        Help.fileOutput,
        Help.overwrite,
        Help.option,
    ]

    static let help = Help(
        command: "export",
        overview: "Export an index's spots as NDJSON, GeoJSON or CSV.",
        arguments: [Help.index],
        options: options,
        discussion: """
            Coordinates have seven decimals; GeoJSON points are [lon, lat], NDJSON and CSV
            have lat and lon columns. docs/outputs.md lists every field. Without --format, -o's
            extension chooses: .ndjson or .jsonl NDJSON, .geojson or .json GeoJSON, .csv CSV
            (.html and .txt are refused), any other NDJSON.
            """)

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let format = try arguments.format(ExportFormat.self)
        let output = try arguments.output(inputs: [path])
        let index = try SpotIndexReader(path: path)
        try index.requireValidChecksums()
        let sink = try OutputSink(output)
        try SpotExporter(format: format).export(index) { try sink.write($0) }
        try sink.finish()
    }
}
