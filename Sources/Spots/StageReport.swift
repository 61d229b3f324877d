/// What one stage of a build did: spot candidates in and out, what it dropped or merged and why,
/// and for some reasons the selecting tags concerned ("unmapped": {"amenity=foo": 3}).
///
/// It lives in the domain module because two modules speak it that must not know each other's
/// insides: the build's stages (SpotPipeline) fill it, and the index's metadata (SpotIndex)
/// stores it, as JSON, for `spots inspect` and `spots report`. Here, stages need not import the
/// file format, and the file format need not import the build.
public struct StageReport: Equatable, Sendable {
    /// The stage's name ("read", "select", "categorize", "normalize", "dedupe", "collect").
    public var stage: String
    /// Spot candidates in and out.
    public var input: Int, output: Int
    /// Candidates dropped or merged, by reason ("excluded", "unmapped", or the dedupe rule that
    /// merged them: "exact_name").
    public var dropped: [String: Int]
    /// Counts by tag, per reason; a reason may count tags without dropping (unmapped values
    /// kept by `--keep-all`).
    public var tags: [String: [String: Int]]

    /// A report with the given counts.
    public init(stage: String, input: Int, output: Int, dropped: [String: Int], tags: [String: [String: Int]]) {
        self.stage = stage
        self.input = input
        self.output = output
        self.dropped = dropped
        self.tags = tags
    }
}
