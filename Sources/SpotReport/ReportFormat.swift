import SpotOutput
import Spots

/// The forms a report is written in.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// Aligned columns for a terminal.
    case text
    /// JSON for dashboards, as REPORT-SCHEMA.md describes it (versioned by `schema_version`).
    case json
    /// CSV (RFC 4180), one row per category and per result type, for spreadsheets.
    case csv
    /// One self-contained HTML page with SVG charts, readable offline and on a phone.
    case html

    /// The version of the JSON schema (REPORT-SCHEMA.md) that `json` writes.
    public static var jsonSchemaVersion: Int { JSONRenderer.schemaVersion }

    /// The changed spots of `diff` as CSV, one row each (`spots report --against OLD --format csv
    /// --list changes`).
    public static func changesCSV(_ diff: ReportDiff) -> String { CSVRenderer.changes(diff) }

    /// The selecting tags of the spots left out by tag (unmapped, uncategorized, excluded) as
    /// CSV, one row each (`spots report X --format csv --list tags`).
    public static func tagsCSV(_ coverage: CoverageReport) -> String { CSVRenderer.tags(coverage) }

    /// `report` in this form: UTF-8 text, the same for equal reports.
    public func render(_ report: Report) -> String {
        switch self {
        case .text: TextRenderer.render(report)
        case .json: JSONRenderer.render(report)
        case .csv: CSVRenderer.render(report)
        case .html: HTMLRenderer.render(report)
        }
    }
}

extension ReportFormat: OutputFormat {
    /// `.json` JSON, `.csv` CSV, `.html` HTML, `.txt` text; `.ndjson`, `.jsonl` and `.geojson` refused.
    public static let byExtension: [String: ReportFormat?] = [
        "json": .json, "csv": .csv, "html": .html, "txt": .text, "ndjson": nil, "jsonl": nil, "geojson": nil,
    ]
    /// Text.
    public static let byDefault = ReportFormat.text
}
