import Foundation
import SeededRandom
import SpotCluster
import SpotIndex
import SpotPipeline
import SpotTestSupport
import Spots
import Testing

@testable import SpotSearch

/// Spots in towns (one astride the antimeridian, one near the pole) and a few far apart, of a
/// handful of categories and none.
func clusteringSpots(_ count: Int, seed: UInt64) -> [Spot] {
    var random = SplitMix64(seed: seed)
    let towns: [(Int32, Int32)] = [
        (601_700_000, 249_400_000), (-170_000_000, 1_799_990_000), (-170_000_000, -1_799_990_000),
        (843_000_000, 100_000_000),
    ]
    let categories: [Category?] = [.cafe, .restaurant, .museum, .hotel, .park, nil]
    return (0..<count).map { number in
        let coordinate: Coordinate
        if Int.random(in: 0..<20, using: &random) == 0 {
            coordinate = Coordinate(
                latitudeE7: Int32.random(in: -900_000_000...900_000_000, using: &random),
                longitudeE7: Int32.random(in: -1_800_000_000...1_800_000_000, using: &random))!
        } else {
            let town = towns.randomElement(using: &random)!
            let spread = [500, 5_000, 50_000, 500_000].randomElement(using: &random)!
            func jitter(_ value: Int32, _ limit: Int64) -> Int32 {
                Int32(
                    max(
                        -limit,
                        min(limit, Int64(value) + Int64.random(in: -Int64(spread)...Int64(spread), using: &random))))
            }
            coordinate = Coordinate(
                latitudeE7: jitter(town.0, 900_000_000), longitudeE7: jitter(town.1, 1_800_000_000))!
        }
        let category = categories.randomElement(using: &random)!
        return Spot(
            ref: OSMRef(.node, Int64(number + 1)), coordinate: coordinate, tagKey: "amenity",
            kind: category?.rawValue ?? "bench", category: category)
    }
}

/// A search over an index of `spots`, with cluster levels made with `clusters` when given.
func clusterSearch(_ spots: [Spot], clusters: ClusterSettings? = .standard) throws -> SpotSearch {
    try SpotSearch(index: try openIndex(of: spots, clusters: clusters))
}

let worldRegion = GeoBox.world

extension ClusterItem {
    /// The item's point: a cluster's, or the spot's own.
    func point(in index: SpotIndexReader) throws -> Coordinate {
        switch self {
        case .cluster(let cluster): cluster.coordinate
        case .spot(let spot): try index.coordinate(at: spot)
        }
    }

    var count: Int {
        switch self {
        case .cluster(let cluster): cluster.count
        case .spot: 1
        }
    }
}

@Suite("Clusters for a map")
struct ClusterSearchTests {
    /// Every spot of the answer: the leaves of its clusters and its single spots.
    static func spots(of items: [ClusterItem], _ search: SpotSearch) throws -> [Int] {
        try items.flatMap { item -> [Int] in
            switch item {
            case .cluster(let cluster): try search.leaves(ofCluster: cluster.id!, limit: .max, offset: 0)
            case .spot(let spot): [spot]
            }
        }
    }

    @Test(
        "over the whole world, at every zoom, every spot is counted exactly once; above the maximum zoom all are single",
        arguments: [1, 2] as [UInt64])
    func wholeWorld(seed: UInt64) throws {
        let search = try clusterSearch(clusteringSpots(800, seed: seed))
        for zoom in 0...19 {
            let items = try search.clusters(ClusterRequest(region: worldRegion, zoom: zoom))
            #expect(items.map(\.count).reduce(0, +) == 800, "zoom \(zoom)")
            #expect(try Self.spots(of: items, search).sorted() == Array(0..<800), "zoom \(zoom)")
            if zoom > 16 { #expect(items.allSatisfy { if case .spot = $0 { true } else { false } }) }
        }
    }

    @Test(
        "a smaller box, across the antimeridian too, gives the clusters and spots of the world whose points lie in it")
    func smallerBoxes() throws {
        let search = try clusterSearch(clusteringSpots(900, seed: 3))
        var random = SplitMix64(seed: 4)
        for zoom in 0...17 {
            let world = try search.clusters(ClusterRequest(region: worldRegion, zoom: zoom))
            for _ in 0..<12 {
                let center = Coordinate(
                    latitudeE7: Int32.random(in: -800_000_000...800_000_000, using: &random),
                    longitudeE7: [249_400_000, 1_799_000_000, -1_799_000_000, 0].randomElement(using: &random)!)!
                let span = [0.01, 0.5, 5, 60, 300].randomElement(using: &random)!
                let region = try #require(GeoBox(center: center, latitudeDelta: span / 2, longitudeDelta: span))
                let items = try search.clusters(ClusterRequest(region: region, zoom: zoom))
                #expect(
                    try items == world.filter { region.contains(try $0.point(in: search.index)) },
                    "zoom \(zoom), \(region)")
            }
        }
    }

    @Test("at zoom 0 a city is a handful of clusters; its clusters split at their expansion zoom")
    func city() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var pipeline = try Pipeline.defaults()
        pipeline.inputs = [root.appendingPathComponent("Samples/helsinki-center.osm.gz").path]
        let built = try SpotBuild(pipeline: pipeline, sourceDateEpoch: 0).run()
        let search = try SpotSearch(index: try openIndex(built.index))
        let top = try search.clusters(ClusterRequest(region: worldRegion, zoom: 0))
        #expect((1...5).contains(top.count))
        guard case .cluster(let city)? = top.first else {
            Issue.record("no cluster at zoom 0")
            return
        }
        #expect(city.count == search.index.count)
        let children = try search.children(ofCluster: city.id!)
        #expect(children.count >= 2)
        #expect(children.map(\.count).reduce(0, +) == city.count)
        let shown = try search.clusters(ClusterRequest(region: worldRegion, zoom: city.expansionZoom))
        #expect(children.allSatisfy(shown.contains))
    }

    @Test("children add up to the count; leaves are exactly the members, page by page")
    func childrenAndLeaves() throws {
        let search = try clusterSearch(clusteringSpots(500, seed: 5))
        let levels = try #require(search.index.clusterLevels)
        for id in 0..<levels.count {
            let cluster = try search.cluster(id)
            let children = try search.children(ofCluster: id)
            #expect(children.map(\.count).reduce(0, +) == cluster.count)
            let leaves = try search.leaves(ofCluster: id, limit: .max, offset: 0)
            #expect(leaves.sorted() == (try Self.spots(of: children, search)).sorted())
            var paged: [Int] = []
            while paged.count < cluster.count {
                paged += try search.leaves(ofCluster: id, limit: 3, offset: paged.count)
            }
            #expect(paged == leaves)
        }
        #expect(throws: SearchError.self) { try search.children(ofCluster: levels.count) }
        #expect(throws: SearchError.self) { try search.leaves(ofCluster: -1, limit: 1, offset: 0) }
        #expect(throws: SearchError.self) { try search.leaves(ofCluster: 0, limit: -1, offset: 0) }
        #expect(throws: SearchError.self) { try search.clusters(ClusterRequest(region: worldRegion, zoom: -1)) }
    }

    /// Checks query-time clusters of the spots `filter` keeps: over the world every kept spot
    /// once at every zoom, only kept categories, and in smaller boxes only points inside.
    static func expectQueryTimeInvariants(_ search: SpotSearch, _ spots: [Spot], filter: PointOfInterestFilter?) throws
    {
        let kept = (0..<search.index.count).filter { spot in
            filter?.allows(try! search.index.kind(at: spot).category) ?? true
        }
        var random = SplitMix64(seed: 8)
        for zoom in 0...18 {
            let items = try search.clusters(
                ClusterRequest(region: worldRegion, zoom: zoom, pointOfInterestFilter: filter))
            #expect(items.map(\.count).reduce(0, +) == kept.count, "zoom \(zoom)")
            var singles: [Int] = []
            for item in items {
                switch item {
                case .cluster(let cluster):
                    #expect(cluster.id == nil && cluster.count >= 2 && cluster.expansionZoom > zoom)
                    #expect(cluster.categories.allSatisfy { filter?.allows($0.category) ?? true })
                    let box = cluster.boundingBox
                    #expect(
                        box.southE7 <= cluster.coordinate.latitudeE7 && cluster.coordinate.latitudeE7 <= box.northE7)
                case .spot(let spot): singles.append(spot)
                }
            }
            #expect(Set(singles).isSubset(of: kept) && Set(singles).count == singles.count)
            let region = GeoBox(
                center: spots.randomElement(using: &random)!.coordinate, latitudeDelta: 2, longitudeDelta: 4)!
            for item in try search.clusters(ClusterRequest(region: region, zoom: zoom, pointOfInterestFilter: filter)) {
                #expect(region.contains(try item.point(in: search.index)))
            }
        }
    }

    @Test("with a category filter, clusters are made at query time over the kept spots, with the same invariants")
    func filtered() throws {
        let spots = clusteringSpots(700, seed: 6)
        let search = try clusterSearch(spots)
        try Self.expectQueryTimeInvariants(search, spots, filter: PointOfInterestFilter(including: [.cafe, .museum]))
        try Self.expectQueryTimeInvariants(search, spots, filter: PointOfInterestFilter(excluding: [.restaurant]))
        try Self.expectQueryTimeInvariants(search, spots, filter: PointOfInterestFilter(including: []))
    }

    @Test("an index without cluster levels clusters at query time; it has no cluster ids")
    func withoutLevels() throws {
        let spots = clusteringSpots(400, seed: 7)
        let search = try clusterSearch(spots, clusters: nil)
        #expect(search.clusterSettings == .standard)
        try Self.expectQueryTimeInvariants(search, spots, filter: nil)
        #expect(throws: SearchError.self) { try search.children(ofCluster: 0) }
    }

    @Test("a box read in ranges of spot numbers gives the box's spots, in order, whichever walk the plan takes")
    func spotsInRanges() throws {
        // A rare category, for which a wide box is read from the kinds' lists rather than the tree.
        var random = SplitMix64(seed: 11)
        let libraries = (0..<4).map { number in
            Spot(
                ref: OSMRef(.node, Int64(10_000 + number)),
                coordinate: Coordinate(
                    latitudeE7: .random(in: -800_000_000...800_000_000, using: &random),
                    longitudeE7: .random(in: -1_700_000_000...1_700_000_000, using: &random))!,
                tagKey: "amenity", kind: "library", category: .library)
        }
        let spots = clusteringSpots(3_000, seed: 10) + libraries
        let search = try clusterSearch(spots)
        let index = search.index
        let filters: [[Bool]?] = [
            nil, index.kinds.map { $0.category == .museum }, index.kinds.map { $0.category != .cafe },
            index.kinds.map { $0.category == .library },
        ]
        for _ in 0..<40 {
            let center = spots.randomElement(using: &random)!.coordinate
            let region = GeoBox(
                center: center, latitudeDelta: .random(in: 0.01...179, using: &random),
                longitudeDelta: .random(in: 0.01...359, using: &random))!
            guard !region.crossesAntimeridian else { continue }
            for kinds in filters {
                let whole = try search.spots(in: region, kinds: kinds, shownAt: nil, among: 0..<index.count).map(\.spot)
                let cuts =
                    [0] + (0..<2).map { _ in Int.random(in: 0...index.count, using: &random) }.sorted() + [index.count]
                let pieces = try (1..<cuts.count).flatMap { part in
                    try search.spots(in: region, kinds: kinds, shownAt: nil, among: cuts[part - 1]..<cuts[part]).map(
                        \.spot)
                }
                #expect(pieces == whole)
                let scanned = try (0..<index.count).filter { spot in
                    try region.contains(index.coordinate(at: spot))
                        && kinds.map { $0[try index.kindNumber(at: spot)] } ?? true
                }
                #expect(whole == scanned)
            }
        }
    }

    @Test("the plan reads a wide box of a rare kind from the kinds' lists; no filter, or a small box, from the tree")
    func plan() throws {
        let libraries = [(-60, -150), (10, 20), (70, 100)].enumerated().map { number, place in
            let coordinate = Coordinate(
                latitudeE7: Int32(place.0) * 10_000_000, longitudeE7: Int32(place.1) * 10_000_000)!
            return Spot(
                ref: OSMRef(.node, Int64(10_000 + number)), coordinate: coordinate, tagKey: "amenity", kind: "library",
                category: .library)
        }
        let index = try clusterSearch(clusteringSpots(3_000, seed: 10) + libraries).index
        let rare = index.kinds.map { $0.category == .library }
        let all = 0..<index.count
        #expect(try BoxPlan.choose(in: .world, kinds: rare, among: all, of: index) == .kindLists(allowed: rare))
        guard case .tree = try BoxPlan.choose(in: .world, kinds: nil, among: all, of: index) else {
            Issue.record("no filter reads the tree")
            return
        }
        let street = GeoBox(center: try index.coordinate(at: 0), latitudeDelta: 0.001, longitudeDelta: 0.001)!
        guard case .tree = try BoxPlan.choose(in: street, kinds: rare, among: all, of: index) else {
            Issue.record("a box of a few spots reads the tree")
            return
        }
        #expect(BoxPlan.estimatedSpots(in: .world, of: index) == index.count)
        #expect(BoxPlan.estimatedSpots(in: GeoBox(westE7: 0, southE7: 0, eastE7: 0, northE7: 0), of: index) <= 1)
    }

    @Test(
        "a viewport of many spots, read and projected on two threads, clusters as one pass over all its spots in order")
    func twoThreads() throws {
        let spots = clusteringSpots(2 * SpotSearch.spotsWorthTwoThreads, seed: 12)
        let search = try clusterSearch(spots, clusters: nil)
        let index = search.index
        let points = try (0..<index.count).map { WebMercator.point(try index.coordinate(at: $0)) }
        for zoom in [0, 2, 5] {
            let items = try search.clusters(ClusterRequest(region: worldRegion, zoom: zoom))
            let expected = GreedyClustering(
                xs: points.map(\.x), ys: points.map(\.y), radius: search.clusterSettings.radius(atZoom: zoom))
            #expect(items.count == expected.groups.count, "zoom \(zoom)")
            #expect(items.map(\.count).sorted() == expected.groups.map(\.weight).sorted(), "zoom \(zoom)")
        }
    }

    @Test("a query-time cluster's spots lie within the radius of its first spot")
    func queryTimeRadius() throws {
        let spots = clusteringSpots(300, seed: 9)
        let search = try clusterSearch(spots, clusters: nil)
        for zoom in [3, 8, 12] {
            let radius = search.clusterSettings.radius(atZoom: zoom)
            for case .cluster(let cluster) in try search.clusters(ClusterRequest(region: worldRegion, zoom: zoom)) {
                let west = WebMercator.x(longitudeE7: cluster.boundingBox.westE7)
                let east = WebMercator.x(longitudeE7: cluster.boundingBox.eastE7)
                #expect(east - west <= 2 * radius + 1e-12)
            }
        }
    }
}
