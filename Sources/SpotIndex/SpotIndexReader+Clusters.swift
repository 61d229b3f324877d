import SpotCluster
import Spots

/// The count, box and category counts of some spots of an index, added one by one: spots are
/// counted by kind, and kinds turned into categories once at the end.
public struct SpotTally {
    /// How many spots were added.
    public private(set) var count = 0
    /// Their box; nil before the first.
    public private(set) var boundingBox: BoundingBox?
    private var kindCounts: [Int]

    /// An empty tally of spots of `index`.
    public init(_ index: SpotIndexReader) {
        kindCounts = [Int](repeating: 0, count: index.kinds.count)
    }

    /// Adds a spot at `coordinate` of kind number `kind`.
    public mutating func add(_ coordinate: Coordinate, kind: Int) {
        count += 1
        kindCounts[kind] += 1
        guard var box = boundingBox else {
            boundingBox = BoundingBox(enclosing: [coordinate])
            return
        }
        box.minLatitudeE7 = min(box.minLatitudeE7, coordinate.latitudeE7)
        box.maxLatitudeE7 = max(box.maxLatitudeE7, coordinate.latitudeE7)
        box.minLongitudeE7 = min(box.minLongitudeE7, coordinate.longitudeE7)
        box.maxLongitudeE7 = max(box.maxLongitudeE7, coordinate.longitudeE7)
        boundingBox = box
    }

    /// The spots of each category, by category name, with the kinds of `index`.
    public func categories(_ index: SpotIndexReader) -> [CategoryCount] {
        CategoryCount.byName(kindCounts.indices.compactMap { kind in
            guard kindCounts[kind] > 0, let category = index.kinds[kind].category else { return nil }
            return CategoryCount(category, kindCounts[kind])
        })
    }
}

extension SpotIndexReader {
    /// The spots whose coordinates lie in the box (degrees × 10^7, edges included, not crossing
    /// the antimeridian), in spot order, with their kind numbers and coordinates: only kinds
    /// that `kinds` allows (by kind number) when given, and only spots shown as themselves at
    /// `shownAt` (by the cluster levels) when given. A walk of TREE that skips boxes outside,
    /// and with `shownAt` boxes whose spots are all in clusters at that zoom.
    public func spots(
        west: Int32, south: Int32, east: Int32, north: Int32, kinds allowed: [Bool]? = nil, shownAt zoom: Int? = nil
    ) throws(IndexError) -> [(spot: Int, kind: Int, coordinate: Coordinate)] {
        precondition(allowed.map { $0.count == kinds.count } ?? true, "one flag per kind")
        let levels = zoom.map { _ in requireClusterLevels() }
        let levelStarts = levelCounts.reduce(into: [0]) { $0.append($0.last! + $1) }
        let (records, boxes, kindCount) = (spots, boxes, kinds.count)
        var found: [(spot: Int, kind: Int, coordinate: Coordinate)] = []
        func visit(level: Int, node: Int) throws(IndexError) {
            let offset = (levelStarts[level] + node) * IndexLayout.boxSize
            let (boxWest, boxSouth): (Int32, Int32) = (boxes.load(offset), boxes.load(offset + 4))
            let (boxEast, boxNorth): (Int32, Int32) = (boxes.load(offset + 8), boxes.load(offset + 12))
            guard boxWest <= east, boxSouth <= north, boxEast >= west, boxNorth >= south else { return }
            if let levels, let zoom, levels.visibleFrom(treeBox: node, level: level) > zoom { return }
            let first = node * nodeSize
            guard level == 0 else {
                for child in first..<min(first + nodeSize, levelCounts[level - 1]) { try visit(level: level - 1, node: child) }
                return
            }
            // Spots in order; the kind (one load) is checked before the coordinate (two).
            for spot in first..<min(first + nodeSize, count) {
                let record = spot &* IndexLayout.spotRecordSize
                let kind = Int(records.load(record &+ 12) as UInt16)
                guard kind < kindCount else { throw corrupt("SPOT", "spot \(spot) has kind \(kind) of \(kindCount)") }
                if let allowed, !allowed[kind] { continue }
                let (latitude, longitude): (Int32, Int32) = (records.load(record), records.load(record &+ 4))
                guard longitude >= west, longitude <= east, latitude >= south, latitude <= north else { continue }
                if let levels, let zoom, try levels.visibleFrom(spot: spot) > zoom { continue }
                guard let coordinate = Coordinate(latitudeE7: latitude, longitudeE7: longitude) else {
                    throw corrupt("SPOT", "spot \(spot) has an impossible coordinate")
                }
                found.append((spot, kind, coordinate))
            }
        }
        if let top = levelCounts.indices.last { try visit(level: top, node: 0) }
        return found
    }

    /// Cluster `id` of `clusterLevels` as an app shows it: its box and category counts as
    /// stored, or, for a cluster of few spots, worked out from its members.
    public func cluster(_ id: Int) throws(IndexError) -> MapCluster {
        let levels = requireClusterLevels()
        let record = try levels.record(ofCluster: id)
        let coordinate = try levels.coordinate(ofCluster: id)
        let expansionZoom = levels.zoom(ofCluster: id) + 1
        if let stored = record.stored {
            return MapCluster(
                id: id, coordinate: coordinate, count: record.count, categories: stored.categories, boundingBox: stored.box,
                expansionZoom: expansionZoom)
        }
        var tally = SpotTally(self)
        try forEachMember(of: record, from: 0, limit: record.count) { (spot) throws(IndexError) in
            tally.add(try self.coordinate(at: spot), kind: try kindNumber(at: spot))
        }
        return MapCluster(
            id: id, coordinate: coordinate, count: tally.count, categories: tally.categories(self), boundingBox: tally.boundingBox!,
            expansionZoom: expansionZoom)
    }

    /// The spots of cluster `id` (its leaves), at most `limit` from the `offset`-th, in the
    /// member order: those of its first child cluster first, depth first, its own spots last.
    public func leaves(ofCluster id: Int, offset: Int, limit: Int) throws(IndexError) -> [Int] {
        precondition(offset >= 0 && limit >= 0, "offset and limit must not be negative")
        var spots: [Int] = []
        try forEachMember(of: try requireClusterLevels().record(ofCluster: id), from: offset, limit: limit) { (spot) throws(IndexError) in
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
        try levels.forEachCluster(
            shownAt: levels.zoom(ofCluster: id) + 1, west: box.minLongitudeE7, south: box.minLatitudeE7, east: box.maxLongitudeE7,
            north: box.maxLatitudeE7
        ) { (child) throws(IndexError) in
            let childRecord = try levels.record(ofCluster: child)
            if members.contains(childRecord.firstMember) { children.append((child, childRecord)) }
        }
        children.sort { $0.record.firstMember < $1.record.firstMember }
        let inChildren = children.reduce(0) { $0 + $1.record.count }
        guard inChildren <= record.count else { throw corrupt("CDET", "the children of cluster \(id) hold more spots than it") }
        var spots: [Int] = []
        try forEachMember(of: record, from: inChildren, limit: record.count - inChildren) { (spot) throws(IndexError) in spots.append(spot) }
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

    private func requireClusterLevels() -> ClusterLevels {
        guard let clusterLevels else { preconditionFailure("the index has no cluster levels") }
        return clusterLevels
    }
}
