import SpotReport

/// What the nightly refresh checks before it publishes (`gates` in a pipeline file).
public struct Gates: Sendable, Equatable {
    /// The fewest spots a build may have (`min_spots`).
    public var minSpots: Int
    /// The largest fraction by which the spot count, overall or of one category, may fall
    /// against the published index (`max_drop`).
    public var maxDrop: Double

    /// Gates of at least `minSpots` spots and a fall of at most `maxDrop`.
    public init(minSpots: Int, maxDrop: Double) {
        self.minSpots = minSpots
        self.maxDrop = maxDrop
    }

    /// The gates that a build with `report` fails, one line each: too few spots, or a fall of
    /// more than `maxDrop` overall or in one category against the published index (the report's
    /// diff, made with the same `maxDrop`). Empty when the build may be published.
    public func failures(of report: Report) -> [String] {
        minimumFailures(of: report) + dropFailures(of: report)
    }

    /// The `min_spots` gate's failure, if the build has too few spots.
    func minimumFailures(of report: Report) -> [String] {
        let spots = report.coverage.total
        return spots < minSpots ? ["\(spots) spots, fewer than gates.min_spots \(minSpots)"] : []
    }

    /// The `max_drop` gate's failures: a fall of more than `maxDrop` overall or in a category.
    func dropFailures(of report: Report) -> [String] {
        var reasons: [String] = []
        guard let diff = report.diff else { return reasons }
        if diff.total.fell(byMoreThan: maxDrop) {
            reasons.append(
                "spots fell from \(diff.total.before) to \(diff.total.after), more than gates.max_drop \(maxDrop)")
        }
        reasons += diff.warningMessages
        return reasons
    }
}
