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

    private let file: String
    private let spotCount: Int
    /// The first cluster made at each zoom from 0 to the maximum, then `count`.
    private let zoomStarts: [Int]
    private let categoryNames: [Category]
    private let points: UnsafeRawBufferPointer
    private let visibility: UnsafeRawBufferPointer
    /// Per zoom made at, the tree over the points of its clusters, and per box of it the lowest
    /// zoom from which a cluster under it is shown.
    private let trees: [(tree: PackedTreeView, lowest: UnsafeRawBufferPointer)]
    private let detailBlockSize: Int
    private let detailOffsets: UnsafeRawBufferPointer
    private let details: UnsafeRawBufferPointer
    private let memberBlockSize: Int
    private let memberOffsets: UnsafeRawBufferPointer
    private let members: UnsafeRawBufferPointer
    private let spotVisibility: UnsafeRawBufferPointer
    /// Per box of TREE, by position, the lowest zoom from which a spot under it is shown.
    private let boxVisibility: UnsafeRawBufferPointer

    /// Checks the five sections' headers and lengths against each other, the spot count and
    /// the boxes of TREE (`spotTree`).
    init(
        clusters: UnsafeRawBufferPointer, trees: UnsafeRawBufferPointer, details: UnsafeRawBufferPointer, members: UnsafeRawBufferPointer,
        visibility: UnsafeRawBufferPointer, spotCount: Int, spotTree: PackedTreeView, file: String
    ) throws(IndexError) {
        self.file = file
        self.spotCount = spotCount
        func corrupt(_ section: String, _ message: String) -> IndexError { IndexError(.corrupt, file: file, section: section, message) }

        guard clusters.count >= 32 else { throw corrupt("CLUS", "too short") }
        let maxZoom = Int(clusters.load(0) as UInt32)
        count = Int(clusters.load(4) as UInt32)
        memberCount = Int(clusters.load(8) as UInt32)
        detailThreshold = Int(clusters.load(12) as UInt32)
        let radius = Double(bitPattern: clusters.load(16))
        let extent = Double(bitPattern: clusters.load(24))
        guard ClusterSettings.maxZoomRange.contains(maxZoom), ClusterSettings.radiusRange.contains(radius),
            ClusterSettings.extentRange.contains(extent)
        else { throw corrupt("CLUS", "settings out of range") }
        settings = ClusterSettings(maxZoom: maxZoom, radius: radius, extent: extent)
        guard count <= spotCount, memberCount <= spotCount else { throw corrupt("CLUS", "more clusters or members than spots") }
        let namesStart = 32 + 4 * (maxZoom + 2)
        guard clusters.count >= namesStart + 4 else { throw corrupt("CLUS", "too short") }
        var starts: [Int] = []
        for zoom in 0...maxZoom + 1 {
            let start = Int(clusters.load(32 + 4 * zoom) as UInt32)
            guard start >= (starts.last ?? 0), start <= count else { throw corrupt("CLUS", "zoom starts do not ascend to the cluster count") }
            starts.append(start)
        }
        guard starts.first == 0, starts.last == count else { throw corrupt("CLUS", "zoom starts do not run from 0 to the cluster count") }
        zoomStarts = starts
        let namesLength = Int(clusters.load(namesStart) as UInt32)
        guard namesLength <= clusters.count - namesStart - 4 else { throw corrupt("CLUS", "category names run past the section") }
        var names: [Category] = []
        for line in UnsafeRawBufferPointer(rebasing: clusters[namesStart + 4..<namesStart + 4 + namesLength]).split(separator: 0x0A) {
            guard let category = Category(rawValue: String(decoding: line, as: UTF8.self)), names.last.map({ $0.rawValue < category.rawValue }) ?? true else {
                throw corrupt("CLUS", "an unknown category name, or names out of order")
            }
            names.append(category)
        }
        categoryNames = names
        let pointsStart = (namesStart + 4 + namesLength + 3) / 4 * 4
        guard clusters.count == pointsStart + 9 * count else { throw corrupt("CLUS", "length does not match \(count) clusters") }
        points = UnsafeRawBufferPointer(rebasing: clusters[pointsStart..<pointsStart + 8 * count])
        self.visibility = UnsafeRawBufferPointer(rebasing: clusters[(pointsStart + 8 * count)...])

        guard trees.count >= 8 else { throw corrupt("CTRE", "too short") }
        let nodeSize = Int(trees.load(0) as UInt32)
        guard nodeSize >= 2, nodeSize <= 1 << 16, trees.load(4) as UInt32 == 0 else { throw corrupt("CTRE", "bad node size") }
        let levelCounts = (0...maxZoom).map { zoom in
            PackedTree.levelCounts(items: starts[zoom + 1] - starts[zoom], nodeSize: nodeSize)
        }
        let boxCount = levelCounts.joined().reduce(0, +)
        guard trees.count == 8 + (IndexLayout.boxSize + 1) * boxCount else {
            throw corrupt("CTRE", "length does not match the trees of \(count) clusters")
        }
        // The boxes of every zoom's tree, then the lowest byte of every box.
        let lowestStart = 8 + IndexLayout.boxSize * boxCount
        var firstBox = 0
        self.trees = (0...maxZoom).map { zoom in
            let boxes = firstBox..<firstBox + levelCounts[zoom].reduce(0, +)
            firstBox = boxes.upperBound
            let boxBytes = 8 + IndexLayout.boxSize * boxes.lowerBound..<8 + IndexLayout.boxSize * boxes.upperBound
            let tree = PackedTreeView(
                boxes: UnsafeRawBufferPointer(rebasing: trees[boxBytes]), levelCounts: levelCounts[zoom],
                itemCount: starts[zoom + 1] - starts[zoom], nodeSize: nodeSize)
            return (tree, UnsafeRawBufferPointer(rebasing: trees[lowestStart + boxes.lowerBound..<lowestStart + boxes.upperBound]))
        }

        (detailBlockSize, detailOffsets, self.details) = try Self.blocks(details, entries: count, section: "CDET", file: file)
        (memberBlockSize, memberOffsets, self.members) = try Self.blocks(members, entries: memberCount, section: "CMEM", file: file)

        guard visibility.count == spotCount + spotTree.boxCount else {
            throw corrupt("SVIS", "length does not match the spots and tree boxes")
        }
        spotVisibility = UnsafeRawBufferPointer(rebasing: visibility[..<spotCount])
        boxVisibility = UnsafeRawBufferPointer(rebasing: visibility[spotCount...])
    }

    /// A blocked section's block size, block offsets and entries.
    private static func blocks(
        _ section: UnsafeRawBufferPointer, entries: Int, section name: String, file: String
    ) throws(IndexError) -> (Int, UnsafeRawBufferPointer, UnsafeRawBufferPointer) {
        let blockSize = section.count >= 4 ? Int(section.load(0) as UInt32) : 0
        let blocks = blockSize < 1 ? -1 : (entries + blockSize - 1) / blockSize
        guard blocks >= 0, 4 + 4 * blocks <= section.count else {
            throw IndexError(.corrupt, file: file, section: name, "bad block size, or its block offsets do not fit")
        }
        return (blockSize, UnsafeRawBufferPointer(rebasing: section[4..<4 + 4 * blocks]), UnsafeRawBufferPointer(rebasing: section[(4 + 4 * blocks)...]))
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
        guard let coordinate = Coordinate(latitudeE7: points.load(8 * id), longitudeE7: points.load(8 * id + 4)) else {
            throw corrupt("CLUS", "cluster \(id) has an impossible coordinate")
        }
        return coordinate
    }

    /// The lowest zoom at which cluster `id` is shown.
    public func visibleFrom(cluster id: Int) throws(IndexError) -> Int {
        let zoom = Int(visibility[id])
        guard zoom <= self.zoom(ofCluster: id) else { throw corrupt("CLUS", "cluster \(id) is shown from zoom \(zoom), above the zoom it was made at") }
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
            try tree.search(box, skipping: { Int(lowest[$0]) > zoom }) { (items) throws(IndexError) in
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
        let block = id / detailBlockSize
        var reader = VarintReader(details, from: Int(detailOffsets.load(4 * block) as UInt32))
        var firstMember = 0
        for entry in block * detailBlockSize...id {
            guard let count = reader.next(), let member = reader.next() else { throw corrupt("CDET", "an entry runs past the section") }
            firstMember = entry % detailBlockSize == 0 ? Int(member) : firstMember + Self.zigzag(member)
            var extras: VarintReader?
            if count > detailThreshold {
                guard let length = reader.next(), Int(length) <= reader.end - reader.position else { throw corrupt("CDET", "an entry runs past the section") }
                extras = VarintReader(details, from: reader.position, to: reader.position + Int(length))
                reader = VarintReader(details, from: reader.position + Int(length))
            }
            guard entry == id else { continue }
            guard count >= 2, firstMember >= 0, Int(count) <= memberCount - firstMember else {
                throw corrupt("CDET", "cluster \(id) has \(count) members from \(firstMember) of \(memberCount)")
            }
            return Record(count: Int(count), firstMember: firstMember, stored: try extras.map { (extras) throws(IndexError) in try storedDetails(extras, of: id) })
        }
        preconditionFailure("the loop returns at id")
    }

    /// The box and category counts of large cluster `id`, from the extras of its entry.
    private func storedDetails(
        _ extras: VarintReader, of id: Int
    ) throws(IndexError) -> (box: GeoBox, categories: [CategoryCount]) {
        var reader = extras
        func next() throws(IndexError) -> Int {
            guard let value = reader.next() else { throw corrupt("CDET", "the details of cluster \(id) run past their length") }
            return Int(value)
        }
        let (west, south, east, north) = (try next(), try next(), try next(), try next())
        var categories: [CategoryCount] = []
        var previous = -1
        for _ in 0..<(try next()) {
            let (number, count) = (try next(), try next())
            guard number > previous, number < categoryNames.count else {
                throw corrupt("CDET", "cluster \(id) counts category \(number) of \(categoryNames.count), or out of order")
            }
            categories.append(CategoryCount(categoryNames[number], count))
            previous = number
        }
        let point = try coordinate(ofCluster: id)
        let (longitude, latitude) = (Int(point.longitudeE7), Int(point.latitudeE7))
        guard let southWest = Coordinate(latitudeE7: Int32(clamping: latitude - south), longitudeE7: Int32(clamping: longitude - west)),
            let northEast = Coordinate(latitudeE7: Int32(clamping: latitude + north), longitudeE7: Int32(clamping: longitude + east))
        else { throw corrupt("CDET", "the box of cluster \(id) reaches off the Earth") }
        let box = GeoBox(
            westE7: southWest.longitudeE7, southE7: southWest.latitudeE7, eastE7: northEast.longitudeE7,
            northE7: northEast.latitudeE7)
        return (box, categories)
    }

    /// Calls `body` with the spots at positions `positions` of the member order.
    func forEachMember(at positions: Range<Int>, _ body: (Int) throws(IndexError) -> Void) throws(IndexError) {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= memberCount, "member positions out of range")
        guard !positions.isEmpty else { return }
        var position = positions.lowerBound / memberBlockSize * memberBlockSize
        var reader = VarintReader(members, from: Int(memberOffsets.load(4 * (position / memberBlockSize)) as UInt32))
        var spot = 0
        while position < positions.upperBound {
            guard let value = reader.next() else { throw corrupt("CMEM", "the member order runs past the section") }
            spot = position % memberBlockSize == 0 ? Int(value) : spot + Self.zigzag(value)
            guard spot >= 0, spot < spotCount else { throw corrupt("CMEM", "member \(position) is spot \(spot) of \(spotCount)") }
            if position >= positions.lowerBound { try body(spot) }
            position += 1
        }
    }

    // MARK: Spots

    /// The lowest zoom at which spot `spot` is shown as itself (0 for a spot in no cluster;
    /// `settings.maxZoom + 1` for one clustered at every zoom).
    public func visibleFrom(spot: Int) throws(IndexError) -> Int {
        let zoom = Int(spotVisibility[spot])
        guard zoom <= settings.maxZoom + 1 else { throw corrupt("SVIS", "spot \(spot) is shown from zoom \(zoom)") }
        return zoom
    }

    /// The lowest zoom at which any spot under the box of TREE at `position` (its place among
    /// all the tree's boxes, `PackedTreeView`) is shown as itself: a spatial search at a lower
    /// zoom skips the box.
    public func visibleFrom(treeBox position: Int) -> Int {
        Int(boxVisibility[position])
    }

    private static func zigzag(_ value: UInt32) -> Int {
        Int(value >> 1) ^ -Int(value & 1)
    }

    private func corrupt(_ section: String, _ message: String) -> IndexError {
        IndexError(.corrupt, file: file, section: section, message)
    }
}
