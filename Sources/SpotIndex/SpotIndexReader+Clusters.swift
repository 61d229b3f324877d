import SpotCluster
import Spots

/// The count, box and category counts of some spots of an index, added one by one: spots are
/// counted by kind, and kinds turned into categories once at the end.
public struct SpotTally {
    /// How many spots were added.
    public var count: Int { added }
    @usableFromInline var added = 0
    @usableFromInline var kindCounts: [Int]
    @usableFromInline var west = Int32.max, south = Int32.max, east = Int32.min, north = Int32.min

    /// An empty tally of spots of `index`.
    public init(_ index: SpotIndexReader) {
        kindCounts = [Int](repeating: 0, count: index.kinds.count)
    }

    /// Their box; nil before the first.
    public var boundingBox: GeoBox? {
        guard count > 0 else { return nil }
        return GeoBox(westE7: west, southE7: south, eastE7: east, northE7: north)
    }

    /// Adds a spot at `coordinate` of kind number `kind`; inlined where clusters are tallied.
    @inlinable public mutating func add(_ coordinate: Coordinate, kind: Int) {
        added += 1
        kindCounts[kind] += 1
        south = min(south, coordinate.latitudeE7)
        north = max(north, coordinate.latitudeE7)
        west = min(west, coordinate.longitudeE7)
        east = max(east, coordinate.longitudeE7)
    }

    /// The spots of each category, by category name, with the kinds of `index`.
    public func categories(_ index: SpotIndexReader) -> [CategoryCount] {
        CategoryCount.byName(
            kindCounts.indices.compactMap { kind in
                guard kindCounts[kind] > 0, let category = index.kinds[kind].category else { return nil }
                return CategoryCount(category, kindCounts[kind])
            })
    }
}

extension SpotIndexReader {
    /// Cluster `id` of `clusterLevels` as an app shows it: its box and category counts as
    /// stored, or, for a cluster of few spots, worked out from its members.
    public func cluster(_ id: Int) throws(IndexError) -> MapCluster {
        let levels = requireClusterLevels()
        let record = try levels.record(ofCluster: id)
        let coordinate = try levels.coordinate(ofCluster: id)
        let expansionZoom = levels.zoom(ofCluster: id) + 1
        if let stored = record.stored {
            return MapCluster(
                id: id, coordinate: coordinate, count: record.count, categories: stored.categories,
                boundingBox: stored.box,
                expansionZoom: expansionZoom)
        }
        var tally = SpotTally(self)
        try forEachMember(of: record, from: 0, limit: record.count) { (spot) throws(IndexError) in
            tally.add(try self.coordinate(at: spot), kind: try kindNumber(at: spot))
        }
        guard let box = tally.boundingBox else { throw corrupt("CDET", "cluster \(id) has no members") }
        return MapCluster(
            id: id, coordinate: coordinate, count: tally.count, categories: tally.categories(self), boundingBox: box,
            expansionZoom: expansionZoom)
    }

    /// The spots of cluster `id` (its leaves), at most `limit` from the `offset`-th, in the
    /// member order: those of its first child cluster first, depth first, its own spots last.
    public func leaves(ofCluster id: Int, limit: Int, offset: Int) throws(IndexError) -> [Int] {
        precondition(offset >= 0 && limit >= 0, "offset and limit must not be negative")
        var spots: [Int] = []
        try forEachMember(of: try requireClusterLevels().record(ofCluster: id), from: offset, limit: limit) {
            (spot) throws(IndexError) in
            spots.append(spot)
        }
        return spots
    }

    /// The children of cluster `id`: the clusters and spots shown at its expansion zoom that it
    /// splits into. Child clusters are the clusters shown there inside its box whose members are
    /// a run of its own (in member order); its own spots follow them.
    public func children(ofCluster id: Int) throws(IndexError) -> (clusters: [Int], spots: [Int]) {
        let levels = requireClusterLevels()
        let record = try levels.record(ofCluster: id)
        let members = record.firstMember..<record.firstMember + record.count
        let box = try cluster(id).boundingBox
        var children: [(id: Int, record: ClusterLevels.Record)] = []
        try levels.forEachCluster(shownAt: levels.zoom(ofCluster: id) + 1, in: box) { (child) throws(IndexError) in
            let childRecord = try levels.record(ofCluster: child)
            if members.contains(childRecord.firstMember) { children.append((child, childRecord)) }
        }
        children.sort { $0.record.firstMember < $1.record.firstMember }
        let inChildren = children.reduce(0) { $0 + $1.record.count }
        guard inChildren <= record.count else {
            throw corrupt("CDET", "the children of cluster \(id) hold more spots than it")
        }
        var spots: [Int] = []
        try forEachMember(of: record, from: inChildren, limit: record.count - inChildren) { (spot) throws(IndexError) in
            spots.append(spot)
        }
        return (children.map(\.id), spots)
    }

    /// Calls `body` with at most `limit` members of the cluster whose record is `record`, from
    /// its `offset`-th.
    private func forEachMember(
        of record: ClusterLevels.Record, from offset: Int, limit: Int, _ body: (Int) throws(IndexError) -> Void
    ) throws(IndexError) {
        let skipped = min(offset, record.count)
        let start = record.firstMember + skipped
        try requireClusterLevels().forEachMember(at: start..<start + min(limit, record.count - skipped), body)
    }

    func requireClusterLevels() -> ClusterLevels {
        guard let clusterLevels else { preconditionFailure("the index has no cluster levels") }
        return clusterLevels
    }
}
