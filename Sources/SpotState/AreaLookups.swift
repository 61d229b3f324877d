/// What placing one area looked up, in order, as a record keeps it: each way's node list (or
/// that the way was missing) and each node's location (or that it was missing). An area's point
/// depends on these and nothing else, so an update that changes none of them replays them
/// (`replay`) instead of reading the state's tables, and one that changes any looks again.
public struct AreaLookups {
    /// One way looked up: its id and its node references, or nil when the way was missing.
    public var ways: [(id: Int64, nodes: [Int64]?)] = []
    /// One node looked up: its id and its location, or nil when the node was missing.
    public var nodes: [(id: Int64, location: (latitudeE7: Int32, longitudeE7: Int32)?)] = []

    /// No lookups.
    public init() {}
}

/// One way lookup as the tables keep it: its id and its references in RLKR (`isMissing` when
/// the way was not there).
struct WayLookup: BitwiseCopyable {
    var id: Int64
    var firstReference: UInt32
    /// The count of references; `missing` when the way was not there.
    var referenceCount: UInt32

    static let missing = UInt32.max
}

/// One node lookup as the tables keep it: its id and location (latitude `NodeTable.deleted`
/// when the node was not there).
struct NodeLookup: BitwiseCopyable {
    var id: Int64
    var latitudeE7: Int32
    var longitudeE7: Int32
}

/// A record's lookups as a table holds them, valid while the table's storage is.
public struct RecordLookups {
    let ways: UnsafeBufferPointer<WayLookup>
    let references: UnsafeBufferPointer<Int64>
    let nodes: UnsafeBufferPointer<NodeLookup>

    /// Whether the record has any (an area record placed by a build or an update).
    public var isEmpty: Bool { ways.isEmpty }

    /// Whether a way of `changedWays` or a node of `changedNodes` is among the lookups.
    public func touches(ways changedWays: (Int64) -> Bool, nodes changedNodes: (Int64) -> Bool) -> Bool {
        ways.contains { changedWays($0.id) } || nodes.contains { changedNodes($0.id) }
    }

    /// The lookups as values.
    public var values: AreaLookups {
        var lookups = AreaLookups()
        lookups.ways = ways.map { way in
            guard way.referenceCount != WayLookup.missing else { return (way.id, nil) }
            let start = Int(way.firstReference)
            return (way.id, Array(references[start..<start + Int(way.referenceCount)]))
        }
        lookups.nodes = nodes.map { node in
            (node.id, node.latitudeE7 == NodeTable.deleted ? nil : (node.latitudeE7, node.longitudeE7))
        }
        return lookups
    }
}
