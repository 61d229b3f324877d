import SpotCluster
import Spots

/// The count, box and category counts of some spots of an index, added one by one: spots are
/// counted by kind, and kinds turned into categories once at the end.
public struct SpotTally {
    /// How many spots were added.
    public var count: Int { added }
    @usableFromInline var added = 0
    @usableFromInline var kindCounts: [Int]
    @usableFromInline var south = Int32.max, north = Int32.min, west = Int32.max, east = Int32.min

    /// An empty tally of spots of `index`.
    public init(_ index: SpotIndexReader) {
        kindCounts = [Int](repeating: 0, count: index.kinds.count)
    }

    /// Their box; nil before the first.
    public var boundingBox: BoundingBox? {
        guard count > 0, let southWest = Coordinate(latitudeE7: south, longitudeE7: west),
            let northEast = Coordinate(latitudeE7: north, longitudeE7: east)
        else { return nil }
        return BoundingBox(enclosing: [southWest, northEast])
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
    /// `shownAt` (by the cluster levels) when given, and only spots numbered in `range` when
    /// given: disjoint ranges can be read on threads of their own.
    ///
    /// Two walks give the same answer at different costs. The walk of TREE skips boxes outside
    /// (and, with `shownAt`, boxes whose spots are all in clusters at that zoom) and reads every
    /// spot of the leaves it reaches: its cost grows with the box. The walk of the allowed kinds'
    /// lists (KLST) reads only spots of those kinds, wherever they are, then sorts them: its cost
    /// grows with the filter. A whole-world box with a rare category is the case the lists are
    /// for; the tree's share of the box (by area) estimates how many spots the tree walk reads.
    public func spots(
        west: Int32, south: Int32, east: Int32, north: Int32, kinds allowed: [Bool]? = nil, shownAt zoom: Int? = nil,
        among range: Range<Int>? = nil
    ) throws(IndexError) -> [(spot: Int, kind: Int, coordinate: Coordinate)] {
        precondition(allowed.map { $0.count == kinds.count } ?? true, "one flag per kind")
        let box = (west: west, south: south, east: east, north: north)
        let range = range?.clamped(to: 0..<count) ?? 0..<count
        var estimate = estimatedSpots(west: west, south: south, east: east, north: north) * range.count / max(1, count)
        if let allowed {
            var listed = 0
            for kind in kinds.indices where allowed[kind] { listed += try kindList(ofKind: kind).remaining }
            // A spot from a list costs a rank, two reads at random places (REFS, then SPOT) and
            // a share of the sort: measured, about as much as 32 spots read in the tree's order,
            // which streams through SPOT. The lists hold spots of any number.
            if listed * 32 < estimate {
                return try spotsFromKindLists(inside: box, allowed: allowed, shownAt: zoom, among: range)
            }
            estimate = min(estimate, listed * range.count / max(1, count))
        }
        return try spotsFromTree(inside: box, allowed: allowed, shownAt: zoom, among: range, expected: estimate)
    }

    /// About how many spots lie in the box: the spots in proportion to the share of the root
    /// box's area that it covers.
    public func estimatedSpots(west: Int32, south: Int32, east: Int32, north: Int32) -> Int {
        let box = (west: west, south: south, east: east, north: north)
        guard let top = levelCounts.indices.last else { return 0 }
        let offset = levelCounts[..<top].reduce(0, +) * IndexLayout.boxSize
        let root = (west: boxes.load(offset) as Int32, south: boxes.load(offset + 4) as Int32,
                    east: boxes.load(offset + 8) as Int32, north: boxes.load(offset + 12) as Int32)
        func overlap(_ low: Int32, _ high: Int32, _ rootLow: Int32, _ rootHigh: Int32) -> Double {
            let span = Double(rootHigh) - Double(rootLow)
            guard span > 0 else { return low <= rootLow && high >= rootHigh ? 1 : 0 }
            return max(0, min(Double(high), Double(rootHigh)) - max(Double(low), Double(rootLow))) / span
        }
        let share = overlap(box.west, box.east, root.west, root.east) * overlap(box.south, box.north, root.south, root.north)
        return Int(share * Double(count))
    }

    private func spotsFromTree(
        inside box: (west: Int32, south: Int32, east: Int32, north: Int32), allowed: [Bool]?, shownAt zoom: Int?,
        among range: Range<Int>, expected: Int
    ) throws(IndexError) -> [(spot: Int, kind: Int, coordinate: Coordinate)] {
        guard let top = levelCounts.indices.last, !range.isEmpty else { return [] }
        let levels = zoom.map { _ in requireClusterLevels() }
        let levelStarts = levelCounts.reduce(into: [0]) { $0.append($0.last! + $1) }
        // The spots under one box of each level: box i of level k holds spots from i × spans[k].
        let spans = levelCounts.indices.reduce(into: [Int]()) { spans, _ in spans.append((spans.last ?? 1) * nodeSize) }
        let kindCount = kinds.count
        let allowedKinds = allowed ?? [Bool](repeating: true, count: kindCount)
        var picks = [Int](repeating: 0, count: nodeSize)
        var found: [(spot: Int, kind: Int, coordinate: Coordinate)] = []
        found.reserveCapacity(expected)
        // Depth first, children in order, so that spots come in spot order: a stack of boxes.
        var pending: [(level: Int, node: Int)] = [(top, 0)]
        while let (level, node) = pending.popLast() {
            let offset = (levelStarts[level] + node) * IndexLayout.boxSize
            let (boxWest, boxSouth): (Int32, Int32) = (boxes.load(offset), boxes.load(offset + 4))
            let (boxEast, boxNorth): (Int32, Int32) = (boxes.load(offset + 8), boxes.load(offset + 12))
            guard boxWest <= box.east, boxSouth <= box.north, boxEast >= box.west, boxNorth >= box.south else { continue }
            guard node * spans[level] < range.upperBound, (node + 1) * spans[level] > range.lowerBound else { continue }
            if let levels, let zoom, levels.visibleFrom(treeBox: node, level: level) > zoom { continue }
            let first = node * nodeSize
            guard level == 0 else {
                for child in (first..<min(first + nodeSize, levelCounts[level - 1])).reversed() { pending.append((level - 1, child)) }
                continue
            }
            // Spots in order; the kind (one load) is checked before the coordinate (two). The
            // spots of allowed kinds are picked without a branch on the kind, which a filter
            // makes as good as random.
            var picked = 0
            for spot in max(first, range.lowerBound)..<min(first + nodeSize, range.upperBound) {
                let kind = Int(spots.load(spot &* IndexLayout.spotRecordSize &+ 12) as UInt16)
                guard kind < kindCount else { throw corrupt("SPOT", "spot \(spot) has kind \(kind) of \(kindCount)") }
                picks[picked] = spot
                picked &+= allowedKinds[kind] ? 1 : 0
            }
            for spot in picks[..<picked] {
                let kind = Int(spots.load(spot &* IndexLayout.spotRecordSize &+ 12) as UInt16)
                if let item = try shownSpot(spot, kind: kind, inside: box, levels: levels, zoom: zoom) { found.append(item) }
            }
        }
        return found
    }

    private func spotsFromKindLists(
        inside box: (west: Int32, south: Int32, east: Int32, north: Int32), allowed: [Bool], shownAt zoom: Int?,
        among range: Range<Int>
    ) throws(IndexError) -> [(spot: Int, kind: Int, coordinate: Coordinate)] {
        let levels = zoom.map { _ in requireClusterLevels() }
        var found: [(spot: Int, kind: Int, coordinate: Coordinate)] = []
        for kind in kinds.indices where allowed[kind] {
            var list = try kindList(ofKind: kind)
            while let rank = try list.next() {
                let spot = try spot(atRank: rank)
                guard range.contains(spot) else { continue }
                let stored = Int(spots.load(spot &* IndexLayout.spotRecordSize &+ 12) as UInt16)
                guard stored == kind else { throw corrupt("KLST", "spot \(spot) is listed under kind \(kind) but has kind \(stored)") }
                if let item = try shownSpot(spot, kind: kind, inside: box, levels: levels, zoom: zoom) { found.append(item) }
            }
        }
        found.sort { $0.spot < $1.spot }
        return found
    }

    /// Spot `spot` of kind `kind` with its coordinate when it lies in `box` and, with `levels`,
    /// is shown as itself at `zoom`; nil otherwise.
    @inline(__always)
    private func shownSpot(
        _ spot: Int, kind: Int, inside box: (west: Int32, south: Int32, east: Int32, north: Int32), levels: ClusterLevels?, zoom: Int?
    ) throws(IndexError) -> (spot: Int, kind: Int, coordinate: Coordinate)? {
        let record = spot &* IndexLayout.spotRecordSize
        let (latitude, longitude): (Int32, Int32) = (spots.load(record), spots.load(record &+ 4))
        guard longitude >= box.west, longitude <= box.east, latitude >= box.south, latitude <= box.north else { return nil }
        if let levels, let zoom, try levels.visibleFrom(spot: spot) > zoom { return nil }
        guard let coordinate = Coordinate(latitudeE7: latitude, longitudeE7: longitude) else {
            throw corrupt("SPOT", "spot \(spot) has an impossible coordinate")
        }
        return (spot, kind, coordinate)
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
