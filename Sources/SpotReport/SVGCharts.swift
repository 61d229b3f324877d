import Foundation

/// The HTML report's charts, as inline SVG (no script, no external file): they scale to the
/// page's width through their view box.
enum SVGCharts {
    /// A horizontal bar per category, longest first, coloured by group (MapKit, extension, none).
    static func categoryBars(_ coverage: CoverageReport) -> String {
        let rowHeight = 16
        let labelWidth = 130
        let barSpace = 210
        let width = 400
        let maximum = max(coverage.categories.first?.coverage.count ?? 0, 1)
        let bars = coverage.categories.enumerated().map { position, row in
            let y = position * rowHeight
            let length = max(1, Int((Double(row.coverage.count) / Double(maximum) * Double(barSpace)).rounded()))
            let share = Figures.percent(coverage.share(of: row))
            return HTML.element(
                "g", ["data-category": row.category?.rawValue ?? "", "data-count": "\(row.coverage.count)"],
                [
                    HTML.text("title", "\(row.name) (\(row.group.title)): \(row.coverage.count) spots, \(share)"),
                    HTML.text("text", ["x": "\(labelWidth - 4)", "y": "\(y + 12)", "text-anchor": "end"], row.name),
                    HTML.empty(
                        "rect",
                        [
                            "x": "\(labelWidth)", "y": "\(y + 2)", "width": "\(length)", "height": "\(rowHeight - 4)",
                            "class": "bar-\(row.group.rawValue)",
                        ]),
                    HTML.text("text", ["x": "\(labelWidth + length + 4)", "y": "\(y + 12)"], "\(row.coverage.count)"),
                ].joined())
        }
        let height = max(coverage.categories.count * rowHeight, rowHeight)
        return HTML.element(
            "svg",
            [
                "viewBox": "0 0 \(width) \(height)", "class": "bars", "role": "img",
                "aria-label": "Spots per category",
            ],
            bars.joined())
    }
}
