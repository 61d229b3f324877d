/// How spots are clustered: supercluster's options, with its defaults for 512-pixel tiles.
///
/// A cluster's radius is given in screen pixels; at zoom z the world is `extent × 2^z` pixels
/// wide, so in Web Mercator units (the world is 1 wide) the radius is `radius / (extent × 2^z)`.
public struct ClusterSettings: Equatable, Sendable {
    /// The highest zoom that has clusters; above it every spot is shown as itself.
    public var maxZoom: Int
    /// The cluster radius in pixels.
    public var radius: Double
    /// The tile size in pixels that `radius` is measured against.
    public var extent: Double

    /// The zooms a maximum zoom may take: a spot's visibility is stored in a byte, and at zoom 24
    /// a pixel is about as wide as the 1 cm that a coordinate's last digit stands for.
    public static let maxZoomRange = 0...24
    /// The radii a pipeline accepts, in pixels.
    public static let radiusRange = 1.0...1024.0
    /// The tile sizes a pipeline accepts, in pixels.
    public static let extentRange = 64.0...8192.0

    /// supercluster's defaults for 512-pixel tiles: zooms 0 to 16, a 60-pixel radius.
    public static let standard = ClusterSettings(maxZoom: 16, radius: 60, extent: 512)

    /// Settings with the given values, each within its range.
    public init(maxZoom: Int, radius: Double, extent: Double) {
        precondition(
            Self.maxZoomRange.contains(maxZoom) && Self.radiusRange.contains(radius)
                && Self.extentRange.contains(extent), "cluster settings out of range")
        self.maxZoom = maxZoom
        self.radius = radius
        self.extent = extent
    }

    /// The cluster radius at `zoom` in Web Mercator units.
    public func radius(atZoom zoom: Int) -> Double {
        radius / (extent * Double(1 << zoom))
    }

    /// The lowest zoom above `zoom` whose radius is shorter than `spread`: where a group whose
    /// members lie up to `spread` from its first member stops being one cluster when clustered
    /// alone from that member. `maxZoom + 1` when no clustered zoom is fine enough.
    public func splitZoom(spread: Double, above zoom: Int) -> Int {
        var split = zoom + 1
        while split <= maxZoom && radius(atZoom: split) >= spread { split += 1 }
        return split
    }
}
