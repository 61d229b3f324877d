import SpotIndex
import SpotReport

/// `spots report INDEX`: category coverage, what the build dropped, the category table's to-do
/// list, names by language and where the spots are; with `--against`, what changed.
enum ReportCommand {
    static let options: [OptionSpec] = [
        .choice(["--format"], of: ReportFormat.self, help: "text (default), json, csv or html."),
        Help.fileOutput,
        Help.overwrite,
        OptionSpec(
            names: ["--against"], valueName: "old-index",
            help: """
                Compare with an older index: the change per category,
                spots added, removed and moved (by OSM reference).
                """),
        OptionSpec(
            names: ["--max-drop"], valueName: "fraction",
            help: """
                With --against, warn for each category whose count
                fell by more than this fraction of it, from 0 to 1
                (default 0.2).
                """),
        OptionSpec(
            names: ["--list"], valueName: "changes|tags",
            help: """
                With --format csv, list instead: 'changes' (with
                --against) the changed spots, one row each: added,
                removed, moved, renamed, recategorized; 'tags' the
                unmapped, uncategorized and excluded tags.
                """),
        Help.option,
    ]

    static let help = Help(
        command: "report",
        overview: "Report an index's category coverage, and what changed since an older one.",
        arguments: [Help.index],
        options: options,
        discussion: """
            Totals (by OSM type, merged duplicates, dropped by reason), per category the count, share
            and share with name, address, phone, website, opening hours and localized names,
            values with no category (the table's to-do list), names by language, the bounding box
            (MINLON,MINLAT,MAXLON,MAXLAT) and a density grid of square Web Mercator cells, 16 along
            the longer side. A spot has moved when its OSM reference is in both indexes and its
            coordinates lie more than 1 m apart. JSON follows Sources/SpotReport/REPORT-SCHEMA.md.
            A category that fell by more than --max-drop gives a warning line in the report (and on
            standard error unless a text report is printed there); the exit code stays 0. Exits 65
            when an index is damaged, 66 when one is missing. Without --format, -o's extension
            chooses: .json JSON, .csv CSV, .html HTML, .txt text (.ndjson, .jsonl and .geojson
            are refused), any other text.
            """)

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let format = try arguments.format(ReportFormat.self)
        let older = arguments.value("--against")
        let maxDrop = try arguments.number("--max-drop", in: 0...1)
        guard maxDrop == nil || older != nil else { throw UsageError("--max-drop needs --against <old-index>") }
        let list = arguments.value("--list")
        if let list {
            guard list == "changes" || list == "tags" else {
                throw UsageError("--list takes 'changes' or 'tags', not '\(list)'")
            }
            guard format == .csv else { throw UsageError("--list \(list) needs --format csv") }
            guard list == "tags" || older != nil else { throw UsageError("--list changes needs --against <old-index>") }
        }
        let output = try arguments.output(inputs: [path] + (older.map { [$0] } ?? []))
        let report = try Report(
            index: try verified(path), against: try older.map(verified), maxDrop: maxDrop ?? Report.defaultMaxDrop)
        let sink = try OutputSink(output)
        switch (list, report.diff) {
        case ("changes", let diff?): try sink.write(ReportFormat.changesCSV(diff))
        case ("tags", _): try sink.write(ReportFormat.tagsCSV(report.coverage))
        default: try sink.write(format.render(report))
        }
        try sink.finish()
        if format != .text || output.destination != .descriptor(1), let diff = report.diff {
            for message in diff.warningMessages { printError("spots: warning: " + message) }
        }
    }

    /// The index at `path`, refused (exit 65) when a section's checksum does not match.
    private static func verified(_ path: String) throws -> SpotIndexReader {
        let index = try SpotIndexReader(path: path)
        try index.requireValidChecksums()
        return index
    }
}
