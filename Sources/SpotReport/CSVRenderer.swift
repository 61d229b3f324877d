import Foundation

/// The CSV form of a report (RFC 4180): a header, then one row per category, for spreadsheets.
///
/// Columns: `category` (empty for spots without one), `group`, `mapkit_category`, `count`,
/// `share`, then per attribute its count and `_share`; with a diff also `before`, `change` and
/// `change_percent`, and rows (count 0) for categories only the older index has.
enum CSVRenderer {
    static func render(_ report: Report) -> String {
        let coverage = report.coverage
        var header = ["category", "group", "mapkit_category", "count", "share"]
        header += SpotAttribute.allCases.flatMap { [$0.rawValue, $0.rawValue + "_share"] }
        var rows = coverage.categories.map { row in
            [
                row.category?.rawValue ?? "", row.group.rawValue, row.category?.mapKitRawValue ?? "",
                "\(row.coverage.count)",
                Figures.fraction(coverage.share(of: row)),
            ]
                + SpotAttribute.allCases.flatMap {
                    ["\(row.coverage.count(with: $0))", Figures.fraction(row.coverage.share(with: $0))]
                }
        }
        if let diff = report.diff {
            header += ["before", "change", "change_percent"]
            let changes = Dictionary(uniqueKeysWithValues: diff.categories.map { ($0.category, $0) })
            rows = zip(coverage.categories, rows).map { $1 + diffColumns(changes[$0.category]!) }
            rows += diff.categories.filter { $0.after == 0 }.map { change in
                [
                    change.category?.rawValue ?? "", change.group.rawValue, change.category?.mapKitRawValue ?? "", "0",
                    Figures.fraction(0),
                ]
                    + SpotAttribute.allCases.flatMap { _ in ["0", Figures.fraction(0)] } + diffColumns(change)
            }
        }
        return ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    /// The CSV of `--list changes`: one row per changed spot (`ReferenceChanges`), by kind then
    /// reference. Columns: `change` (added, removed, moved, renamed, recategorized), `ref`
    /// (`n123`), `name`, `category`, `distance_m` (moved), `name_before` (renamed),
    /// `category_before` (recategorized) and `url`, the object on openstreetmap.org.
    static func changes(_ diff: ReportDiff) -> String {
        let header = ["change", "ref", "name", "category", "distance_m", "name_before", "category_before", "url"]
        let rows = diff.references.changes.map { change in
            [
                change.kind.rawValue, change.ref.description, change.name ?? "", change.category?.rawValue ?? "",
                change.metres.map { String(format: "%.1f", $0) } ?? "", change.nameBefore ?? "",
                change.categoryBefore?.rawValue ?? "", change.ref.osmURL,
            ]
        }
        return ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    /// The CSV of `--list tags`: one row per selecting tag of the spots the build left out by
    /// tag (`CoverageReport.byTag`). Columns: `reason` (unmapped, uncategorized, excluded),
    /// `tag`, `count`; by reason, then most frequent first.
    static func tags(_ coverage: CoverageReport) -> String {
        let rows = coverage.byTag.flatMap { reason, tallies in tallies.map { [reason, $0.key, "\($0.count)"] } }
        return ([["reason", "tag", "count"]] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    private static func diffColumns(_ change: CategoryChange) -> [String] {
        ["\(change.before)", "\(change.change)", change.relativeChange.map(Figures.percentNumber) ?? ""]
    }

    /// `text` as an RFC 4180 field: quoted, with quotes doubled, when it holds a comma, a quote
    /// or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
