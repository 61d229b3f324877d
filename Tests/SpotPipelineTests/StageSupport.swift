import Spots

@testable import SpotPipeline

extension Stage {
    /// The stage's output for `candidates` and its report: a test's view of one stage.
    func output(for candidates: [SpotCandidate]) -> (candidates: [SpotCandidate], report: StageReport) {
        var candidates = candidates
        let report = run(&candidates)
        return (candidates, report)
    }
}
