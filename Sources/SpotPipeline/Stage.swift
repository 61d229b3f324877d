import OSMGeometry
import SpotIndex
import Spots

/// A spot on its way through the build: the spot, its OSM version (to choose between two
/// meetings of one object), the object's tags that the category table consults, and the area
/// of a closed way or multipolygon (for deduplication).
public struct SpotRecord: Sendable {
    /// The spot as far as the build has made it.
    public var spot: Spot
    /// The OSM `version` attribute; 0 when absent.
    public var version: Int64
    /// Other tags of the object that categorizing needs ("historic": "castle").
    public var context: [String: String]
    /// The polygon a way or relation maps, or nil (nodes, open ways).
    public var area: Area?

    /// A record.
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

    /// Counts one record dropped for `reason`, and its `tag` when given.
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
/// A stage takes all records and returns the ones it keeps, counting in its report what it
/// dropped and why.
public protocol Stage {
    /// The stage's name in the build statistics.
    var name: String { get }
    /// Runs the stage over `records`.
    func run(_ records: [SpotRecord], report: inout StageReport) -> [SpotRecord]
}

extension Stage {
    /// Runs the stage and returns its output with a filled report.
    func run(_ records: [SpotRecord]) -> (records: [SpotRecord], report: StageReport) {
        var report = StageReport(stage: name)
        report.input = records.count
        let output = run(records, report: &report)
        report.output = output.count
        return (output, report)
    }
}
