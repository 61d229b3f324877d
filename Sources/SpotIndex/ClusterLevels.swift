import SpotCluster
import Spots

/// The cluster levels of an index (FORMAT.md, "Cluster levels"): each cluster once, with the
/// zooms it is shown at, a packed R-tree per zoom made at, the members in depth-first order,
/// and the zoom from which each spot is shown as itself.
///
/// Opening checks the headers and lengths in time independent of the number of spots; every
/// value read later is checked before it is used, and a bad one throws `IndexError` naming its
/// section.
public final class ClusterLevels: @unchecked Sendable {
    /// A cluster's stored fields: its count, where its members start in the member order, and
    /// for a cluster of more than `detailThreshold` spots its box and category counts.
    struct Record {
        var count: Int
        var firstMember: Int
        var stored: (box: GeoBox, categories: [CategoryCount])?
    }

    /// The settings the levels were made with.
    public let settings: ClusterSettings
    /// How many clusters there are; ids run from 0 to `count - 1`.
    public let count: Int
    /// How many spots are in some cluster: the length of the member order.
    public let memberCount: Int
    /// Clusters of at most this many spots store no box or category counts.
    let detailThreshold: Int

    private let spotCount: Int
    /// The first cluster made at each zoom from 0 to the maximum, then `count`.
    private let zoomStarts: [Int]
    private let categoryNames: [Category]
    /// Each cluster's point (CLUS), 8 bytes.
    private let points: RecordTable
    /// Each cluster's lowest zoom shown (CLUS), a byte.
    private let visibility: RecordTable
    /// Per zoom made at, the tree over the points of its clusters, and per box of it the lowest
    /// zoom from which a cluster under it is shown (CTRE), a byte.
    private let trees: [(tree: PackedTreeView, lowest: RecordTable)]
    private let details: BlockedEntries
    private let members: BlockedEntries
    /// Each spot's lowest zoom shown as itself (SVIS), a byte.
    private let spotVisibility: RecordTable
    /// Per box of TREE, by position, the lowest zoom from which a spot under it is shown (SVIS).
    private let boxVisibility: RecordTable
    /// CLUS, for errors about clusters.
    private let clusterSection: SectionBytes

    /// The cluster levels of the index whose sections `header` lists, when it has them: all five
    /// sections, or none (nil).
    static func open(
        _ header: IndexHeader, spotCount: Int, spotTree: PackedTreeView
    ) throws(IndexError) -> ClusterLevels? {
        let tags = IndexLayout.Tag.clusterLevels
        guard tags.contains(where: { header.bytes(of: $0) != nil }) else { return nil }
        var sections: [SectionBytes] = []
        for tag in tags {
            guard let bytes = header.bytes(of: tag) else { throw header.missing(tag, "cluster section") }
            sections.append(bytes)
        }
        return try ClusterLevels(
            clusters: sections[0], trees: sections[1], details: sections[2], members: sections[3],
            visibility: sections[4], spotCount: spotCount, spotTree: spotTree)
    }

    /// Checks the five sections' headers and lengths against each other, the spot count and
    /// the boxes of TREE (`spotTree`).
    private init(
        clusters: SectionBytes, trees: SectionBytes, details: SectionBytes, members: SectionBytes,
        visibility: SectionBytes, spotCount: Int, spotTree: PackedTreeView
    ) throws(IndexError) {
        self.spotCount = spotCount
        clusterSection = clusters
        guard clusters.count >= 32 else { throw clusters.corrupt("too short") }
        let maxZoom = Int(try clusters.uint32(at: 0))
        count = Int(try clusters.uint32(at: 4))
        memberCount = Int(try clusters.uint32(at: 8))
        detailThreshold = Int(try clusters.uint32(at: 12))
        let radius = Double(bitPattern: try clusters.load(UInt64.self, at: 16))
        let extent = Double(bitPattern: try clusters.load(UInt64.self, at: 24))
        guard ClusterSettings.maxZoomRange.contains(maxZoom), ClusterSettings.radiusRange.contains(radius),
            ClusterSettings.extentRange.contains(extent)
        else { throw clusters.corrupt("settings out of range") }
        settings = ClusterSettings(maxZoom: maxZoom, radius: radius, extent: extent)
        guard count <= spotCount, memberCount <= spotCount else {
            throw clusters.corrupt("more clusters or members than spots")
        }
        let namesStart = 32 + 4 * (maxZoom + 2)
        guard clusters.count >= namesStart + 4 else { throw clusters.corrupt("too short") }
        var starts: [Int] = []
        for zoom in 0...maxZoom + 1 {
            let start = Int(try clusters.uint32(at: 32 + 4 * zoom))
            guard start >= (starts.last ?? 0), start <= count else {
                throw clusters.corrupt("zoom starts do not ascend to the cluster count")
            }
            starts.append(start)
        }
        guard starts.first == 0, starts.last == count else {
            throw clusters.corrupt("zoom starts do not run from 0 to the cluster count")
        }
        zoomStarts = starts
        let namesLength = Int(try clusters.uint32(at: namesStart))
        guard namesLength <= clusters.count - namesStart - 4 else {
            throw clusters.corrupt("category names run past the section")
        }
        var names: [Category] = []
        let nameBytes = try clusters.subrange(from: namesStart + 4, to: namesStart + 4 + namesLength)
        for line in nameBytes.split(separator: 0x0A) {
            guard let category = Category(rawValue: String(decoding: line, as: UTF8.self)),
                names.last.map({ $0.rawValue < category.rawValue }) ?? true
            else { throw clusters.corrupt("an unknown category name, or names out of order") }
            names.append(category)
        }
        categoryNames = names
        let pointsStart = (namesStart + 4 + namesLength + 3) / 4 * 4
        guard clusters.count == pointsStart + 9 * count else {
            throw clusters.corrupt("length does not match \(count) clusters")
        }
        points = try RecordTable(try clusters.subrange(from: pointsStart, to: pointsStart + 8 * count), recordSize: 8)
        self.visibility = try RecordTable(try clusters.subrange(from: pointsStart + 8 * count), recordSize: 1)

        guard trees.count >= 8 else { throw trees.corrupt("too short") }
        let nodeSize = Int(try trees.uint32(at: 0))
        guard nodeSize >= 2, nodeSize <= 1 << 16, try trees.uint32(at: 4) == 0 else {
            throw trees.corrupt("bad node size")
        }
        let levelCounts = (0...maxZoom).map { zoom in
            PackedTree.levelCounts(items: starts[zoom + 1] - starts[zoom], nodeSize: nodeSize)
        }
        let boxCount = levelCounts.joined().reduce(0, +)
        guard trees.count == 8 + (IndexLayout.boxSize + 1) * boxCount else {
            throw trees.corrupt("length does not match the trees of \(count) clusters")
        }
        // The boxes of every zoom's tree, then the lowest byte of every box.
        let lowestStart = 8 + IndexLayout.boxSize * boxCount
        var firstBox = 0
        var zoomTrees: [(tree: PackedTreeView, lowest: RecordTable)] = []
        for zoom in 0...maxZoom {
            let boxes = firstBox..<firstBox + levelCounts[zoom].reduce(0, +)
            firstBox = boxes.upperBound
            let boxBytes = try trees.subrange(
                from: 8 + IndexLayout.boxSize * boxes.lowerBound, to: 8 + IndexLayout.boxSize * boxes.upperBound)
            let tree = PackedTreeView(
                boxes: try RecordTable(boxBytes, recordSize: IndexLayout.boxSize), levelCounts: levelCounts[zoom],
                itemCount: starts[zoom + 1] - starts[zoom], nodeSize: nodeSize)
            let lowest = try trees.subrange(from: lowestStart + boxes.lowerBound, to: lowestStart + boxes.upperBound)
            zoomTrees.append((tree, try RecordTable(lowest, recordSize: 1)))
        }
        self.trees = zoomTrees

        self.details = try BlockedEntries(details, blockSizeAt: 0, entryCount: count)
        self.members = try BlockedEntries(members, blockSizeAt: 0, entryCount: memberCount)

        guard visibility.count == spotCount + spotTree.boxCount else {
            throw visibility.corrupt("length does not match the spots and tree boxes")
        }
        spotVisibility = try RecordTable(try visibility.subrange(from: 0, to: spotCount), recordSize: 1)
        boxVisibility = try RecordTable(try visibility.subrange(from: spotCount), recordSize: 1)
    }

    // MARK: Clusters

    /// The clusters made at `zoom`: a range of ids.
    public func clusters(madeAt zoom: Int) -> Range<Int> {
        zoomStarts[zoom]..<zoomStarts[zoom + 1]
    }

    /// The zoom cluster `id` was made at: the highest it is shown at.
    public func zoom(ofCluster id: Int) -> Int {
        precondition(id >= 0 && id < count, "cluster id out of range")
        var zoom = 0
        while zoomStarts[zoom + 1] <= id { zoom += 1 }
        return zoom
    }

    /// The point of cluster `id`.
    public func coordinate(ofCluster id: Int) throws(IndexError) -> Coordinate {
        precondition(id >= 0 && id < count, "cluster id out of range")
        let (latitude, longitude): (Int32, Int32) = (points.field(at: 0, of: id), points.field(at: 4, of: id))
        guard let coordinate = Coordinate(latitudeE7: latitude, longitudeE7: longitude) else {
            throw clusterSection.corrupt("cluster \(id) has an impossible coordinate")
        }
        return coordinate
    }

    /// The lowest zoom at which cluster `id` is shown.
    public func visibleFrom(cluster id: Int) throws(IndexError) -> Int {
        let zoom = Int(visibility.field(at: 0, of: id) as UInt8)
        guard zoom <= self.zoom(ofCluster: id) else {
            throw clusterSection.corrupt("cluster \(id) is shown from zoom \(zoom), above the zoom it was made at")
        }
        return zoom
    }

    /// The tree over the points of the clusters made at `zoom`, whose items are those clusters
    /// in id order from `clusters(madeAt: zoom).lowerBound`.
    public func tree(madeAt zoom: Int) -> PackedTreeView {
        trees[zoom].tree
    }

    /// Calls `body` with each cluster shown at `zoom` whose point lies in `box` (not crossing
    /// the antimeridian): a search of the tree of every zoom from `zoom` up, skipping boxes whose
    /// clusters are all shown only from above `zoom`.
    public func forEachCluster(
        shownAt zoom: Int, in box: GeoBox, _ body: (Int) throws(IndexError) -> Void
    ) throws(IndexError) {
        guard zoom <= settings.maxZoom else { return }
        for made in zoom...settings.maxZoom {
            let (tree, lowest) = trees[made]
            let first = clusters(madeAt: made).lowerBound
            let hidden = { (position: Int) in Int(lowest.field(at: 0, of: position) as UInt8) > zoom }
            for items in tree.leaves(meeting: box, skipping: hidden) {
                for id in first + items.lowerBound..<first + items.upperBound {
                    guard try visibleFrom(cluster: id) <= zoom else { continue }
                    guard box.contains(try coordinate(ofCluster: id)) else { continue }
                    try body(id)
                }
            }
        }
    }

    /// The stored fields of cluster `id`, decoded from its block of CDET.
    func record(ofCluster id: Int) throws(IndexError) -> Record {
        precondition(id >= 0 && id < count, "cluster id out of range")
        let entries = details.entries
        var (reader, first) = details.entries(fromBlockOf: id)
        var firstMember = 0
        for entry in first...id {
            guard let count = reader.next(), let member = reader.next() else {
                throw entries.corrupt("an entry runs past the section")
            }
            firstMember = entry % details.blockSize == 0 ? Int(member) : firstMember + Self.zigzag(member)
            var extras: VarintReader?
            if count > detailThreshold {
                guard let length = reader.next(), Int(length) <= reader.end - reader.position else {
                    throw entries.corrupt("an entry runs past the section")
                }
                extras = entries.varints(from: reader.position, to: reader.position + Int(length))
                reader = entries.varints(from: reader.position + Int(length))
            }
            guard entry == id else { continue }
            guard count >= 2, firstMember >= 0, Int(count) <= memberCount - firstMember else {
                throw entries.corrupt("cluster \(id) has \(count) members from \(firstMember) of \(memberCount)")
            }
            let stored = try extras.map { (extras) throws(IndexError) in try storedDetails(extras, of: id) }
            return Record(count: Int(count), firstMember: firstMember, stored: stored)
        }
        preconditionFailure("the loop returns at id")
    }

    /// The box and category counts of large cluster `id`, from the extras of its entry.
    private func storedDetails(
        _ extras: VarintReader, of id: Int
    ) throws(IndexError) -> (box: GeoBox, categories: [CategoryCount]) {
        var reader = extras
        func next() throws(IndexError) -> Int {
            guard let value = reader.next() else {
                throw details.entries.corrupt("the details of cluster \(id) run past their length")
            }
            return Int(value)
        }
        let (west, south, east, north) = (try next(), try next(), try next(), try next())
        var categories: [CategoryCount] = []
        var previous = -1
        for _ in 0..<(try next()) {
            let (number, count) = (try next(), try next())
            guard number > previous, number < categoryNames.count else {
                throw details.entries.corrupt(
                    "cluster \(id) counts category \(number) of \(categoryNames.count), or out of order")
            }
            categories.append(CategoryCount(categoryNames[number], count))
            previous = number
        }
        let point = try coordinate(ofCluster: id)
        let (longitude, latitude) = (Int(point.longitudeE7), Int(point.latitudeE7))
        guard
            let southWest = Coordinate(
                latitudeE7: Int32(clamping: latitude - south), longitudeE7: Int32(clamping: longitude - west)),
            let northEast = Coordinate(
                latitudeE7: Int32(clamping: latitude + north), longitudeE7: Int32(clamping: longitude + east))
        else { throw details.entries.corrupt("the box of cluster \(id) reaches off the Earth") }
        let box = GeoBox(
            westE7: southWest.longitudeE7, southE7: southWest.latitudeE7, eastE7: northEast.longitudeE7,
            northE7: northEast.latitudeE7)
        return (box, categories)
    }

    /// Calls `body` with the spots at positions `positions` of the member order.
    func forEachMember(at positions: Range<Int>, _ body: (Int) throws(IndexError) -> Void) throws(IndexError) {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= memberCount, "member positions out of range")
        guard !positions.isEmpty else { return }
        var (reader, position) = members.entries(fromBlockOf: positions.lowerBound)
        var spot = 0
        while position < positions.upperBound {
            guard let value = reader.next() else {
                throw members.entries.corrupt("the member order runs past the section")
            }
            // The first entry of every block is a spot number, the others a change from the one before.
            spot = position % members.blockSize == 0 ? Int(value) : spot + Self.zigzag(value)
            guard spot >= 0, spot < spotCount else {
                throw members.entries.corrupt("member \(position) is spot \(spot) of \(spotCount)")
            }
            if position >= positions.lowerBound { try body(spot) }
            position += 1
        }
    }

    // MARK: Spots

    /// The lowest zoom at which spot `spot` is shown as itself (0 for a spot in no cluster;
    /// `settings.maxZoom + 1` for one clustered at every zoom).
    public func visibleFrom(spot: Int) throws(IndexError) -> Int {
        let zoom = Int(spotVisibility.field(at: 0, of: spot) as UInt8)
        guard zoom <= settings.maxZoom + 1 else {
            throw spotVisibility.bytes.corrupt("spot \(spot) is shown from zoom \(zoom)")
        }
        return zoom
    }

    /// The lowest zoom at which any spot under the box of TREE at `position` (its place among
    /// all the tree's boxes, `PackedTreeView`) is shown as itself: a spatial search at a lower
    /// zoom skips the box.
    public func visibleFrom(treeBox position: Int) -> Int {
        Int(boxVisibility.field(at: 0, of: position) as UInt8)
    }

    private static func zigzag(_ value: UInt32) -> Int {
        Int(value >> 1) ^ -Int(value & 1)
    }
}
