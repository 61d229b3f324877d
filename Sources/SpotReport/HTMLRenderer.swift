import Spots

/// The HTML form of a report: one self-contained page (no script, no network, no external
/// style or image) with a bar chart of categories and a density map as inline SVG, a heat table
/// of attribute completeness, the to-do list, names by language, and the diff when given.
/// Figures are also carried in `data-` attributes (counts and shares as in the JSON form), so
/// that a program can read them back.
enum HTMLRenderer {
    static let style = """
        :root{color-scheme:light dark;--mapkit:#2f6fd0;--extension:#d9822b;--none:#8a8a8a}
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:64rem;padding:1rem}
        h1{font-size:1.4rem;margin:.5rem 0;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:2rem 0 .5rem}
        p{margin:.4rem 0}.note{opacity:.75;font-size:.9em}
        .scroll{overflow-x:auto;max-width:100%}
        table{border-collapse:collapse;font-variant-numeric:tabular-nums}
        th,td{padding:.25rem .5rem;text-align:right;white-space:nowrap}
        th:first-child,td:first-child,.text{text-align:left}
        thead th{border-bottom:1px solid;vertical-align:bottom}tfoot td{border-top:1px solid;font-weight:600}
        td.heat{color:#111}
        svg{display:block;width:100%;height:auto}svg.bars{max-width:40rem}svg.map{max-width:36rem;border:1px solid #8888}
        svg text{font-size:11px;fill:currentColor}
        .bar-mapkit{fill:var(--mapkit)}.bar-extension{fill:var(--extension)}.bar-none{fill:var(--none)}
        .legend span{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 1em;vertical-align:-.05em}
        .legend span:first-child{margin-left:0}
        .map-ground{fill:#8881}.map-cell{fill:#c0392b}
        .dot-mapkit{fill:var(--mapkit)}.dot-extension{fill:var(--extension)}.dot-none{fill:var(--none)}
        .graticule{stroke:#8887;stroke-width:.6}.graticule-label{font-size:10px;fill:currentColor}
        .bbox{fill:none;stroke:#c0392b;stroke-width:1;stroke-dasharray:5 3}
        .scale-bar rect{fill:currentColor}.scale-bar text{font-size:11px;fill:currentColor}
        .fell{color:#c0392b}.grew{color:#1e8449}
        .warning{color:#c0392b;font-weight:600}
        @media (max-width:600px){body{font-size:13px;padding:.5rem}th,td{padding:.2rem .35rem}}
        """

    static func render(_ report: Report) -> String {
        let coverage = report.coverage
        let title = "Coverage of \(coverage.index.file)"
        var body = [
            HTML.element(
                "header", [:],
                HTML.text("h1", title) + HTML.text("p", ["class": "note"], describe(coverage.index))
                    + selection(coverage.index))
        ]
        if let warnings = report.diff.flatMap(warnings) { body.append(warnings) }
        body += [
            totals(coverage), categories(coverage), completeness(coverage), unmapped(coverage), leftOut(coverage),
            languages(coverage),
            place(coverage),
        ]
        if let diff = report.diff { body.append(self.diff(diff, file: coverage.index.file)) }
        body.append(
            HTML.text(
                "footer", ["class": "note"], "Made by spots report. Map data © OpenStreetMap contributors, ODbL 1.0."))
        let head = [
            HTML.empty("meta", ["charset": "utf-8"]),
            HTML.empty("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"]),
            HTML.text("title", title),
            HTML.element("style", [:], style),
        ].joined(separator: "\n")
        return "<!DOCTYPE html>\n"
            + HTML.element(
                "html", ["lang": "en"],
                "\n" + HTML.element("head", [:], "\n" + head + "\n") + "\n"
                    + HTML.element("body", [:], "\n" + body.joined(separator: "\n") + "\n") + "\n") + "\n"
    }

    private static func describe(_ index: IndexSummary) -> String {
        "Built \(index.buildTime ?? "at an unknown time") by \(index.generator)"
            + (index.inputs.isEmpty ? "." : " from " + index.inputs.joined(separator: ", ") + ".")
    }

    /// What the build selected, the keys and the unreached categories also in data attributes
    /// (comma-separated); empty when the index records no selection.
    private static func selection(_ index: IndexSummary) -> String {
        guard let selection = index.selection else { return "" }
        return HTML.text(
            "p",
            [
                "id": "selection", "class": "note", "data-select": selection.keys.joined(separator: ","),
                "data-addresses": "\(selection.addresses)",
                "data-unreached": selection.unreachedCategories.joined(separator: ","),
            ], "Selects \(selection.selected). Unreached: \(selection.unreached).")
    }

    private static func section(_ id: String, _ heading: String, _ content: [String]) -> String {
        HTML.element("section", ["id": id], HTML.text("h2", heading) + content.joined())
    }

    /// A row of a key and a count, both in data attributes.
    private static func countRow(_ key: String, _ label: String, _ count: Int, note: String = "") -> String {
        HTML.row(
            ["data-key": key, "data-value": "\(count)"],
            [HTML.text("td", label), HTML.text("td", "\(count)"), HTML.text("td", ["class": "text note"], note)])
    }

    private static func totals(_ coverage: CoverageReport) -> String {
        var rows = [countRow("total", "spots", coverage.total)]
        rows += OSMType.allCases.map { countRow($0.name, "\($0.name)s", coverage.count(of: $0)) }
        rows.append(
            countRow(
                "merged_duplicates", "merged duplicates", coverage.mergedDuplicates,
                note: "OSM objects folded into another spot"))
        rows += coverage.dropped.map {
            countRow(
                "dropped:\($0.stage):\($0.reason)", "dropped: \($0.reason)", $0.count, note: "in the \($0.stage) stage")
        }
        return section("totals", "Totals", [HTML.table(id: "totals-table", headings: [], rows: rows)])
    }

    private static func categories(_ coverage: CoverageReport) -> String {
        guard !coverage.categories.isEmpty else {
            return section("categories", "Categories", [HTML.text("p", "The index holds no spots.")])
        }
        let legend = CategoryGroup.allCases.map {
            HTML.element("span", ["class": "bar-\($0.rawValue)", "style": "background:var(--\($0.rawValue))"])
                + HTML.escape($0.title)
        }
        return section(
            "categories", "Categories (\(coverage.categories.count))",
            [
                HTML.element("p", ["class": "legend note"], legend.joined(separator: " ")),
                SVGCharts.categoryBars(coverage),
            ])
    }

    /// The background of a heat-table cell: red for 0 through yellow to green for 1.
    private static func heat(_ share: Double) -> String { "background:hsl(\(Int((share * 120).rounded())),70%,82%)" }

    /// The cells of a row's spots: their count, their share of `total`, and a heat cell per
    /// attribute, with its count and share in data attributes.
    private static func figureCells(_ rowCoverage: Coverage, of total: Int) -> [String] {
        [
            HTML.text("td", "\(rowCoverage.count)"),
            HTML.text("td", Figures.percent(fraction(rowCoverage.count, of: total))),
        ]
            + SpotAttribute.allCases.map { attribute in
                let share = rowCoverage.share(with: attribute)
                return HTML.text(
                    "td",
                    [
                        "class": "heat", "style": heat(share), "data-attribute": attribute.rawValue,
                        "data-count": "\(rowCoverage.count(with: attribute))", "data-share": Figures.fraction(share),
                    ], Figures.percent(share))
            }
    }

    private static func completeness(_ coverage: CoverageReport) -> String {
        let total = coverage.total
        let headings = ["spots", "share"] + SpotAttribute.allCases.map(\.title)
        let rows = coverage.categories.map { row in
            HTML.row(
                [
                    "data-category": row.category?.rawValue ?? "", "data-group": row.group.rawValue,
                    "data-count": "\(row.coverage.count)", "data-share": Figures.fraction(coverage.share(of: row)),
                ],
                [HTML.text("td", row.name), HTML.text("td", ["class": "text"], row.group.title)]
                    + figureCells(row.coverage, of: total))
        }
        let all = HTML.row(
            ["class": "all", "data-count": "\(total)"],
            [HTML.text("td", "all"), HTML.element("td")] + figureCells(coverage.overall, of: total))
        let typeRows = coverage.resultTypes.map { row in
            HTML.row(
                [
                    "data-result-type": row.resultType.rawValue, "data-count": "\(row.coverage.count)",
                    "data-share": Figures.fraction(coverage.share(of: row)),
                ], [HTML.text("td", row.resultType.rawValue)] + figureCells(row.coverage, of: total))
        }
        return section(
            "completeness", "Attribute completeness",
            [
                HTML.text(
                    "p", ["class": "note"],
                    "Share of each category's or result type's spots that have the attribute: address is any addr:* tag, localized names any name:xx tag."
                ),
                HTML.text("h3", "By category"),
                HTML.table(
                    id: "completeness-table", headings: ["category", "group"] + headings, rows: rows, footer: [all]),
                HTML.text("h3", "By result type"),
                HTML.table(id: "result-types-table", headings: ["result type"] + headings, rows: typeRows),
            ])
    }

    private static func tallies(_ id: String, _ heading: String, _ tallies: [Tally], key: String, of total: Int?)
        -> String
    {
        let rows = tallies.map { tally in
            HTML.row(
                ["data-\(key)": tally.key, "data-count": "\(tally.count)"],
                [HTML.text("td", tally.key), HTML.text("td", "\(tally.count)")]
                    + (total.map { [HTML.text("td", Figures.percent(fraction(tally.count, of: $0)))] } ?? []))
        }
        return HTML.table(id: id, headings: [heading, "spots"] + (total == nil ? [] : ["share"]), rows: rows)
    }

    private static func unmapped(_ coverage: CoverageReport) -> String {
        section(
            "unmapped", "To do: values with no category",
            coverage.unmapped.isEmpty
                ? [HTML.text("p", "Every selected value met has a rule in the category table.")]
                : [
                    HTML.text(
                        "p", ["class": "note"],
                        "Selecting tags the category table has no rule for, with the spots the build met; most frequent first."
                    ),
                    tallies("unmapped-table", "tag", coverage.unmapped, key: "tag", of: nil),
                ])
    }

    /// What the category table leaves uncategorized and what the pipeline excludes, by tag.
    private static func leftOut(_ coverage: CoverageReport) -> String {
        section(
            "left-out", "Uncategorized and excluded, by tag",
            [
                HTML.text(
                    "p", ["class": "note"],
                    "Selecting tags that a rule of the category table leaves without a category, and those the pipeline's exclude list drops, with the OSM objects the build met; most frequent first."
                ),
                HTML.text("h3", "Uncategorized"),
                coverage.uncategorized.isEmpty
                    ? HTML.text("p", "None.")
                    : tallies("uncategorized-table", "tag", coverage.uncategorized, key: "tag", of: nil),
                HTML.text("h3", "Excluded"),
                coverage.excluded.isEmpty
                    ? HTML.text("p", "None.")
                    : tallies("excluded-table", "tag", coverage.excluded, key: "tag", of: nil),
            ])
    }

    private static func languages(_ coverage: CoverageReport) -> String {
        section(
            "languages", "Names by language",
            coverage.languages.isEmpty
                ? [HTML.text("p", "No spot has a name:xx tag.")]
                : [tallies("languages-table", "language", coverage.languages, key: "language", of: coverage.total)])
    }

    private static func place(_ coverage: CoverageReport) -> String {
        guard let extent = coverage.extent else {
            return section("where", "Where", [HTML.text("p", "No spots.")])
        }
        let drawn =
            coverage.total > SpotMap.dotLimit
            ? "Spots per cell, \(SpotMap.rasterCells) cells along the longer side; darker is denser."
            : "Each spot is a dot: blue a MapKit category, orange a Spots extension, grey none."
        return section(
            "where", "Where",
            [
                HTML.element(
                    "p", ["data-bbox": extent.edgesE7.map(Figures.degrees).joined(separator: ",")],
                    "Bounding box " + HTML.text("code", extent.edgesE7.map(Figures.degrees).joined(separator: ","))
                        + " (MINLON,MINLAT,MAXLON,MAXLAT)."),
                HTML.text(
                    "p", ["class": "note"],
                    "Web Mercator, north up, with latitude and longitude lines, a scale bar and the bounding box (dashed). "
                        + drawn),
                SpotMap(points: coverage.points, extent: extent).svg(),
            ])
    }

    private static func diff(_ diff: ReportDiff, file: String) -> String {
        let totals = [
            countRow("before", "spots before", diff.total.before), countRow("after", "spots after", diff.total.after),
            countRow("added", "added", diff.references.added, note: "OSM references only in this index"),
            countRow("removed", "removed", diff.references.removed, note: "OSM references only in the older index"),
            countRow(
                "moved", "moved", diff.references.moved, note: "by more than \(Int(ReferenceChanges.movedThreshold)) m"),
        ]
        let rows = diff.categories.map { changeRow("data-category", $0.category?.rawValue ?? "", $0.name, $0) }
        let typeRows = diff.resultTypes.map {
            changeRow("data-result-type", $0.resultType.rawValue, $0.resultType.rawValue, $0)
        }
        let headings = ["before", "after", "change", "change %"]
        return section(
            "diff", "Changes since \(diff.against.file)",
            [
                HTML.text("p", ["class": "note"], describe(diff.against)),
                diff.warnings.isEmpty
                    ? HTML.text("p", "No category fell by more than \(Figures.percent(diff.maxDrop)).")
                    : HTML.text("p", "Warnings: at the top of the page."),
                HTML.table(id: "diff-totals", headings: [], rows: totals),
                HTML.table(id: "diff-categories", headings: ["category"] + headings, rows: rows),
                HTML.table(id: "diff-result-types", headings: ["result type"] + headings, rows: typeRows),
            ] + changeTables(diff, file: file))
    }

    /// A row of a count before and after, named `name`, with `key` (a data attribute) `value`.
    private static func changeRow(_ key: String, _ value: String, _ name: String, _ change: some CountChanging)
        -> String
    {
        let trend = change.change < 0 ? "fell" : change.change > 0 ? "grew" : ""
        return HTML.row(
            [
                key: value, "data-before": "\(change.before)", "data-after": "\(change.after)",
                "data-change": "\(change.change)",
            ],
            [
                HTML.text("td", name), HTML.text("td", "\(change.before)"), HTML.text("td", "\(change.after)"),
                HTML.text("td", ["class": trend], Figures.signed(change.change)),
                HTML.text("td", ["class": trend], Figures.signedPercent(change.relativeChange)),
            ])
    }
}
