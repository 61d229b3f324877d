import SpotCluster
import Spots

/// What to cluster: the map an app shows, as a region and a zoom, and optionally a category
/// filter.
public struct ClusterRequest: Sendable, Equatable {
    /// The region shown (which may cross the antimeridian); clusters and spots whose points
    /// lie in it are returned.
    public var region: GeoBox
    /// The map's zoom (0 shows the world in one 512-pixel tile, each zoom doubles the scale).
    public var zoom: Int
    /// Only spots of these categories (or all but these), clustered at query time.
    public var pointOfInterestFilter: PointOfInterestFilter?

    /// A request for `region` at `zoom`, of the spots `pointOfInterestFilter` keeps.
    public init(region: GeoBox, zoom: Int, pointOfInterestFilter: PointOfInterestFilter? = nil) {
        self.region = region
        self.zoom = zoom
        self.pointOfInterestFilter = pointOfInterestFilter
    }
}

/// What a map shows at a zoom: a cluster, or a spot on its own.
public enum ClusterItem: Equatable, Sendable {
    /// A cluster of two or more spots.
    case cluster(MapCluster)
    /// A spot shown as itself, by its number in the index.
    case spot(Int)
}
