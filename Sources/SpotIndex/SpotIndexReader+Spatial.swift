import Spots

/// A spot read from the index for a box: its number, kind number and coordinate.
public typealias SpotInBox = (spot: Int, kind: Int, coordinate: Coordinate)

/// The two ways to read the spots of a box. Both give the same spots in spot-number order, at
/// different costs; which to take is a query plan's choice (SpotSearch makes it).
///
/// The walk of the tree (TREE) skips boxes outside (and, at a zoom, boxes whose spots are all
/// in clusters there) and reads every spot of the leaves it reaches: its cost grows with the
/// box. The walk of the allowed kinds' lists (KLST) reads only spots of those kinds, wherever
/// they are, then sorts them: its cost grows with the filter. What a plan weighs: the tree's
/// `bounds` against the box, `count`, and the lengths of the kinds' lists (`kindList(ofKind:)`).
extension SpotIndexReader {
    /// The spots whose coordinates lie in `box` (edges included, not crossing the antimeridian),
    /// by a walk of the tree: only kinds that `kinds` allows (one flag per kind number) when
    /// given, only spots shown as themselves at `shownAt` (by the cluster levels) when given,
    /// and only spots numbered in `range` when given, so that disjoint ranges can be read on
    /// threads of their own. `expected` spots are made room for.
    public func spotsByTree(
        in box: GeoBox, kinds allowed: [Bool]? = nil, shownAt zoom: Int? = nil, among range: Range<Int>? = nil,
        expected: Int = 0
    ) throws(IndexError) -> [SpotInBox] {
        precondition(allowed.map { $0.count == kinds.count } ?? true, "one flag per kind")
        let levels = zoom.map { _ in requireClusterLevels() }
        let allowedKinds = allowed ?? [Bool](repeating: true, count: kinds.count)
        // Room for the spots of a leaf, grown to the largest leaf met: the node size is read from
        // the file, and a damaged one must not ask for gigabytes up front.
        var picks: [Int] = []
        var found: [SpotInBox] = []
        found.reserveCapacity(expected)
        // At a zoom, boxes whose spots are all in clusters there are skipped.
        let hiding = levels.flatMap { levels in zoom.map { (levels: levels, zoom: $0) } }
        let skipping = { (position: Int) in
            hiding.map { $0.levels.visibleFrom(treeBox: position) > $0.zoom } ?? false
        }
        // Spots in order; the kind (one load) is checked before the coordinate (two). The spots
        // of allowed kinds are picked without a branch on the kind, which a filter makes as good
        // as random. The tree's items are spot numbers: below the count. The records are read
        // through a local copy of their view, whose bounds then stay in registers.
        let spots = self.spots
        for leaf in tree.leaves(meeting: box, among: range, skipping: skipping) {
            if picks.count < leaf.count { picks = [Int](repeating: 0, count: leaf.count) }
            var picked = 0
            for spot in leaf {
                let kind = try spots.kindNumber(of: spot)
                picks[picked] = spot
                picked &+= allowedKinds[kind] ? 1 : 0
            }
            for spot in picks[..<picked] {
                let kind = spots.storedKindNumber(of: spot)
                guard let item = try shownSpot(spot, kind: kind, inside: box, levels: levels, zoom: zoom)
                else {
                    continue
                }
                found.append(item)
            }
        }
        return found
    }

    /// The spots that `spotsByTree` gives for the same arguments, by a walk of the lists of the
    /// kinds that `kinds` allows.
    public func spotsByKindLists(
        in box: GeoBox, kinds allowed: [Bool], shownAt zoom: Int? = nil, among range: Range<Int>? = nil
    ) throws(IndexError) -> [SpotInBox] {
        precondition(allowed.count == kinds.count, "one flag per kind")
        let levels = zoom.map { _ in requireClusterLevels() }
        let range = range ?? 0..<count
        var found: [SpotInBox] = []
        for kind in kinds.indices where allowed[kind] {
            var list = try kindList(ofKind: kind)
            while let rank = try list.next() {
                let spot = try spot(atRank: rank)
                guard range.contains(spot) else { continue }
                let stored = spots.storedKindNumber(of: spot)
                guard stored == kind else {
                    throw corrupt("KLST", "spot \(spot) is listed under kind \(kind) but has kind \(stored)")
                }
                guard let item = try shownSpot(spot, kind: kind, inside: box, levels: levels, zoom: zoom)
                else {
                    continue
                }
                found.append(item)
            }
        }
        found.sort { $0.spot < $1.spot }
        return found
    }

    /// Spot `spot` of kind `kind` with its coordinate when it lies in `box` and, with `levels`,
    /// is shown as itself at `zoom`; nil otherwise.
    @inline(__always)
    private func shownSpot(
        _ spot: Int, kind: Int, inside box: GeoBox, levels: ClusterLevels?, zoom: Int?
    ) throws(IndexError) -> SpotInBox? {
        let (latitude, longitude) = spots.storedPoint(of: spot)
        guard longitude >= box.westE7, longitude <= box.eastE7, latitude >= box.southE7, latitude <= box.northE7 else {
            return nil
        }
        if let levels, let zoom, try levels.visibleFrom(spot: spot) > zoom { return nil }
        guard let coordinate = Coordinate(latitudeE7: latitude, longitudeE7: longitude) else {
            throw spots.impossibleCoordinate(of: spot)
        }
        return (spot, kind, coordinate)
    }
}
