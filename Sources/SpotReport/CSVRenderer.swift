import Foundation
import Spots

/// The CSV form of a report (RFC 4180): a header, then one row per category, then one per
/// result type, for spreadsheets.
///
/// Columns: `category` (empty for spots without one), `group`, `mapkit_category`, `count`,
/// `share`, then per attribute its count and `_share`; with a diff also `before`, `change` and
/// `change_percent`; then `result_type` and `unreached`. A result type's row has `result_type`
/// set and the first three columns empty; a category's row has `result_type` empty and
/// `unreached` `true` for a category no rule of the selected keys gives, `false` for others
/// (empty when the index records no selection). Rows of count 0 are added for the unreached
/// categories, and with a diff for the categories and result types only the older index has.
enum CSVRenderer {
    static func render(_ report: Report) -> String {
        let coverage = report.coverage
        let diff = report.diff
        var header = ["category", "group", "mapkit_category", "count", "share"]
        header += SpotAttribute.allCases.flatMap { [$0.rawValue, $0.rawValue + "_share"] }
        if diff != nil { header += ["before", "change", "change_percent"] }
        header += ["result_type", "unreached"]
        // The figures of a row's spots, and with a diff their change (none when nil).
        func figures(_ rowCoverage: Coverage?, _ change: (any CountChanging)?) -> [String] {
            let rowCoverage = rowCoverage ?? Coverage()
            return ["\(rowCoverage.count)", Figures.fraction(fraction(rowCoverage.count, of: coverage.total))]
                + SpotAttribute.allCases.flatMap {
                    ["\(rowCoverage.count(with: $0))", Figures.fraction(rowCoverage.share(with: $0))]
                } + (diff == nil ? [] : diffColumns(change ?? CountChange(before: 0, after: 0)))
        }
        let selection = coverage.index.selection
        let unreached = (selection?.unreachedCategories ?? []).compactMap(Category.init(rawValue:))
        var categories = coverage.categories.map(\.category)
        categories += (diff?.categories ?? []).filter { $0.after == 0 }.map(\.category)
        categories += unreached.filter { !categories.contains($0) }
        let byCategory = Dictionary(uniqueKeysWithValues: coverage.categories.map { ($0.category, $0.coverage) })
        let categoryChanges = Dictionary(uniqueKeysWithValues: (diff?.categories ?? []).map { ($0.category, $0) })
        var rows = categories.map { category in
            [category?.rawValue ?? "", CategoryGroup(category).rawValue, category?.mapKitRawValue ?? ""]
                + figures(byCategory[category], categoryChanges[category])
                + ["", selection == nil ? "" : "\(category.map(unreached.contains) ?? false)"]
        }
        let byType = Dictionary(uniqueKeysWithValues: coverage.resultTypes.map { ($0.resultType, $0.coverage) })
        let typeChanges = Dictionary(uniqueKeysWithValues: (diff?.resultTypes ?? []).map { ($0.resultType, $0) })
        rows += (diff?.resultTypes.map(\.resultType) ?? coverage.resultTypes.map(\.resultType)).map { type in
            ["", "", ""] + figures(byType[type], typeChanges[type]) + [type.rawValue, ""]
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

    /// `before`, `change` and `change_percent` of a count.
    private static func diffColumns(_ change: any CountChanging) -> [String] {
        ["\(change.before)", "\(change.change)", change.relativeChange.map(Figures.percentNumber) ?? ""]
    }

    /// `text` as an RFC 4180 field: quoted, with quotes doubled, when it holds a comma, a quote
    /// or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
