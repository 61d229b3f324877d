import SpotCluster
import SpotIndex
import Spots

/// Encodes the cluster levels (FORMAT.md, "Cluster levels"): CLUS, CTRE, CDET, CMEM and SVIS.
///
/// The clusters are `ClusterHierarchy`'s over the spots in SPOT order, each stored once, so the
/// levels cost about a fifth of the index rather than a copy of every spot per zoom: a cluster
/// is shown at the zooms from `visibleFrom` to the zoom it was made at, a spot from its own
/// `visibleFrom` up. The members of every cluster are one run of the member order (the spots
/// in depth-first order of the cluster forest), so leaves are a slice of it; bounding boxes and
/// category counts are stored only for clusters of more than `detailThreshold` spots, since a
/// reader works them out from the members of a small cluster as fast as it decodes them.
struct ClusterLevelsWriter {
    /// Clusters of at most this many spots store no bounding box and no category counts.
    static let detailThreshold = 32
    /// Entries per block of CDET.
    static let detailBlockSize = 16
    /// Entries per block of CMEM.
    static let memberBlockSize = 64

    private let settings: ClusterSettings
    private let hierarchy: ClusterHierarchy
    private let coordinates: [Coordinate]
    private let categories: [Category?]
    /// The SPOT numbers of the spots clustered (places, not address points), by their number
    /// in `hierarchy`.
    private let places: [Int]
    /// Per cluster of `hierarchy`: the box of its spots, and its point (the centroid, rounded
    /// and clamped into the box).
    private var boxes: [GeoBox] = []
    private var points: [Coordinate] = []
    /// The clusters of `hierarchy` in storage order (by zoom made at, then Hilbert order), and
    /// each one's position in it: its id.
    private var order: [Int] = []
    private var ids: [Int] = []
    /// Where the clusters made at each zoom start in `order`, and its end.
    private var zoomStarts: [Int] = []
    /// The spots in depth-first order, and where each cluster's run of them starts.
    private var memberOrder: [Int32] = []
    private var firstMembers: [Int] = []

    /// The cluster levels of the spots at `coordinates`, whose categories are `categories`, both
    /// in SPOT order, of which those `isPlace` holds for are clustered: the others (address
    /// points) are in no cluster and shown only past the last zoom of the levels.
    init(coordinates: [Coordinate], categories: [Category?], isPlace: [Bool], settings: ClusterSettings) {
        self.settings = settings
        self.coordinates = coordinates
        self.categories = categories
        let places = coordinates.indices.filter { isPlace[$0] }
        self.places = places
        hierarchy = ClusterHierarchy(coordinates: places.map { coordinates[$0] }, settings: settings)
        placeClusters()
        let hilbert = HilbertKeys(enclosing: coordinates).map { keys in points.map(keys.key) } ?? []
        order = hierarchy.clusters.indices.sorted {
            (hierarchy.clusters[$0].zoom, hilbert[$0], $0) < (hierarchy.clusters[$1].zoom, hilbert[$1], $1)
        }
        ids = [Int](repeating: 0, count: order.count)
        for (id, cluster) in order.enumerated() { ids[cluster] = id }
        zoomStarts = (0...settings.maxZoom + 1).map { zoom in
            order.firstIndex { hierarchy.clusters[$0].zoom >= zoom } ?? order.count
        }
        orderMembers(hilbert: hilbert)
    }

    /// The five sections, tagged.
    func sections(treeNodeSize: Int) -> [(tag: UInt32, bytes: [UInt8])] {
        let details = detailRecords()
        return [
            (IndexLayout.Tag.clusters, clusterSection(categoryNames: details.categoryNames)),
            (IndexLayout.Tag.clusterTrees, treeSection()),
            (IndexLayout.Tag.clusterDetails, details.section),
            (IndexLayout.Tag.clusterMembers, memberSection()),
            (IndexLayout.Tag.spotVisibility, visibilitySection(treeNodeSize: treeNodeSize)),
        ]
    }

    // MARK: Building

    /// Boxes and points, children before parents (the order clusters are made in).
    private mutating func placeClusters() {
        for cluster in hierarchy.clusters {
            let children = hierarchy.children[cluster.childRange].map { child in
                switch child {
                case .spot(let spot): GeoBox(coordinates[places[spot]])
                case .cluster(let inner): boxes[inner]
                }
            }
            // A cluster has children, so the box exists.
            let box = GeoBox(enclosing: children)!
            boxes.append(box)
            points.append(
                Coordinate(
                    latitudeE7: min(box.northE7, max(box.southE7, WebMercator.latitudeE7(y: cluster.y))),
                    longitudeE7: min(box.eastE7, max(box.westE7, WebMercator.longitudeE7(x: cluster.x))))!)
        }
    }

    /// The member order: from each root cluster (in Hilbert order), depth first, a cluster's
    /// child clusters in Hilbert order, then its own spots in SPOT order.
    private mutating func orderMembers(hilbert: [UInt32]) {
        firstMembers = [Int](repeating: 0, count: hierarchy.clusters.count)
        memberOrder.reserveCapacity(coordinates.count)
        func byHilbert(_ clusters: [Int]) -> [Int] {
            clusters.sorted { (hilbert[$0], ids[$0]) < (hilbert[$1], ids[$1]) }
        }
        func visit(_ cluster: Int) {
            firstMembers[cluster] = memberOrder.count
            var inner: [Int] = []
            var spots: [Int32] = []
            for child in hierarchy.children[hierarchy.clusters[cluster].childRange] {
                switch child {
                case .spot(let spot): spots.append(Int32(places[spot]))
                case .cluster(let cluster): inner.append(cluster)
                }
            }
            for child in byHilbert(inner) { visit(child) }
            memberOrder += spots.sorted()
        }
        for root in byHilbert(hierarchy.clusters.indices.filter { hierarchy.clusterParents[$0] == nil }) { visit(root) }
    }

    // MARK: Sections

    /// Settings, counts, the first cluster of each zoom, the category names CDET numbers, then
    /// each cluster's point and the zoom it is shown from.
    private func clusterSection(categoryNames: [String]) -> [UInt8] {
        var writer = ByteWriter()
        writer.append(UInt32(settings.maxZoom))
        writer.append(UInt32(order.count))
        writer.append(UInt32(memberOrder.count))
        writer.append(UInt32(Self.detailThreshold))
        writer.append(settings.radius.bitPattern)
        writer.append(settings.extent.bitPattern)
        for start in zoomStarts { writer.append(UInt32(start)) }
        let names = Array(categoryNames.map { $0 + "\n" }.joined().utf8)
        writer.append(UInt32(names.count))
        writer.append(names)
        writer.pad(to: 4)
        for cluster in order {
            writer.append(points[cluster].latitudeE7)
            writer.append(points[cluster].longitudeE7)
        }
        writer.append(order.map { UInt8(hierarchy.visibleFrom(cluster: $0)) })
        return writer.bytes
    }

    /// For each zoom, a packed R-tree over the points of the clusters made at it (boxes as in
    /// TREE), then one byte per box: the lowest zoom any cluster under it is shown from.
    private func treeSection() -> [UInt8] {
        var boxes = ByteWriter()
        var lowest: [UInt8] = []
        let nodeSize = IndexLayout.nodeSize
        for zoom in 0...settings.maxZoom {
            let clusters = order[zoomStarts[zoom]..<zoomStarts[zoom + 1]]
            for level in PackedTree.boxLevels(over: clusters.map { points[$0] }, nodeSize: nodeSize) {
                for box in level { boxes.append(box) }
            }
            let visible = clusters.map { UInt8(hierarchy.visibleFrom(cluster: $0)) }
            for level in PackedTree.levels(over: visible, nodeSize: nodeSize, merge: { $0.min()! }) { lowest += level }
        }
        var writer = ByteWriter()
        writer.append(UInt32(IndexLayout.nodeSize))
        writer.append(UInt32(0))
        writer.append(boxes.bytes)
        writer.append(lowest)
        return writer.bytes
    }

    /// In blocks of `detailBlockSize` clusters: each cluster's count and first member, and for
    /// a cluster of more than `detailThreshold` spots the length of what follows, its box and
    /// its category counts. Also the names of the categories counted, sorted, which the
    /// entries number.
    private func detailRecords() -> (section: [UInt8], categoryNames: [String]) {
        var tallies: [Int: [(category: Category, count: Int)]] = [:]
        for cluster in order where hierarchy.clusters[cluster].count > Self.detailThreshold {
            var counts: [Category: Int] = [:]
            for spot in memberOrder[firstMembers[cluster]..<firstMembers[cluster] + hierarchy.clusters[cluster].count] {
                if let category = categories[Int(spot)] { counts[category, default: 0] += 1 }
            }
            tallies[cluster] = counts.map { ($0.key, $0.value) }
        }
        let names = Set(tallies.values.flatMap { $0.map(\.category.rawValue) }).sorted()
        let numbers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var entries = ByteWriter()
        var offsets = ByteWriter()
        var previousFirst = 0
        for (id, cluster) in order.enumerated() {
            let record = hierarchy.clusters[cluster]
            let first = firstMembers[cluster]
            if id % Self.detailBlockSize == 0 { offsets.append(UInt32(entries.bytes.count)) }
            entries.appendVarint(UInt32(record.count))
            if id % Self.detailBlockSize == 0 {
                entries.appendVarint(UInt32(first))
            } else {
                entries.appendZigzag(first - previousFirst)
            }
            previousFirst = first
            guard let tally = tallies[cluster] else { continue }
            var extras = ByteWriter()
            let (box, point) = (boxes[cluster], points[cluster])
            let extents = [
                point.longitudeE7 - box.westE7, point.latitudeE7 - box.southE7, box.eastE7 - point.longitudeE7,
                box.northE7 - point.latitudeE7,
            ]
            for extent in extents {
                extras.appendVarint(UInt32(extent))
            }
            let numbered = tally.map { (numbers[$0.category.rawValue]!, $0.count) }.sorted { $0.0 < $1.0 }
            extras.appendVarint(UInt32(numbered.count))
            for (number, count) in numbered {
                extras.appendVarint(UInt32(number))
                extras.appendVarint(UInt32(count))
            }
            entries.appendVarint(UInt32(extras.bytes.count))
            entries.append(extras.bytes)
        }
        var section = ByteWriter()
        section.append(UInt32(Self.detailBlockSize))
        section.append(offsets.bytes)
        section.append(entries.bytes)
        return (section.bytes, names)
    }

    /// The member order in blocks of `memberBlockSize`: each block's first spot number, then
    /// each spot less the one before it.
    private func memberSection() -> [UInt8] {
        var entries = ByteWriter()
        var section = ByteWriter()
        section.append(UInt32(Self.memberBlockSize))
        for (position, spot) in memberOrder.enumerated() {
            if position % Self.memberBlockSize == 0 {
                section.append(UInt32(entries.bytes.count))
                entries.appendVarint(UInt32(spot))
            } else {
                entries.appendZigzag(Int(spot) - Int(memberOrder[position - 1]))
            }
        }
        section.append(entries.bytes)
        return section.bytes
    }

    /// The zoom each spot is shown from (one past the last level for a spot not clustered),
    /// then for each box of TREE the lowest of its spots'.
    private func visibilitySection(treeNodeSize: Int) -> [UInt8] {
        var visible = [UInt8](repeating: UInt8(settings.maxZoom + 1), count: coordinates.count)
        for (number, spot) in places.enumerated() { visible[spot] = UInt8(hierarchy.visibleFrom(spot: number)) }
        return visible + PackedTree.levels(over: visible, nodeSize: treeNodeSize, merge: { $0.min()! }).joined()
    }
}

extension ByteWriter {
    /// Appends a signed value as a zigzag varint: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
    mutating func appendZigzag(_ value: Int) {
        appendVarint(UInt32(truncatingIfNeeded: (value << 1) ^ (value >> 63)))
    }
}
