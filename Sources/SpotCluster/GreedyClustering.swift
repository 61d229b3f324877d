/// One level of the supercluster method: weighted points visited in order; each point not yet
/// taken takes every point not yet taken within the radius (itself included), and when it took
/// any other, they become one group at their weighted centroid; otherwise it stays alone.
///
/// Distances are Euclidean in Web Mercator, edges included (supercluster's `within`). A group's
/// members are listed in point order, its first member first, and the centroid sums them in
/// that order, so equal inputs give equal centroids to the last bit. Groups come in the order
/// of their first members: the order supercluster gives the next level.
public struct GreedyClustering: Sendable {
    /// A group of points: a cluster, or a point left alone.
    public struct Group: Sendable {
        /// The weighted centroid (Web Mercator).
        public let x, y: Double
        /// The sum of the members' weights.
        public let weight: Int
        /// Where the members are listed in `members`.
        public let memberRange: Range<Int>
        /// The greatest distance (Web Mercator) from the first member to another member: 0 for
        /// a point left alone.
        public let spread: Double
    }

    /// The groups, in the order of their first members.
    public private(set) var groups: [Group] = []
    /// The members of every group, point numbers, group after group.
    public private(set) var members: [Int32] = []

    /// Groups the points (`xs[i]`, `ys[i]`) of weights `weights[i]` within `radius`; without
    /// weights, every point weighs 1 (spots).
    public init(xs: [Double], ys: [Double], weights: [Int]? = nil, radius: Double) {
        precondition(xs.count == ys.count && xs.count == weights?.count ?? xs.count, "one x, y and weight per point")
        func weight(_ point: Int) -> Int { weights?[point] ?? 1 }
        var grid = NeighbourGrid(xs: xs, ys: ys, side: radius)
        let squaredRadius = radius * radius
        var taken = [Bool](repeating: false, count: xs.count)
        var neighbours: [Int32] = []
        groups.reserveCapacity(xs.count)
        members.reserveCapacity(xs.count)
        for seed in xs.indices where !taken[seed] {
            taken[seed] = true
            let (x, y) = (xs[seed], ys[seed])
            var farthest = 0.0
            neighbours.removeAll(keepingCapacity: true)
            grid.forEachCandidate(nearX: x, y: y, wanted: { !taken[$0] }) { point in
                let dx = xs[point] - x
                let dy = ys[point] - y
                let squared = dx * dx + dy * dy
                guard squared <= squaredRadius else { return }
                neighbours.append(Int32(point))
                farthest = max(farthest, squared)
            }
            let start = members.count
            members.append(Int32(seed))
            guard !neighbours.isEmpty else {
                groups.append(Group(x: x, y: y, weight: weight(seed), memberRange: start..<start + 1, spread: 0))
                continue
            }
            neighbours.sort()
            var total = weight(seed)
            var (sumX, sumY) = (x * Double(total), y * Double(total))
            for neighbour in neighbours {
                let point = Int(neighbour)
                taken[point] = true
                total += weight(point)
                sumX += xs[point] * Double(weight(point))
                sumY += ys[point] * Double(weight(point))
            }
            members += neighbours
            groups.append(
                Group(
                    x: sumX / Double(total), y: sumY / Double(total), weight: total, memberRange: start..<members.count,
                    spread: farthest.squareRoot()))
        }
    }
}
