import Foundation
import SeededRandom
import SpotCluster
import Spots
import Testing

/// supercluster's `load` written again the plain way, from its JavaScript: every zoom from the
/// highest down, each item not yet taken takes every item not yet taken within the radius
/// (found by comparing with all of them), and forms a cluster at the weighted centroid when it
/// took any. Quadratic, for small inputs.
struct ReferenceSupercluster {
    struct Cluster: Equatable {
        var x, y: Double
        var count: Int
        var zoom: Int
        var children: [ClusterHierarchy.Member]
    }

    var clusters: [Cluster] = []

    init(_ coordinates: [Coordinate], maxZoom: Int, radius: Double, extent: Double) {
        // supercluster's lngX and latY.
        func lngX(_ lng: Double) -> Double { lng / 360 + 0.5 }
        func latY(_ lat: Double) -> Double {
            let sine = sin(lat * Double.pi / 180)
            let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / Double.pi
            return y < 0 ? 0 : y > 1 ? 1 : y
        }
        var level: [(x: Double, y: Double, count: Int, member: ClusterHierarchy.Member)] = coordinates.enumerated().map
        {
            (lngX($1.longitude), latY($1.latitude), 1, .spot($0))
        }
        for zoom in stride(from: maxZoom, through: 0, by: -1) {
            let r = radius / (extent * pow(2, Double(zoom)))
            var taken = [Bool](repeating: false, count: level.count)
            var next: [(x: Double, y: Double, count: Int, member: ClusterHierarchy.Member)] = []
            for seed in level.indices where !taken[seed] {
                taken[seed] = true
                let neighbours = level.indices.filter { other in
                    let dx = level[other].x - level[seed].x
                    let dy = level[other].y - level[seed].y
                    return !taken[other] && dx * dx + dy * dy <= r * r
                }
                guard !neighbours.isEmpty else {
                    next.append(level[seed])
                    continue
                }
                var (wx, wy, count) = (
                    level[seed].x * Double(level[seed].count), level[seed].y * Double(level[seed].count),
                    level[seed].count
                )
                for other in neighbours {
                    taken[other] = true
                    wx += level[other].x * Double(level[other].count)
                    wy += level[other].y * Double(level[other].count)
                    count += level[other].count
                }
                clusters.append(
                    Cluster(
                        x: wx / Double(count), y: wy / Double(count), count: count, zoom: zoom,
                        children: [level[seed].member] + neighbours.map { level[$0].member }))
                next.append((wx / Double(count), wy / Double(count), count, .cluster(clusters.count - 1)))
            }
            level = next
        }
    }
}

/// Random spots: towns of crowded spots, some exactly on top of each other, and spots scattered
/// far apart, near the poles and the antimeridian too.
func randomCoordinates(_ count: Int, using random: inout SplitMix64) -> [Coordinate] {
    let towns = (0..<Int.random(in: 1...5, using: &random)).map { _ in
        (
            Int32.random(in: -850_000_000...850_000_000, using: &random),
            Int32.random(in: -1_790_000_000...1_790_000_000, using: &random)
        )
    }
    var coordinates: [Coordinate] = []
    while coordinates.count < count {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            coordinates.append(
                Coordinate(
                    latitudeE7: Int32.random(in: -900_000_000...900_000_000, using: &random),
                    longitudeE7: Int32.random(in: -1_800_000_000...1_800_000_000, using: &random))!)
        case 1 where !coordinates.isEmpty:
            coordinates.append(coordinates.randomElement(using: &random)!)
        default:
            let town = towns.randomElement(using: &random)!
            let spread: Int32 = [1_000, 50_000, 2_000_000, 50_000_000].randomElement(using: &random)!
            coordinates.append(
                Coordinate(
                    latitudeE7: min(
                        900_000_000, max(-900_000_000, town.0 + Int32.random(in: -spread...spread, using: &random))),
                    longitudeE7: min(
                        1_800_000_000, max(-1_800_000_000, town.1 + Int32.random(in: -spread...spread, using: &random)))
                )!)
        }
    }
    return coordinates
}

@Suite("Supercluster against a plain reference")
struct ReferenceTests {
    @Test("the hierarchy equals supercluster's, cluster for cluster, to the last bit", arguments: 0..<24)
    func matchesReference(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let coordinates = randomCoordinates(Int.random(in: 0...400, using: &random), using: &random)
        let settings = ClusterSettings(
            maxZoom: [0, 5, 16, 20].randomElement(using: &random)!,
            radius: [1, 40, 60, 200].randomElement(using: &random)!,
            extent: [256, 512, 4096].randomElement(using: &random)!)
        let hierarchy = ClusterHierarchy(coordinates: coordinates, settings: settings)
        let reference = ReferenceSupercluster(
            coordinates, maxZoom: settings.maxZoom, radius: settings.radius, extent: settings.extent)
        #expect(hierarchy.clusters.count == reference.clusters.count)
        for (cluster, expected) in zip(hierarchy.clusters, reference.clusters) {
            let made = ReferenceSupercluster.Cluster(
                x: cluster.x, y: cluster.y, count: cluster.count, zoom: cluster.zoom,
                children: Array(hierarchy.children[cluster.childRange]))
            #expect(made == expected)
        }
    }

    @Test("every spot is in one chain of clusters, whose counts and shown zooms fit together", arguments: 0..<8)
    func forestInvariants(seed: Int) {
        var random = SplitMix64(seed: UInt64(100 + seed))
        let coordinates = randomCoordinates(2_000, using: &random)
        let hierarchy = ClusterHierarchy(coordinates: coordinates, settings: .standard)
        var spotsSeen = [Int](repeating: 0, count: coordinates.count)
        for (index, cluster) in hierarchy.clusters.enumerated() {
            let children = hierarchy.children[cluster.childRange]
            #expect(children.count >= 2)
            var count = 0
            for child in children {
                switch child {
                case .spot(let spot):
                    spotsSeen[spot] += 1
                    count += 1
                    #expect(hierarchy.spotParents[spot] == index)
                case .cluster(let inner):
                    count += hierarchy.clusters[inner].count
                    #expect(hierarchy.clusterParents[inner] == index)
                    #expect(hierarchy.clusters[inner].zoom > cluster.zoom)
                    #expect(hierarchy.visibleFrom(cluster: inner) == cluster.zoom + 1)
                }
            }
            #expect(count == cluster.count)
            #expect(hierarchy.visibleFrom(cluster: index) <= cluster.zoom)
        }
        #expect(spotsSeen.allSatisfy { $0 <= 1 })
        for spot in coordinates.indices where spotsSeen[spot] == 0 { #expect(hierarchy.visibleFrom(spot: spot) == 0) }
        #expect(hierarchy.clusters.count < max(1, coordinates.count))
    }
}
