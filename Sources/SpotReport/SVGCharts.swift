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

    /// The density grid as a map in Web Mercator, north up: each cell shaded by its count
    /// (square root scale, so that sparse cells still show), with its count and edges as a tooltip.
    static func densityMap(_ grid: DensityGrid) -> String {
        let cell = 20
        let maximum = Double(max(grid.maximum, 1))
        var shapes = [
            HTML.empty(
                "rect",
                [
                    "x": "0", "y": "0", "width": "\(grid.columns * cell)", "height": "\(grid.rows * cell)",
                    "class": "map-ground",
                ])
        ]
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let count = grid.count(column: column, row: row)
                guard count > 0 else { continue }
                let edges = grid.bounds(column: column, row: row)
                let opacity = 0.15 + 0.85 * (Double(count) / maximum).squareRoot()
                let place =
                    "lon \(Figures.roughDegrees(edges.west)) to \(Figures.roughDegrees(edges.east)), lat \(Figures.roughDegrees(edges.south)) to \(Figures.roughDegrees(edges.north))"
                shapes.append(
                    HTML.element(
                        "rect",
                        [
                            "x": "\(column * cell)", "y": "\(row * cell)", "width": "\(cell)", "height": "\(cell)",
                            "class": "map-cell",
                            "fill-opacity": String(format: "%.3f", opacity), "data-count": "\(count)",
                        ], HTML.text("title", "\(count) spots; \(place)")))
            }
        }
        return HTML.element(
            "svg",
            [
                "viewBox": "0 0 \(grid.columns * cell) \(grid.rows * cell)", "class": "map",
                "role": "img", "aria-label": "Spot density, Web Mercator, north up",
            ],
            shapes.joined())
    }
}
