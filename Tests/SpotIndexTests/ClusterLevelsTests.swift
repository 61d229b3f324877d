import Foundation
import SeededRandom
import SpotCluster
import SpotIndex
import SpotIndexWriting
import SpotTestSupport
import Spots
import Testing

/// Random spots crowded into a few towns (so that clusters of every size form, above and below
/// the detail threshold), with a few far apart.
func townSpots(_ count: Int, seed: UInt64) -> [Spot] {
    var factory = SpotFactory(seed: seed)
    let towns: [(Int32, Int32)] = [
        (601_700_000, 249_400_000), (348_390_000, 1_346_940_000), (-338_600_000, 1_512_000_000),
    ]
    return factory.uniqueSpots(count).map { spot in
        var spot = spot
        let town = towns[factory.int(0...towns.count - 1)]
        let spread = Int32([300, 3_000, 30_000, 3_000_000].randomElement(using: &factory.random)!)
        spot.coordinate =
            factory.chance(95)
            ? Coordinate(
                latitudeE7: town.0 + Int32.random(in: -spread...spread, using: &factory.random),
                longitudeE7: town.1 + Int32.random(in: -spread...spread, using: &factory.random))!
            : factory.coordinate()
        return spot
    }
}

/// An index of `spots` with cluster levels made with `settings`.
func clusteredIndex(_ spots: [Spot], settings: ClusterSettings = .standard) -> [UInt8] {
    SpotIndexWriter.encode(spots, metadata: RoundTripTests.emptyMetadata, clusters: settings)
}

extension SpotIndexReader {
    /// Every spot of cluster `id`, read a page of 7 at a time.
    func allLeaves(ofCluster id: Int) throws -> [Int] {
        var leaves: [Int] = []
        while true {
            let page = try self.leaves(ofCluster: id, limit: 7, offset: leaves.count)
            leaves += page
            if page.count < 7 { return leaves }
        }
    }

    /// The clusters and spots shown at `zoom` over the whole world.
    func shown(atZoom zoom: Int) throws -> (clusters: [Int], spots: [Int]) {
        let levels = try #require(clusterLevels)
        var clusters: [Int] = []
        try levels.forEachCluster(shownAt: zoom, in: .world) { (id) throws(IndexError) in clusters.append(id) }
        let spots = try spotsByTree(in: .world, shownAt: zoom).map(\.spot)
        return (clusters, spots)
    }
}

@Suite("Cluster levels in the index")
struct ClusterLevelsTests {
    @Test(
        "the levels hold supercluster's clusters of the spots in SPOT order: each once, with its zoom, spots and shown zooms",
        arguments: [1, 2, 3] as [UInt64])
    func holdsTheHierarchy(seed: UInt64) throws {
        let settings = ClusterSettings(maxZoom: [16, 12, 20][Int(seed) - 1], radius: 60, extent: 512)
        try withTemporaryFile(clusteredIndex(townSpots(600, seed: seed), settings: settings)) { path in
            let reader = try SpotIndexReader(path: path)
            let levels = try #require(reader.clusterLevels)
            #expect(levels.settings == settings)
            let coordinates = try (0..<reader.count).map { try reader.coordinate(at: $0) }
            let hierarchy = ClusterHierarchy(coordinates: coordinates, settings: settings)
            func spots(of member: ClusterHierarchy.Member) -> [Int] {
                switch member {
                case .spot(let spot): [spot]
                case .cluster(let cluster): hierarchy.children[hierarchy.clusters[cluster].childRange].flatMap(spots)
                }
            }
            struct Key: Hashable { var zoom: Int, spots: [Int] }
            var expected: [Key: (visibleFrom: Int, point: (x: Double, y: Double))] = [:]
            for (index, cluster) in hierarchy.clusters.enumerated() {
                expected[Key(zoom: cluster.zoom, spots: spots(of: .cluster(index)).sorted())] = (
                    hierarchy.visibleFrom(cluster: index), (cluster.x, cluster.y)
                )
            }
            #expect(levels.count == hierarchy.clusters.count)
            #expect(levels.count > 20)
            for id in 0..<levels.count {
                let zoom = levels.zoom(ofCluster: id)
                let leaves = try reader.allLeaves(ofCluster: id)
                let want = try #require(expected[Key(zoom: zoom, spots: leaves.sorted())], "cluster \(id)")
                #expect(try levels.visibleFrom(cluster: id) == want.visibleFrom)
                let cluster = try reader.cluster(id)
                #expect(cluster.id == id)
                #expect(cluster.count == leaves.count)
                #expect(cluster.expansionZoom == zoom + 1)
                // The point is the centroid, rounded, within the box of the spots.
                let box = cluster.boundingBox
                #expect(box.contains(cluster.coordinate))
                if abs(cluster.coordinate.latitude) < 85 {
                    #expect(abs(Int(cluster.coordinate.latitudeE7) - Int(WebMercator.latitudeE7(y: want.point.y))) <= 1)
                    #expect(
                        abs(Int(cluster.coordinate.longitudeE7) - Int(WebMercator.longitudeE7(x: want.point.x))) <= 1)
                }
            }
            for spot in 0..<reader.count {
                #expect(try levels.visibleFrom(spot: spot) == hierarchy.visibleFrom(spot: spot))
            }
            #expect(levels.memberCount == hierarchy.spotParents.filter { $0 != nil }.count)
        }
    }

    @Test("at every zoom, over the whole world, the clusters and spots shown hold every spot exactly once")
    func everySpotOnce() throws {
        try withTemporaryFile(clusteredIndex(townSpots(700, seed: 7))) { path in
            let reader = try SpotIndexReader(path: path)
            for zoom in 0...18 {
                let shown = try reader.shown(atZoom: zoom)
                var seen = [Int](repeating: 0, count: reader.count)
                for id in shown.clusters { for spot in try reader.allLeaves(ofCluster: id) { seen[spot] += 1 } }
                for spot in shown.spots { seen[spot] += 1 }
                #expect(seen.allSatisfy { $0 == 1 }, "zoom \(zoom)")
                if zoom > 16 { #expect(shown.clusters.isEmpty && shown.spots.count == reader.count) }
            }
        }
    }

    @Test("the spots of a box, filtered by kind, zoom and number, are those a scan finds, by either walk")
    func spotsOfABox() throws {
        try withTemporaryFile(clusteredIndex(townSpots(700, seed: 11))) { path in
            let reader = try SpotIndexReader(path: path)
            let boxes = [
                GeoBox.world,
                GeoBox(west: 24, south: 59, east: 26, north: 61)!,  // one town
                GeoBox(west: 24.9, south: 60.15, east: 24.98, north: 60.19)!,  // a few streets
            ]
            // Every kind alone, and all kinds.
            let filters =
                reader.kinds.indices.map { kind in reader.kinds.indices.map { $0 == kind } }
                + [[Bool](repeating: true, count: reader.kinds.count)]
            for box in boxes {
                let inside = try (0..<reader.count).filter { box.contains(try reader.coordinate(at: $0)) }
                for zoom in [nil, 3, 12] as [Int?] {
                    let shown = try Set(reader.spotsByTree(in: box, shownAt: zoom).map(\.spot))
                    if zoom == nil { #expect(shown == Set(inside)) }
                    for allowed in filters {
                        let expected = try inside.filter {
                            allowed[try reader.kindNumber(at: $0)] && shown.contains($0)
                        }
                        let byTree = try reader.spotsByTree(in: box, kinds: allowed, shownAt: zoom)
                        let byLists = try reader.spotsByKindLists(in: box, kinds: allowed, shownAt: zoom)
                        let asked = "box \(box), zoom \(String(describing: zoom)), kinds \(allowed)"
                        #expect(byTree.map(\.spot) == expected, "\(asked)")
                        #expect(byLists.map(\.spot) == expected, "\(asked)")
                        #expect(
                            try byTree.allSatisfy { spot in
                                try spot.kind == reader.kindNumber(at: spot.spot)
                                    && spot.coordinate == reader.coordinate(at: spot.spot)
                            })
                        #expect(byLists.map(\.kind) == byTree.map(\.kind))
                        #expect(byLists.map(\.coordinate) == byTree.map(\.coordinate))
                        let among = 100..<450
                        let part = expected.filter(among.contains)
                        let treePart = try reader.spotsByTree(in: box, kinds: allowed, shownAt: zoom, among: among)
                        let listedPart = try reader.spotsByKindLists(
                            in: box, kinds: allowed, shownAt: zoom, among: among)
                        #expect(treePart.map(\.spot) == part && listedPart.map(\.spot) == part, "\(asked)")
                    }
                }
            }
        }
    }

    @Test("boxes and category counts, stored for large clusters and worked out for small ones, are those of the spots")
    func boxesAndCategories() throws {
        let spots = townSpots(900, seed: 11)
        try withTemporaryFile(clusteredIndex(spots)) { path in
            let reader = try SpotIndexReader(path: path)
            let levels = try #require(reader.clusterLevels)
            var sizes = Set<Bool>()
            for id in 0..<levels.count {
                let cluster = try reader.cluster(id)
                let leaves = try reader.allLeaves(ofCluster: id)
                let coordinates = try leaves.map { try reader.coordinate(at: $0) }
                #expect(cluster.boundingBox == GeoBox(enclosing: coordinates))
                var counts: [Category: Int] = [:]
                for spot in leaves {
                    if let category = try reader.kind(at: spot).category { counts[category, default: 0] += 1 }
                }
                #expect(cluster.categories.map(\.category.rawValue) == counts.keys.map(\.rawValue).sorted())
                #expect(cluster.categories.allSatisfy { counts[$0.category] == $0.count })
                sizes.insert(cluster.count > 32)
            }
            #expect(sizes == [true, false], "both stored and worked-out details are exercised")
        }
    }

    @Test(
        "a cluster's children are what it splits into at its expansion zoom, and add up to its count; its leaves page through its spots"
    )
    func childrenAndLeaves() throws {
        try withTemporaryFile(clusteredIndex(townSpots(500, seed: 5))) { path in
            let reader = try SpotIndexReader(path: path)
            let levels = try #require(reader.clusterLevels)
            for id in 0..<levels.count {
                let cluster = try reader.cluster(id)
                let children = try reader.children(ofCluster: id)
                #expect(children.clusters.count + children.spots.count >= 2)
                let shown = try reader.shown(atZoom: cluster.expansionZoom)
                #expect(Set(children.clusters).isSubset(of: shown.clusters))
                #expect(Set(children.spots).isSubset(of: shown.spots))
                let fromChildren =
                    try children.clusters.flatMap { try reader.allLeaves(ofCluster: $0) } + children.spots
                #expect(
                    fromChildren == (try reader.allLeaves(ofCluster: id)),
                    "cluster \(id): children first, then its own spots")
                #expect(
                    try children.clusters.map { try reader.cluster($0).count }.reduce(0, +) + children.spots.count
                        == cluster.count)
                let all = try reader.leaves(ofCluster: id, limit: .max, offset: 0)
                #expect(all.count == cluster.count && Set(all).count == all.count)
                #expect(try reader.leaves(ofCluster: id, limit: 2, offset: 1) == Array(all.dropFirst().prefix(2)))
                #expect(try reader.leaves(ofCluster: id, limit: .max, offset: .max).isEmpty)
            }
        }
    }

    @Test("the layout follows FORMAT.md: CLUS's header and zoom starts, CMEM's and CDET's entries, SVIS's length")
    func layout() throws {
        let bytes = clusteredIndex(townSpots(300, seed: 3))
        let raw = RawIndex(bytes)
        #expect(bytes.rawSections.map(\.name).suffix(5) == ["CLUS", "CTRE", "CDET", "CMEM", "SVIS"])
        try withTemporaryFile(bytes) { path in
            let reader = try SpotIndexReader(path: path)
            let levels = try #require(reader.clusterLevels)
            let clus = raw.contents("CLUS")
            #expect(clus.load(UInt32.self, at: 0) == 16)
            #expect(Int(clus.load(UInt32.self, at: 4)) == levels.count)
            #expect(Int(clus.load(UInt32.self, at: 8)) == levels.memberCount)
            #expect(clus.load(UInt32.self, at: 12) == 32)
            #expect(Double(bitPattern: clus.load(UInt64.self, at: 16)) == 60)
            #expect(Double(bitPattern: clus.load(UInt64.self, at: 24)) == 512)
            for zoom in 0...16 {
                #expect(Int(clus.load(UInt32.self, at: 32 + 4 * zoom)) == levels.clusters(madeAt: zoom).lowerBound)
            }
            #expect(Int(clus.load(UInt32.self, at: 32 + 4 * 17)) == levels.count)
            // The member order, decoded from CMEM as FORMAT.md says, is every cluster's leaves in turn.
            let cmem = raw.contents("CMEM")
            let blockSize = Int(cmem.load(UInt32.self, at: 0))
            var cursor = ByteCursor(cmem, from: 4 + 4 * ((levels.memberCount + blockSize - 1) / blockSize))
            var order: [Int] = []
            for position in 0..<levels.memberCount {
                let value = try cursor.varint()
                order.append(position % blockSize == 0 ? value : order.last! + (value >> 1 ^ -(value & 1)))
            }
            #expect(cursor.isAtEnd)
            // CDET: each entry's count and first member give the cluster's run of the member order.
            let cdet = raw.contents("CDET")
            let detailBlock = Int(cdet.load(UInt32.self, at: 0))
            var entries = ByteCursor(cdet, from: 4 + 4 * ((levels.count + detailBlock - 1) / detailBlock))
            var first = 0
            for id in 0..<levels.count {
                let count = try entries.varint()
                let member = try entries.varint()
                first = id % detailBlock == 0 ? member : first + (member >> 1 ^ -(member & 1))
                if count > 32 { _ = try entries.take(try entries.varint()) }
                #expect(Array(order[first..<first + count]) == (try reader.allLeaves(ofCluster: id)))
            }
            #expect(entries.isAtEnd)
            #expect(raw.section("SVIS").length == reader.count + reader.tree.levelCounts.reduce(0, +))
        }
    }

    @Test("an index written without cluster levels has none; empty and one-spot indexes have empty levels")
    func optional() throws {
        try withTemporaryFile(SpotIndexWriter.encode(townSpots(50, seed: 1), metadata: RoundTripTests.emptyMetadata)) {
            path throws in
            #expect(try SpotIndexReader(path: path).clusterLevels == nil)
        }
        for count in [0, 1] {
            try withTemporaryFile(clusteredIndex(townSpots(count, seed: 2))) { path in
                let reader = try SpotIndexReader(path: path)
                let levels = try #require(reader.clusterLevels)
                #expect(levels.count == 0 && levels.memberCount == 0)
                #expect(try reader.shown(atZoom: 0).spots.count == count)
            }
        }
    }

    @Test("the same spots in any order give the same bytes")
    func reproducible() {
        let spots = townSpots(400, seed: 9)
        #expect(clusteredIndex(spots) == clusteredIndex(spots.reversed()))
    }
}
