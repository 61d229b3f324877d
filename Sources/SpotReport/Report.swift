import SpotIndex

/// A coverage report, and with an older index, what changed since.
public struct Report: Equatable, Sendable {
    /// What the index covers.
    public let coverage: CoverageReport
    /// The change from the older index, when one was given.
    public let diff: ReportDiff?

    /// The maximum fall of a category, as a fraction, before a diff warns, unless told otherwise.
    public static let defaultMaxDrop = 0.2

    /// The report of `index`, compared with `older` when given; `maxDrop` (a fraction from 0 to
    /// 1) is the fall of a category beyond which the diff warns.
    public init(index: SpotIndexReader, against older: SpotIndexReader? = nil, maxDrop: Double = Report.defaultMaxDrop)
        throws
    {
        let coverage = try CoverageReport(index: index)
        self.coverage = coverage
        diff = try older.map { older in
            ReportDiff(
                before: try CoverageReport(index: older), after: coverage,
                references: try ReferenceChanges(before: older, after: index), maxDrop: maxDrop)
        }
    }

    /// A report of parts already computed.
    public init(coverage: CoverageReport, diff: ReportDiff?) {
        self.coverage = coverage
        self.diff = diff
    }
}
