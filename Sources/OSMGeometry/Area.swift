import Spots

/// A polygon with holes, as a closed way or a multipolygon relation maps a place: outer rings and
/// inner rings (holes), each closed (its first point repeated last). Plane geometry on longitude
/// and latitude in fixed point, which is what a representative point and a containment test need
/// at the size of a place.
public struct Area: Sendable, Hashable {
    /// The outer rings.
    public let outers: [[Coordinate]]
    /// The inner rings: holes in the outers.
    public let inners: [[Coordinate]]
    /// The box around the outer rings.
    public let bounds: GeoBox

    /// An area of closed rings (at least one outer ring of at least four points); nil otherwise.
    public init?(outers: [[Coordinate]], inners: [[Coordinate]] = []) {
        let rings = outers + inners
        guard !outers.isEmpty, rings.allSatisfy({ $0.count >= 4 && $0.first == $0.last }),
            let bounds = GeoBox(enclosing: outers.joined())
        else { return nil }
        self.outers = outers
        self.inners = inners
        self.bounds = bounds
    }

    /// Whether `point` lies inside: within an odd number of rings (so in an outer ring and not in
    /// its holes), by crossings of a horizontal ray. Points on an edge may count either way.
    public func contains(_ point: Coordinate) -> Bool {
        guard bounds.contains(point) else { return false }
        let y = Double(point.latitudeE7)
        let x = Double(point.longitudeE7)
        var inside = false
        for ring in outers + inners {
            for (p, q) in zip(ring, ring.dropFirst()) where Self.crosses(p, q, y) && x < Self.crossing(p, q, y) {
                inside.toggle()
            }
        }
        return inside
    }

    /// The point a spot stands at: the centroid when it lies inside, otherwise `pointOnSurface`.
    public var representativePoint: Coordinate {
        if let centroid, contains(centroid) { return centroid }
        return pointOnSurface ?? outers[0][0]
    }

    /// The area-weighted centroid (holes subtract), rounded to fixed point; nil for an area of
    /// no size.
    public var centroid: Coordinate? {
        // Relative to one vertex, so that products stay exact in a Double.
        let origin = outers[0][0]
        var area = 0.0
        var momentX = 0.0
        var momentY = 0.0
        for (rings, sign) in [(outers, 1.0), (inners, -1.0)] {
            for ring in rings {
                var ringArea = 0.0
                var ringX = 0.0
                var ringY = 0.0
                for (p, q) in zip(ring, ring.dropFirst()) {
                    let px = (Double(p.longitudeE7) - Double(origin.longitudeE7))
                    let py = (Double(p.latitudeE7) - Double(origin.latitudeE7))
                    let qx = (Double(q.longitudeE7) - Double(origin.longitudeE7))
                    let qy = (Double(q.latitudeE7) - Double(origin.latitudeE7))
                    let cross = px * qy - qx * py
                    ringArea += cross
                    ringX += (px + qx) * cross
                    ringY += (py + qy) * cross
                }
                // Whatever the ring's orientation, outers add and inners subtract.
                let orientation = ringArea < 0 ? -sign : sign
                area += orientation * ringArea / 2
                momentX += orientation * ringX / 6
                momentY += orientation * ringY / 6
            }
        }
        guard area > 0 else { return nil }
        return Coordinate(
            latitudeE7: Int32(clamping: Int64((momentY / area).rounded()) + Int64(origin.latitudeE7)),
            longitudeE7: Int32(clamping: Int64((momentX / area).rounded()) + Int64(origin.longitudeE7)))
    }

    /// A point inside the area: on the horizontal line through the middle latitude of the
    /// largest outer ring, the midpoint of the widest stretch of that line inside the area.
    /// Deterministic, and inside whenever that stretch is wider than the fixed-point step; nil for
    /// an area with no height.
    public var pointOnSurface: Coordinate? {
        let largest = outers.max { Self.size($0) < Self.size($1) }!
        let latitudes = largest.map(\.latitudeE7)
        let middle = Int32((Int64(latitudes.min()!) + Int64(latitudes.max()!)) / 2)
        let y = Double(middle)
        var crossings: [Double] = []
        for ring in outers + inners {
            for (p, q) in zip(ring, ring.dropFirst()) where Self.crosses(p, q, y) {
                crossings.append(Self.crossing(p, q, y))
            }
        }
        crossings.sort()
        var widest: (start: Double, end: Double)?
        for pair in stride(from: 0, to: crossings.count - 1, by: 2) {
            let stretch = (start: crossings[pair], end: crossings[pair + 1])
            if stretch.end - stretch.start > (widest.map { $0.end - $0.start } ?? -1) { widest = stretch }
        }
        guard let widest else { return nil }
        return Coordinate(latitudeE7: middle, longitudeE7: Int32(((widest.start + widest.end) / 2).rounded()))
    }

    /// Whether edge p–q crosses the horizontal line at `y` (an end on the line counts as above
    /// it, so that a vertex on the line is crossed once or not at all).
    private static func crosses(_ p: Coordinate, _ q: Coordinate, _ y: Double) -> Bool {
        (Double(p.latitudeE7) > y) != (Double(q.latitudeE7) > y)
    }

    /// Where edge p–q, which crosses the line at `y`, meets it.
    private static func crossing(_ p: Coordinate, _ q: Coordinate, _ y: Double) -> Double {
        let px = Double(p.longitudeE7)
        let py = Double(p.latitudeE7)
        let qx = Double(q.longitudeE7)
        let qy = Double(q.latitudeE7)
        return px + (y - py) * (qx - px) / (qy - py)
    }

    /// The ring's unsigned area, in square fixed-point units.
    private static func size(_ ring: [Coordinate]) -> Double {
        let origin = ring[0]
        var sum = 0.0
        for (p, q) in zip(ring, ring.dropFirst()) {
            sum +=
                (Double(p.longitudeE7) - Double(origin.longitudeE7))
                * (Double(q.latitudeE7) - Double(origin.latitudeE7))
                - (Double(q.longitudeE7) - Double(origin.longitudeE7))
                * (Double(p.latitudeE7) - Double(origin.latitudeE7))
        }
        return abs(sum) / 2
    }
}

/// The point halfway along a line (an open way), by great-circle length; its first point when it
/// has no length.
public func halfwayPoint(of line: [Coordinate]) -> Coordinate {
    let lengths = zip(line, line.dropFirst()).map { $0.distance(to: $1) }
    var remaining = lengths.reduce(0, +) / 2
    for (index, length) in lengths.enumerated() where length > 0 {
        if remaining <= length {
            let p = line[index]
            let q = line[index + 1]
            let t = remaining / length
            return Coordinate(
                latitudeE7: Int32((Double(p.latitudeE7) + t * (Double(q.latitudeE7) - Double(p.latitudeE7))).rounded()),
                longitudeE7: Int32(
                    (Double(p.longitudeE7) + t * (Double(q.longitudeE7) - Double(p.longitudeE7))).rounded()))!
        }
        remaining -= length
    }
    return line[0]
}
