import SpotState

/// The state after an update: the records merged, and the node locations and way node lists
/// changed since the base (the old overlay with this update's changes over it). Written as a
/// new overlay over the same base while the overlay stays under `compactionShare` of the base;
/// past it, compacted: base and overlay merged into a new base file, with an empty overlay.
public struct UpdatedState {
    /// The share of the base's nodes (or ways) an overlay may reach before an update compacts it.
    public static let compactionShare = 1.0 / 8

    /// The state's own description.
    public let metadata: StateMetadata
    let records: RecordArena
    /// Nodes changed since the base, by id: a location, or nil for a deletion.
    let nodes: [(key: Int64, value: (latitudeE7: Int32, longitudeE7: Int32)?)]
    /// Ways changed since the base, by id: a node list, or nil for a deletion.
    let ways: [(key: Int64, value: [Int64]?)]
    /// The old state's geometry, mapped while its base is read.
    let geometry: StateGeometry

    init(metadata: StateMetadata, records: RecordArena, changes: ChangeSet, geometry: StateGeometry) throws {
        self.metadata = metadata
        self.records = records
        self.geometry = geometry
        var nodes: [Int64: (latitudeE7: Int32, longitudeE7: Int32)?] = [:]
        try geometry.overlayNodes.forEachNode { id, latitude, longitude in
            nodes[id] = latitude == NodeTable.deleted ? .some(nil) : .some((latitude, longitude))
        }
        for (id, location) in changes.nodes { nodes[id] = location }
        self.nodes = nodes.sorted { $0.key < $1.key }
        var ways: [Int64: [Int64]?] = [:]
        try geometry.overlayWays.forEachWay { id, refs in ways[id] = refs }
        for (id, refs) in changes.ways { ways[id] = refs }
        self.ways = ways.sorted { $0.key < $1.key }
    }

    /// Whether the overlay has outgrown `compactionShare` of the base.
    var compacts: Bool {
        Double(nodes.count) > Double(geometry.baseNodes.count) * Self.compactionShare
            || Double(ways.count) > Double(geometry.baseWays.count) * Self.compactionShare
    }

    /// Writes the state (and, compacting, a new base first), as `BuildState.write(to:)` lays
    /// them out; returns the base the state names.
    public func write(to pair: StatePairWriter) throws -> BaseReference {
        var metadata = metadata
        if compacts {
            metadata.base = try pair.writeBase(writeCompacted)
            try metadata.write(to: pair.state)
            var overlayNodes = try NodeTable.Writer(pair.state, NodeTable.overlay)
            try overlayNodes.finish()
            var overlayWays = try WayTable.Writer(pair.state, WayTable.overlay)
            try overlayWays.finish()
        } else {
            metadata.base = try pair.adopt(geometry.baseFile.path, metadata.base!)
            try metadata.write(to: pair.state)
            var overlayNodes = try NodeTable.Writer(pair.state, NodeTable.overlay)
            for (id, location) in nodes {
                try overlayNodes.append(
                    id: id, latitudeE7: location?.latitudeE7 ?? NodeTable.deleted,
                    longitudeE7: location?.longitudeE7 ?? 0)
            }
            try overlayNodes.finish()
            var overlayWays = try WayTable.Writer(pair.state, WayTable.overlay)
            for (id, refs) in ways { try overlayWays.append(id: id, nodes: refs) }
            try overlayWays.finish()
        }
        try records.write(to: pair.state)
        return metadata.base!
    }

    /// Writes a base of the old base's tables with the overlay merged in, deletions left out.
    private func writeCompacted(_ writer: StateWriter) throws {
        var nodeTable = try NodeTable.Writer(writer, NodeTable.base)
        var changedNodes = SortedChanges(nodes)
        func appendNode(_ id: Int64, _ location: (latitudeE7: Int32, longitudeE7: Int32)) throws {
            try nodeTable.append(id: id, latitudeE7: location.latitudeE7, longitudeE7: location.longitudeE7)
        }
        try geometry.baseNodes.forEachNode { id, latitude, longitude in
            if try !changedNodes.take(through: id, appendNode) { try appendNode(id, (latitude, longitude)) }
        }
        _ = try changedNodes.take(through: .max, appendNode)
        try nodeTable.finish()
        var wayTable = try WayTable.Writer(writer, WayTable.base)
        var changedWays = SortedChanges(ways)
        func appendWay(_ id: Int64, _ refs: [Int64]) throws { try wayTable.append(id: id, nodes: refs) }
        try geometry.baseWays.forEachWay { id, refs in
            if try !changedWays.take(through: id, appendWay), let refs { try appendWay(id, refs) }
        }
        _ = try changedWays.take(through: .max, appendWay)
        try wayTable.finish()
    }
}

/// Changes by id, taken in id order as a walk over a base's values meets them.
struct SortedChanges<Value> {
    private let changes: [(key: Int64, value: Value?)]
    private var next = 0

    /// Changes sorted by id: a value, or nil for a deletion.
    init(_ changes: [(key: Int64, value: Value?)]) {
        self.changes = changes
    }

    /// Takes the changes up to `id`, handing each value (not the deletions) to `emit` in order;
    /// whether `id` itself was changed (then its base value is not to be kept).
    mutating func take(through id: Int64, _ emit: (Int64, Value) throws -> Void) rethrows -> Bool {
        var changed = false
        while next < changes.count, changes[next].key <= id {
            if changes[next].key == id { changed = true }
            if let value = changes[next].value { try emit(changes[next].key, value) }
            next += 1
        }
        return changed
    }
}
