import OSMGeometry
import Spots

/// A spot candidate: a spot on its way through the build, in memory, that the stages may still
/// change, merge or drop. It carries the spot, its OSM version (to choose between two meetings
/// of one object), the object's tags that the category table consults, and the area of a closed
/// way or multipolygon (for deduplication). (A record, in this code, is an entry on disk.)
public struct SpotCandidate: Sendable {
    /// The spot as far as the build has made it.
    public var spot: Spot
    /// The OSM `version` attribute; 0 when absent.
    public var version: Int64
    /// Other tags of the object that categorizing needs ("historic": "castle").
    public var context: [String: String]
    /// The polygon a way or relation maps, or nil (nodes, open ways).
    public var area: Area?

    /// A candidate for `spot`.
    public init(spot: Spot, version: Int64 = 0, context: [String: String] = [:], area: Area? = nil) {
        self.spot = spot
        self.version = version
        self.context = context
        self.area = area
    }
}

extension StageReport {
    /// An empty report for `stage`.
    init(stage: String) {
        self.init(stage: stage, input: 0, output: 0, dropped: [:], tags: [:])
    }

    /// Counts one candidate dropped for `reason`, and its `tag` when given.
    mutating func drop(_ reason: String, tag: String? = nil) {
        dropped[reason, default: 0] += 1
        if let tag { count(reason, tag: tag) }
    }

    /// Counts `tag` under `reason` without dropping anything.
    mutating func count(_ reason: String, tag: String) {
        tags[reason, default: [:]][tag, default: 0] += 1
    }
}

/// One step of the build's chain: select → categorize → normalize → dedupe → collect.
/// A stage works on all candidates in place, keeping the ones it keeps in order and counting in its
/// report what it dropped and why. In place, because the candidates are most of a build's memory:
/// a stage that built a new array would hold two copies of them at its peak.
public protocol Stage {
    /// The stage's name in the build statistics.
    var name: String { get }
    /// Runs the stage over `candidates`, in place.
    func run(_ candidates: inout [SpotCandidate], report: inout StageReport)
}

extension Stage {
    /// Runs the stage over `candidates`, in place, and returns its filled report.
    func run(_ candidates: inout [SpotCandidate]) -> StageReport {
        var report = StageReport(stage: name)
        report.input = candidates.count
        run(&candidates, report: &report)
        report.output = candidates.count
        return report
    }
}

extension Array {
    /// Keeps, in order, the elements for which `keep` returns true, after letting it change
    /// each one; `keep` gets each element's position before any is removed. In place: kept
    /// elements are moved, never copied.
    mutating func retain(_ keep: (_ position: Int, _ element: inout Element) -> Bool) {
        var kept = 0
        for position in indices where keep(position, &self[position]) {
            if kept != position { swapAt(kept, position) }
            kept += 1
        }
        removeLast(count - kept)
    }
}
