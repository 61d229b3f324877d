import SpotIndex
@testable import SpotPipeline

extension Stage {
    /// The stage's output for `records` and its report: a test's view of one stage.
    func output(for records: [SpotRecord]) -> (records: [SpotRecord], report: StageReport) {
        var records = records
        let report = run(&records)
        return (records, report)
    }
}
