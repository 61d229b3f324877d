import Foundation
import Spots

/// The text form of a report: sections of aligned columns for a terminal.
enum TextRenderer {
    /// Shades of the density map, from empty to the densest cell.
    static let shades = Array(" .:-=+*#%@")

    static func render(_ report: Report) -> String {
        let coverage = report.coverage
        var lines = ["Coverage of \(coverage.index.file)", "  " + describe(coverage.index)]
        lines += selection(coverage.index) + [""]
        lines += totals(coverage) + [""]
        lines += categories(coverage) + [""]
        lines += resultTypes(coverage) + [""]
        lines += unmapped(coverage) + [""]
        for (title, tallies) in [("UNCATEGORIZED", coverage.uncategorized), ("EXCLUDED", coverage.excluded)]
        where !tallies.isEmpty {
            lines += tagged(title, tallies) + [""]
        }
        lines += languages(coverage) + [""]
        lines += place(coverage)
        if let diff = report.diff { lines += [""] + self.diff(diff) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "built TIME by GENERATOR from INPUTS".
    private static func describe(_ index: IndexSummary) -> String {
        "built \(index.buildTime ?? "at an unknown time") by \(index.generator)"
            + (index.inputs.isEmpty ? "" : " from " + index.inputs.joined(separator: ", "))
    }

    /// "select: KEYS" and "unreached: CATEGORIES" of an index that records its selection.
    private static func selection(_ index: IndexSummary) -> [String] {
        guard let selection = index.selection else { return [] }
        return ["  select: " + selection.selected, "  unreached: " + selection.unreached]
    }

    private static func totals(_ coverage: CoverageReport) -> [String] {
        var table = TextTable(alignments: [.left, .right, .left])
        table.rows.append(["spots", "\(coverage.total)", ""])
        table.rows += OSMType.allCases.map { ["\($0.name)s", "\(coverage.count(of: $0))", ""] }
        table.rows.append(["merged duplicates", "\(coverage.mergedDuplicates)", "OSM objects folded into another spot"])
        table.rows += coverage.dropped.map { ["dropped: \($0.reason)", "\($0.count)", "in the \($0.stage) stage"] }
        return ["TOTALS"] + table.lines
    }

    private static func categories(_ coverage: CoverageReport) -> [String] {
        let groups = CategoryGroup.allCases.compactMap { group in
            let count = coverage.categories.filter { $0.group == group }.count
            return count == 0 ? nil : "\(count) \(group.title)"
        }
        var table = figureTable(["category", "group"])
        table.rows = coverage.categories.map {
            [$0.name, $0.group.title] + figureCells($0.coverage, of: coverage.total)
        }
        table.rows.append(["all", ""] + figureCells(coverage.overall, of: coverage.total))
        return [
            "CATEGORIES (\(coverage.categories.count): \(groups.joined(separator: ", ")); attribute columns: share of the category's spots)"
        ]
            + table.lines
    }

    private static func resultTypes(_ coverage: CoverageReport) -> [String] {
        var table = figureTable(["result type"])
        table.rows = coverage.resultTypes.map {
            [$0.resultType.rawValue] + figureCells($0.coverage, of: coverage.total)
        }
        return ["RESULT TYPES (\(coverage.resultTypes.count); attribute columns: share of the type's spots)"]
            + table.lines
    }

    /// The headings of a row's figures: count, share, then each attribute.
    private static let figureHeadings = ["count", "share"] + SpotAttribute.allCases.map(\.title)

    /// A table of left-aligned columns headed `names`, then right-aligned figures.
    private static func figureTable(_ names: [String]) -> TextTable {
        TextTable(
            header: names + figureHeadings,
            alignments: names.map { _ in .left } + figureHeadings.map { _ in .right })
    }

    /// The count of a row's spots, their share of `total`, and the share with each attribute.
    private static func figureCells(_ rowCoverage: Coverage, of total: Int) -> [String] {
        ["\(rowCoverage.count)", Figures.percent(fraction(rowCoverage.count, of: total))]
            + SpotAttribute.allCases.map { Figures.percent(rowCoverage.share(with: $0)) }
    }

    private static func unmapped(_ coverage: CoverageReport) -> [String] {
        guard !coverage.unmapped.isEmpty else {
            return ["TO DO: every selected value met has a rule in the category table"]
        }
        var table = TextTable(alignments: [.left, .right])
        table.rows = coverage.unmapped.map { [$0.key, "\($0.count)"] }
        let spots = coverage.unmapped.reduce(0) { $0 + $1.count }
        return ["TO DO: \(coverage.unmapped.count) values with no rule in the category table (\(spots) spots met)"]
            + table.lines
    }

    /// A section of the selecting tags of a reason, with their counts.
    private static func tagged(_ title: String, _ tallies: [Tally]) -> [String] {
        var table = TextTable(alignments: [.left, .right])
        table.rows = tallies.map { [$0.key, "\($0.count)"] }
        let spots = tallies.reduce(0) { $0 + $1.count }
        return ["\(title) BY TAG (\(tallies.count) tags, \(spots) objects)"] + table.lines
    }

    private static func languages(_ coverage: CoverageReport) -> [String] {
        guard !coverage.languages.isEmpty else { return ["NAMES BY LANGUAGE", "  no spot has a name:xx tag"] }
        var table = TextTable(header: ["language", "spots", "share"], alignments: [.left, .right, .right])
        table.rows = coverage.languages.map {
            [$0.key, "\($0.count)", Figures.percent(fraction($0.count, of: coverage.total))]
        }
        return ["NAMES BY LANGUAGE (name:xx tags)"] + table.lines
    }

    private static func place(_ coverage: CoverageReport) -> [String] {
        guard let extent = coverage.extent, let grid = coverage.grid else { return ["WHERE", "  no spots"] }
        let maximum = max(grid.maximum, 1)
        var lines = [
            "WHERE",
            "  bbox  " + extent.edgesE7.map(Figures.degrees).joined(separator: ",") + "  (MINLON,MINLAT,MAXLON,MAXLAT)",
            "  density: \(grid.columns) × \(grid.rows) square cells of \(distance(grid.cellSize)) in Web Mercator, north up; '\(shades.last!)' = \(grid.maximum) spots",
            "  +" + String(repeating: "-", count: grid.columns * 2) + "+",
        ]
        for row in 0..<grid.rows {
            let cells = (0..<grid.columns).map { column -> String in
                let count = grid.count(column: column, row: row)
                let level =
                    count == 0
                    ? 0 : max(1, Int((Double(count) / Double(maximum) * Double(shades.count - 1)).rounded(.up)))
                return String(repeating: shades[level], count: 2)
            }
            lines.append("  |" + cells.joined() + "|")
        }
        lines.append("  +" + String(repeating: "-", count: grid.columns * 2) + "+")
        return lines
    }

    /// Metres as "850 m" or "12.3 km".
    private static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
    }

    private static func diff(_ diff: ReportDiff) -> [String] {
        var lines = ["CHANGES since \(diff.against.file)", "  " + describe(diff.against)]
        var totals = TextTable(alignments: [.left, .right, .left])
        totals.rows = [
            [
                "spots", "\(diff.total.before) → \(diff.total.after)",
                "(\(Figures.signed(diff.total.change)), \(Figures.signedPercent(diff.total.relativeChange)))",
            ],
            ["added", "\(diff.references.added)", "OSM references only in this index"],
            ["removed", "\(diff.references.removed)", "OSM references only in \(diff.against.file)"],
            ["moved", "\(diff.references.moved)", "by more than \(Int(ReferenceChanges.movedThreshold)) m"],
        ]
        lines += totals.lines
        let changed = diff.categories.filter { $0.change != 0 }
        if changed.isEmpty {
            lines.append("  no category changed")
        } else {
            lines += changeTable("category", changed.map { ($0.name, $0) })
            let unchanged = diff.categories.count - changed.count
            if unchanged > 0 { lines.append("  (\(unchanged) categories unchanged)") }
        }
        let changedTypes = diff.resultTypes.filter { $0.change != 0 }
        if !changedTypes.isEmpty {
            lines += changeTable("result type", changedTypes.map { ($0.resultType.rawValue, $0) })
        }
        lines += diff.warnings.map { "warning: " + Figures.warning($0, maxDrop: diff.maxDrop) }
        return lines
    }

    /// The counts before and after of `rows`, each a name (headed `heading`) and its change.
    private static func changeTable(_ heading: String, _ rows: [(name: String, change: any CountChanging)]) -> [String]
    {
        var table = TextTable(
            header: [heading, "before", "after", "change", "change %"],
            alignments: [.left, .right, .right, .right, .right])
        table.rows = rows.map { name, change in
            [
                name, "\(change.before)", "\(change.after)", Figures.signed(change.change),
                Figures.signedPercent(change.relativeChange),
            ]
        }
        return table.lines
    }
}
