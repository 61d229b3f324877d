import Dispatch
import SpotCluster
import SpotIndex
import Spots

/// Pin clusters for a map: what supercluster's `getClusters`, `getChildren` and `getLeaves`
/// answer, over a loaded index.
///
/// Without a category filter the index's cluster levels answer: a range search of the trees of
/// the clusters shown at the zoom and of the spots shown as themselves, so a viewport costs
/// about as much as the pins it returns. With a filter, or over an index built without cluster
/// levels, the spots of the viewport (widened by two cluster radii, so that clusters at its
/// edges see their neighbours) are clustered at query time, in one greedy pass at the zoom's
/// radius (`GreedyClustering`): a pass per zoom from the maximum down, as the build does, would
/// cost a dozen times more. Such clusters have no id; their expansion zoom is where they would
/// split if clustered alone from their first spot. A viewport of many spots (a low zoom) is read
/// and projected on two threads, each over half of the spots' numbers; the greedy pass, which
/// visits them in order, stays on one.
extension SpotSearch {
    /// The settings clusters are made with: the index's, or supercluster's defaults for an index
    /// without cluster levels.
    public var clusterSettings: ClusterSettings {
        index.clusterLevels?.settings ?? .standard
    }

    /// The clusters and single spots shown at `request.zoom` whose points lie in
    /// `request.region`: clusters first, then spots, each in index order. Every spot the filter
    /// keeps is counted once over the whole world; above the maximum zoom every spot is single.
    /// Address points are in no cluster, and shown only above the maximum zoom.
    public func clusters(_ request: ClusterRequest) throws -> [ClusterItem] {
        guard request.zoom >= 0 else { throw SearchError(description: "zoom must not be negative") }
        let filter = request.pointOfInterestFilter.map { filter in index.kinds.map { filter.allows($0.category) } }
        let boxes = request.region.splitAtAntimeridian()
        if request.zoom > clusterSettings.maxZoom {
            return try boxes.flatMap { try spotsInside($0, kinds: filter) }.map(\.spot).sorted().map(ClusterItem.spot)
        }
        if let levels = index.clusterLevels, filter == nil {
            return try precomputedClusters(levels, boxes: boxes, zoom: request.zoom)
        }
        // Clusters are of places: address points are shown only above the maximum zoom.
        let places =
            index.kinds.contains { $0.resultType == .address }
            ? index.kinds.indices.map { index.kinds[$0].resultType != .address && (filter?[$0] ?? true) } : filter
        return try queryTimeClusters(boxes: boxes, region: request.region, zoom: request.zoom, allowedKinds: places)
    }

    /// The clusters and spots cluster `id` splits into at its expansion zoom.
    public func children(ofCluster id: Int) throws -> [ClusterItem] {
        try requireCluster(id)
        let children = try index.children(ofCluster: id)
        return try children.clusters.map { .cluster(try index.cluster($0)) } + children.spots.map(ClusterItem.spot)
    }

    /// The spots of cluster `id`, at most `limit` from the `offset`-th, in a fixed order (child
    /// cluster by child cluster, depth first, then its own spots): pages of leaves.
    public func leaves(ofCluster id: Int, limit: Int, offset: Int) throws -> [Int] {
        guard limit >= 0, offset >= 0 else { throw SearchError(description: "limit and offset must not be negative") }
        try requireCluster(id)
        return try index.leaves(ofCluster: id, limit: limit, offset: offset)
    }

    /// Cluster `id` of the index, with its count, categories, box and expansion zoom.
    public func cluster(_ id: Int) throws -> MapCluster {
        try requireCluster(id)
        return try index.cluster(id)
    }

    private func requireCluster(_ id: Int) throws {
        guard let levels = index.clusterLevels else {
            throw SearchError(
                description: "the index has no cluster levels (built with clusters disabled), so no cluster ids")
        }
        guard id >= 0, id < levels.count else {
            throw SearchError(description: "no cluster \(id): the index has clusters 0 to \(levels.count - 1)")
        }
    }

    // MARK: Precomputed

    private func precomputedClusters(_ levels: ClusterLevels, boxes: [GeoBox], zoom: Int) throws -> [ClusterItem] {
        var clusters: [Int] = []
        var singles: [Int] = []
        for box in boxes {
            try levels.forEachCluster(shownAt: zoom, in: box) { clusters.append($0) }
            singles += try spotsInside(box, shownAt: zoom).map(\.spot)
        }
        return try clusters.sorted().map { .cluster(try index.cluster($0)) } + singles.sorted().map(ClusterItem.spot)
    }

    // MARK: Query time

    private func queryTimeClusters(
        boxes: [GeoBox], region: GeoBox, zoom: Int, allowedKinds: [Bool]?
    ) throws -> [ClusterItem] {
        let settings = clusterSettings
        let radius = settings.radius(atZoom: zoom)
        var candidates = try spotsInside(boxes[0].widened(byMercator: 2 * radius), kinds: allowedKinds, inHalves: true)
        if boxes.count > 1 {
            // The widened parts of a box that crosses the antimeridian may overlap.
            var seen = Set(candidates.map(\.spot))
            candidates += try spotsInside(boxes[1].widened(byMercator: 2 * radius), kinds: allowedKinds, inHalves: true)
                .filter { seen.insert($0.spot).inserted }
            candidates.sort { $0.spot < $1.spot }
        }
        var xs = [Double](repeating: 0, count: candidates.count)
        var ys = [Double](repeating: 0, count: candidates.count)
        xs.withUnsafeMutableBufferPointer { xs in
            ys.withUnsafeMutableBufferPointer { ys in
                let (xs, ys, read) = (SharedBuffer(xs), SharedBuffer(ys), candidates)
                Self.inHalves(ofCount: read.count, parallel: read.count >= Self.spotsWorthTwoThreads) { _, half in
                    for candidate in half {
                        (xs.elements[candidate], ys.elements[candidate]) = WebMercator.point(read[candidate].coordinate)
                    }
                }
            }
        }
        let groups = GreedyClustering(xs: xs, ys: ys, radius: radius)
        var clusters: [ClusterItem] = []
        var singles: [Int] = []
        for group in groups.groups {
            guard group.memberRange.count > 1 else {
                let single = candidates[Int(groups.members[group.memberRange.lowerBound])]
                if region.contains(single.coordinate) { singles.append(single.spot) }
                continue
            }
            var tally = SpotTally(index)
            for member in groups.members[group.memberRange] {
                tally.add(candidates[Int(member)].coordinate, kind: candidates[Int(member)].kind)
            }
            // A group of more than one member has a box.
            let box = tally.boundingBox!
            let point = Coordinate(
                latitudeE7: min(box.northE7, max(box.southE7, WebMercator.latitudeE7(y: group.y))),
                longitudeE7: min(box.eastE7, max(box.westE7, WebMercator.longitudeE7(x: group.x))))!
            guard region.contains(point) else { continue }
            clusters.append(
                .cluster(
                    MapCluster(
                        id: nil, coordinate: point, count: tally.count, categories: tally.categories(index),
                        boundingBox: box,
                        expansionZoom: settings.splitZoom(spread: group.spread, above: zoom))))
        }
        return clusters + singles.sorted().map(ClusterItem.spot)
    }

    /// The spots in `box` that `kinds` allows and that are shown as themselves at `shownAt`; read
    /// on two threads when `inHalves` and the box holds many spots.
    private func spotsInside(
        _ box: GeoBox, kinds: [Bool]? = nil, shownAt zoom: Int? = nil, inHalves: Bool = false
    ) throws -> [SpotInBox] {
        let estimate = BoxPlan.estimatedSpots(in: box, of: index)
        var found: [Result<[SpotInBox], IndexError>] = [.success([]), .success([])]
        found.withUnsafeMutableBufferPointer { found in
            let found = SharedBuffer(found)
            Self.inHalves(ofCount: index.count, parallel: inHalves && estimate >= Self.spotsWorthTwoThreads) {
                number, half in
                found.elements[number] = Result { () throws(IndexError) in
                    try self.spots(in: box, kinds: kinds, shownAt: zoom, among: half)
                }
            }
        }
        return try found[0].get() + found[1].get()
    }

    /// Spots in a viewport from which reading and projecting them on a second thread pays: two
    /// threads start in tens of microseconds, while 20,000 spots take about a millisecond.
    static let spotsWorthTwoThreads = 20_000

    /// Calls `body` with 0 and the first half of `0..<count`, and with 1 and the second: at the
    /// same time on two threads when `parallel`, else in turn on this one.
    private static func inHalves(ofCount count: Int, parallel: Bool, _ body: @Sendable (Int, Range<Int>) -> Void) {
        let halves = [0..<count / 2, count / 2..<count]
        if parallel {
            DispatchQueue.concurrentPerform(iterations: 2) { body($0, halves[$0]) }
        } else {
            for number in halves.indices { body(number, halves[number]) }
        }
    }
}

/// A buffer that two threads write at once, each thread elements of its own.
private struct SharedBuffer<Element>: @unchecked Sendable {
    let elements: UnsafeMutableBufferPointer<Element>

    init(_ elements: UnsafeMutableBufferPointer<Element>) {
        self.elements = elements
    }
}

extension GeoBox {
    /// The box (not crossing the antimeridian) widened by `margin` Web Mercator units on every
    /// side, to the poles where the projection's edge (±85.05°) is reached.
    fileprivate func widened(byMercator margin: Double) -> GeoBox {
        let left = WebMercator.x(longitudeE7: westE7) - margin
        let right = WebMercator.x(longitudeE7: eastE7) + margin
        let top = WebMercator.y(latitudeE7: northE7) - margin
        let bottom = WebMercator.y(latitudeE7: southE7) + margin
        return GeoBox(
            westE7: left <= 0 ? GeoBox.world.westE7 : min(westE7, WebMercator.longitudeE7(x: left)),
            southE7: bottom >= 1 ? GeoBox.world.southE7 : min(southE7, WebMercator.latitudeE7(y: bottom)),
            eastE7: right >= 1 ? GeoBox.world.eastE7 : max(eastE7, WebMercator.longitudeE7(x: right)),
            northE7: top <= 0 ? GeoBox.world.northE7 : max(northE7, WebMercator.latitudeE7(y: top)))
    }
}
