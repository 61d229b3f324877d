import Spots

/// Clusters of spots for every zoom from `settings.maxZoom` down to 0, by the supercluster
/// method (Vladimir Agafonkin's supercluster, whose results this reproduces): the spots, in
/// the order given, are the level above the highest zoom; each zoom's level is a
/// `GreedyClustering` of the level above it at that zoom's radius, where the clusters made
/// stand for their members (weighted by their counts) and the rest carry on unchanged.
///
/// Clusters form a forest over the spots: a cluster's children are the clusters and spots it
/// took from the level above, and each cluster has at least two, so there are fewer clusters
/// than spots. A cluster made at zoom z is shown from the zoom after its parent was made (0
/// without a parent) up to z, and splits into its children at z + 1 (supercluster's expansion
/// zoom); a spot is shown as itself from the zoom after its parent cluster was made.
public struct ClusterHierarchy: Sendable {
    /// A child of a cluster.
    public enum Member: Hashable, Sendable {
        /// A spot, by its position in the coordinates given.
        case spot(Int)
        /// A cluster, by its position in `clusters`.
        case cluster(Int)
    }

    /// One cluster.
    public struct Cluster: Sendable {
        /// Its point: the centroid of its spots in Web Mercator.
        public let x, y: Double
        /// How many spots it holds.
        public let count: Int
        /// The zoom it was made at: the highest it is shown at.
        public let zoom: Int
        /// Where its children are listed in `children`.
        public let childRange: Range<Int>
    }

    /// The settings the clusters were made with.
    public let settings: ClusterSettings
    /// The clusters in the order they were made: zoom by zoom from the highest, each zoom's in
    /// the order of its level.
    public private(set) var clusters: [Cluster] = []
    /// The children of every cluster, cluster after cluster, each cluster's in level order.
    public private(set) var children: [Member] = []
    /// The parent cluster of each spot, or nil for a spot that no cluster holds.
    public private(set) var spotParents: [Int?]
    /// The parent cluster of each cluster, or nil for a cluster shown at zoom 0.
    public private(set) var clusterParents: [Int?] = []

    /// The clusters of `coordinates` (the spots, in a fixed order: the order is the greedy
    /// method's, so it decides which clusters form).
    public init(coordinates: [Coordinate], settings: ClusterSettings) {
        self.settings = settings
        spotParents = Array(repeating: nil, count: coordinates.count)
        var level = coordinates.enumerated().map {
            spot, coordinate -> (x: Double, y: Double, weight: Int, member: Member) in
            let point = WebMercator.point(coordinate)
            return (point.x, point.y, 1, .spot(spot))
        }
        for zoom in stride(from: settings.maxZoom, through: 0, by: -1) where level.count > 1 {
            let pass = GreedyClustering(
                xs: level.map(\.x), ys: level.map(\.y), weights: level.map(\.weight),
                radius: settings.radius(atZoom: zoom))
            var next: [(x: Double, y: Double, weight: Int, member: Member)] = []
            next.reserveCapacity(pass.groups.count)
            for group in pass.groups {
                guard group.memberRange.count > 1 else {
                    next.append(level[Int(pass.members[group.memberRange.lowerBound])])
                    continue
                }
                let cluster = clusters.count
                let start = children.count
                for member in pass.members[group.memberRange] {
                    let child = level[Int(member)].member
                    children.append(child)
                    switch child {
                    case .spot(let spot): spotParents[spot] = cluster
                    case .cluster(let inner): clusterParents[inner] = cluster
                    }
                }
                clusters.append(
                    Cluster(x: group.x, y: group.y, count: group.weight, zoom: zoom, childRange: start..<children.count)
                )
                clusterParents.append(nil)
                next.append((group.x, group.y, group.weight, .cluster(cluster)))
            }
            level = next
        }
    }

    /// The lowest zoom at which cluster `cluster` is shown: the zoom after its parent's, or 0.
    public func visibleFrom(cluster: Int) -> Int {
        clusterParents[cluster].map { clusters[$0].zoom + 1 } ?? 0
    }

    /// The lowest zoom at which spot `spot` is shown as itself: the zoom after its parent's, or 0.
    public func visibleFrom(spot: Int) -> Int {
        spotParents[spot].map { clusters[$0].zoom + 1 } ?? 0
    }
}
