import Foundation
import SeededRandom
import SpotIndex
import SpotTestSupport
import Spots
import Testing

/// The packed trees read in place (TREE, and each zoom's tree in CTRE), against brute force over
/// the items' points.
@Suite("Packed tree view")
struct PackedTreeViewTests {
    /// Spots spread over the world (many at its edges) and bunched in towns.
    static func spots(_ count: Int, seed: UInt64) -> [Spot] {
        var factory = SpotFactory(seed: seed)
        return factory.uniqueSpots(count / 4) + townSpots(count - count / 4, seed: seed + 1)
    }

    /// A random box not crossing the antimeridian: a point, a town's size, a country's, or most
    /// of the world; often around one of `points`.
    static func randomBox(around points: [Coordinate], _ random: inout SplitMix64) -> GeoBox {
        let center =
            points.isEmpty || Bool.random(using: &random)
            ? Coordinate(
                latitudeE7: .random(in: -900_000_000...900_000_000, using: &random),
                longitudeE7: .random(in: -1_800_000_000...1_800_000_000, using: &random))!
            : points.randomElement(using: &random)!
        let span: Int64 = [0, 1_000, 300_000, 30_000_000, 1_000_000_000].randomElement(using: &random)!
        let (latitude, longitude) = (Int64(center.latitudeE7), Int64(center.longitudeE7))
        func edge(_ value: Int64, _ limit: Int64) -> Int32 { Int32(min(max(value, -limit), limit)) }
        return GeoBox(
            westE7: edge(longitude - Int64.random(in: 0...span, using: &random), 1_800_000_000),
            southE7: edge(latitude - Int64.random(in: 0...span, using: &random), 900_000_000),
            eastE7: edge(longitude + Int64.random(in: 0...span, using: &random), 1_800_000_000),
            northE7: edge(latitude + Int64.random(in: 0...span, using: &random), 900_000_000))
    }

    /// The items `leaves(meeting:)` gives, checking that they ascend, lie in `among` and come in leaves
    /// whose boxes meet `box`.
    static func searched(
        _ tree: PackedTreeView, _ box: GeoBox, among: Range<Int>? = nil,
        skipping skip: @escaping (Int) -> Bool = { _ in false }
    ) -> [Int] {
        var items: [Int] = []
        for leaf in tree.leaves(meeting: box, among: among, skipping: skip) {
            #expect(!leaf.isEmpty && leaf.lowerBound >= (items.last ?? -1) + 1, "items ascend, each once")
            #expect(among.map { $0.lowerBound <= leaf.lowerBound && leaf.upperBound <= $0.upperBound } ?? true)
            #expect(tree.box(level: 0, node: leaf.lowerBound / tree.nodeSize).intersects(box))
            items += leaf
        }
        return items
    }

    @Test(
        "a search gives every item whose point lies in the box, in order, in the leaves that meet it",
        arguments: [0, 1, 16, 17, 300, 2_000])
    func searchFindsEveryItem(count: Int) throws {
        let spots = Self.spots(count, seed: UInt64(count) + 1)
        try IndexStructureTests.withReader(spots) { reader in
            let points = try (0..<reader.count).map { try reader.coordinate(at: $0) }
            let tree = reader.tree
            #expect(tree.itemCount == count)
            var random = SplitMix64(seed: UInt64(count) + 2)
            var boxesWithItems = 0
            for _ in 0..<60 {
                let box = Self.randomBox(around: points, &random)
                let expected = points.indices.filter { box.contains(points[$0]) }
                boxesWithItems += expected.isEmpty ? 0 : 1
                #expect(Self.searched(tree, box).filter { box.contains(points[$0]) } == expected, "\(box)")
                let low = Int.random(in: 0...count, using: &random)
                let among = low..<Int.random(in: low...count, using: &random)
                let part = Self.searched(tree, box, among: among).filter { box.contains(points[$0]) }
                #expect(part == expected.filter(among.contains))
            }
            #expect(Self.searched(tree, .world) == Array(0..<count), "the world holds every item")
            #expect(count < 16 || boxesWithItems >= 15, "many boxes hold items")
        }
    }

    @Test("a search enters no box that the caller skips, and so gives no item under one")
    func searchSkipsBoxes() throws {
        let spots = Self.spots(1_500, seed: 41)
        try IndexStructureTests.withReader(spots) { reader in
            let tree = reader.tree
            let starts = tree.levelCounts.reduce(into: [0]) { $0.append($0.last! + $1) }
            var random = SplitMix64(seed: 42)
            for _ in 0..<30 {
                let skipped = Set((0..<tree.boxCount).filter { _ in Int.random(in: 0..<10, using: &random) == 0 })
                // An item is hidden when a box above it, on any level, is skipped.
                func hidden(_ item: Int) -> Bool {
                    var node = item
                    return tree.levelCounts.indices.contains { level in
                        node /= tree.nodeSize
                        return skipped.contains(starts[level] + node)
                    }
                }
                let found = Self.searched(tree, .world, skipping: skipped.contains)
                #expect(found == (0..<reader.count).filter { !hidden($0) })
            }
        }
    }

    @Test("each zoom's cluster tree finds the clusters made at it whose points lie in a box")
    func clusterTrees() throws {
        try withTemporaryFile(clusteredIndex(Self.spots(1_200, seed: 51))) { path in
            let reader = try SpotIndexReader(path: path)
            let levels = try #require(reader.clusterLevels)
            var random = SplitMix64(seed: 52)
            for zoom in 0...levels.settings.maxZoom {
                let ids = levels.clusters(madeAt: zoom)
                let tree = levels.tree(madeAt: zoom)
                #expect(tree.itemCount == ids.count)
                let points = try ids.map { try levels.coordinate(ofCluster: $0) }
                for _ in 0..<10 {
                    let box = Self.randomBox(around: points, &random)
                    let found = Self.searched(tree, box).filter { box.contains(points[$0]) }
                    #expect(found == points.indices.filter { box.contains(points[$0]) }, "zoom \(zoom), \(box)")
                }
            }
        }
    }

    /// The distances of the `limit` items nearest to `origin` among those in `region`, by the
    /// best-first walk, as a caller keeps them: a bounded list whose last distance prunes.
    static func nearest(
        _ tree: PackedTreeView, _ points: [Coordinate], to origin: Coordinate, limit: Int, region: GeoBox?
    ) -> [Double] {
        var best: [Double] = []
        var bound: Double { best.count == limit ? best[limit - 1] : .infinity }
        var previousLeafBound = 0.0
        tree.nearest(to: origin, in: region, within: .infinity) { leaf, distance in
            let leafBound = distance.minimum(to: tree.box(level: 0, node: leaf.lowerBound / tree.nodeSize))
            #expect(leafBound <= bound, "no leaf beyond the bound is visited")
            #expect(leafBound >= previousLeafBound - 1e-6, "leaves come nearest first")
            previousLeafBound = leafBound
            for item in leaf where region?.contains(points[item]) ?? true {
                let point = points[item]
                #expect(distance.alongMeridian(point.latitudeE7, point.latitudeE7) <= point.distance(to: origin))
                best.append(point.distance(to: origin))
                best.sort()
                if best.count > limit { best.removeLast() }
            }
            return bound
        }
        return best
    }

    @Test("a nearest walk gives the items a scan finds nearest, within a region too", arguments: [0, 1, 40, 2_000])
    func nearestFindsTheNearest(count: Int) throws {
        let spots = Self.spots(count, seed: UInt64(count) + 61)
        try IndexStructureTests.withReader(spots) { reader in
            let points = try (0..<reader.count).map { try reader.coordinate(at: $0) }
            var random = SplitMix64(seed: UInt64(count) + 62)
            for _ in 0..<60 {
                let origin = Self.randomBox(around: points, &random).center
                let limit = Int.random(in: 1...25, using: &random)
                let regions: [GeoBox?] = [
                    nil, Self.randomBox(around: points, &random), GeoBox(west: 170, south: -80, east: -170, north: 80),
                ]
                for region in regions {
                    let inside = points.filter { region?.contains($0) ?? true }
                    let expected = Array(inside.map { $0.distance(to: origin) }.sorted().prefix(limit))
                    let found = Self.nearest(reader.tree, points, to: origin, limit: limit, region: region)
                    #expect(found == expected, "from \(origin), \(limit), in \(String(describing: region))")
                }
            }
        }
    }
}
