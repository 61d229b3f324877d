/// The parts of the HTML report that an `--against` comparison adds beside its counts: the
/// warnings, first on the page, and a table of each kind of changed spot, each spot linked to
/// its object on openstreetmap.org.
extension HTMLRenderer {
    /// The most rows a table of changes shows; the rest are counted, with the command that lists
    /// them all.
    static let changeRowLimit = 500

    /// The warnings of `diff`, for the top of the page; nil when there are none.
    static func warnings(_ diff: ReportDiff) -> String? {
        guard !diff.warnings.isEmpty else { return nil }
        let items = diff.warnings.map {
            HTML.text(
                "li", ["class": "warning", "data-category": $0.category?.rawValue ?? ""],
                "Warning: " + Figures.warning($0, maxDrop: diff.maxDrop))
        }
        return HTML.element("section", ["id": "warnings"], HTML.element("ul", ["class": "warnings"], items.joined()))
    }

    /// A table for each kind of change of `diff` (the report of `file`): reference (a link),
    /// name, category and what the change was.
    static func changeTables(_ diff: ReportDiff, file: String) -> [String] {
        SpotChange.Kind.allCases.flatMap { kind -> [String] in
            let changes = diff.references.changes(kind)
            let heading = HTML.text("h3", "\(kind.rawValue.capitalized) (\(changes.count))")
            guard !changes.isEmpty else { return [heading] }
            let rows = changes.prefix(changeRowLimit).map { change in
                HTML.row(
                    ["data-ref": change.ref.description],
                    [
                        HTML.element(
                            "td", [:], HTML.text("a", ["href": change.ref.osmURL], change.ref.description)),
                        HTML.text("td", change.name ?? "–"), HTML.text("td", change.category?.rawValue ?? "(none)"),
                        HTML.text("td", detail(change)),
                    ])
            }
            let table = HTML.table(
                id: "changes-\(kind.rawValue)", headings: ["OSM", "name", "category", detailHeading(kind)], rows: rows)
            let rest = changes.count - changeRowLimit
            let more =
                rest > 0
                ? [
                    HTML.text(
                        "p", ["class": "note"],
                        "… and \(rest) more: spots report \(file) --against \(diff.against.file) --format csv --list changes"
                    )
                ] : []
            return [heading, table] + more
        }
    }

    private static func detailHeading(_ kind: SpotChange.Kind) -> String {
        switch kind {
        case .moved: "moved by"
        case .renamed: "name before"
        case .recategorized: "category before"
        case .added, .removed: ""
        }
    }

    private static func detail(_ change: SpotChange) -> String {
        switch change.kind {
        case .moved: String(format: "%.0f m", change.metres ?? 0)
        case .renamed: change.nameBefore ?? "–"
        case .recategorized: change.categoryBefore?.rawValue ?? "(none)"
        case .added, .removed: ""
        }
    }
}
