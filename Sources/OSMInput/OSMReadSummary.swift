/// Counts of what one input held, and how it was parsed.
///
/// `==` compares every property, the piece statistics too; `sameContents(as:)` compares what
/// the input held, which is the same whatever the thread count.
public struct OSMReadSummary: Sendable, Equatable {
    /// Top-level elements of each type, deleted ones included.
    public var nodes = 0, ways = 0, relations = 0
    /// Elements of an extract marked deleted (`visible="false"` or JOSM's `action="delete"`);
    /// never delivered. Always 0 for an osmChange file, whose deletions are delivered
    /// (`OSMElement.action`).
    public var deleted = 0
    /// The newest timestamp in the input (`timestamp` attributes, Overpass's `osm_base`) as
    /// written there ("2021-04-21T20:21:46Z"), or nil when it has none.
    public var newestTimestamp: String?
    /// Raw input bytes read, and bytes after inflating: the XML text, or a PBF's blocks.
    public var inputBytes = 0, xmlBytes = 0
    /// Pieces of the XML parsed apart, each by a parser of its own: on the parsing threads, or,
    /// with one thread, on the caller's thread.
    public var parallelPieces = 0
    /// Pieces parsed in order by the one sequential parser: the first (the prolog and the root's
    /// start tag), the last (the root's end), and every piece whose boundaries could not be
    /// proven.
    public var sequentialPieces = 0
    /// Elements read without expat (`PlainElement`), in pieces parsed apart.
    public var plainElements = 0
    /// Blocks of a PBF input decoded (its `OSMData` blobs), on the decoding threads or, with one
    /// thread, on the caller's thread.
    public var pbfBlocks = 0

    /// Empty counts.
    public init() {}

    /// Whether `other` counts the same elements, deletions, timestamp and bytes (everything
    /// but how the input was cut into pieces or blocks and read).
    public func sameContents(as other: OSMReadSummary) -> Bool {
        var other = other
        other.parallelPieces = parallelPieces
        other.sequentialPieces = sequentialPieces
        other.plainElements = plainElements
        other.pbfBlocks = pbfBlocks
        return self == other
    }

    /// Adds the element counts of another stretch of the same input and keeps the newer timestamp.
    mutating func addElements(of other: OSMReadSummary) {
        nodes += other.nodes
        ways += other.ways
        relations += other.relations
        deleted += other.deleted
        plainElements += other.plainElements
        if let timestamp = other.newestTimestamp,
            newestTimestamp.map({ $0.utf8.lexicographicallyPrecedes(timestamp.utf8) }) ?? true
        {
            newestTimestamp = timestamp
        }
    }
}
