import Foundation
import SeededRandom
import SpotIndex
import SpotTestSupport
import SpotText
import Spots
import Testing

@testable import SpotIndexWriting

/// The index's own structures: Hilbert order of the spots, the packed R-tree, the reference
/// table, the text index, and independence from input order.
@Suite("Index structure")
struct IndexStructureTests {
    static let metadata = IndexMetadata(generator: "g", buildTime: nil, inputs: [], bbox: nil, statistics: [:])

    static func withReader<T>(
        _ spots: [Spot], categoryWords: [String: [Category]] = [:], _ body: (SpotIndexReader) throws -> T
    ) throws -> T {
        try withTemporaryFile(
            SpotIndexWriter.encode(spots, metadata: metadata, words: SearchWords(categories: categoryWords))
        ) { path in
            try body(try SpotIndexReader(path: path))
        }
    }

    // MARK: Hilbert order

    /// The Hilbert index of (x, y) on a 2^16 × 2^16 grid, by the textbook algorithm (Wikipedia's
    /// `xy2d`), written independently of the writer's bit-twiddling version.
    static func hilbertIndex(_ x: UInt32, _ y: UInt32) -> UInt64 {
        var x = x
        var y = y
        var d: UInt64 = 0
        var s: UInt32 = 1 << 15
        while s > 0 {
            let rx: UInt32 = x & s != 0 ? 1 : 0
            let ry: UInt32 = y & s != 0 ? 1 : 0
            d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = 0xFFFF - x
                    y = 0xFFFF - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }

    /// The references of `spots` in the order the format prescribes: by the Hilbert index of the
    /// position scaled to 0...0xFFFF over the spots' extent, ties by reference.
    static func hilbertOrder(_ spots: [Spot]) -> [OSMRef] {
        guard let box = GeoBox(enclosing: spots.map(\.coordinate)) else { return [] }
        let width = max(1, Int64(box.eastE7) - Int64(box.westE7))
        let height = max(1, Int64(box.northE7) - Int64(box.southE7))
        func key(_ spot: Spot) -> UInt64 {
            let x = (Int64(spot.coordinate.longitudeE7) - Int64(box.westE7)) * 0xFFFF / width
            let y = (Int64(spot.coordinate.latitudeE7) - Int64(box.southE7)) * 0xFFFF / height
            return hilbertIndex(UInt32(x), UInt32(y))
        }
        return spots.map { (key($0), $0.ref) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1)
    }

    @Test("the textbook Hilbert curve visits the four quadrants of the grid in a U, starting at the origin")
    func textbookHilbert() {
        #expect(Self.hilbertIndex(0, 0) == 0)
        #expect(Self.hilbertIndex(0, 0xFFFF) < Self.hilbertIndex(0xFFFF, 0xFFFF))
        #expect(Self.hilbertIndex(0xFFFF, 0xFFFF) < Self.hilbertIndex(0xFFFF, 0))
        #expect(Self.hilbertIndex(0xFFFF, 0) == (1 << 32) - 1)
    }

    @Test(
        "spots are stored in Hilbert order of their position over the extent, ties by OSM reference",
        arguments: [41, 42] as [UInt64])
    func hilbertOrder(seed: UInt64) throws {
        var factory = SpotFactory(seed: seed)
        var spots = factory.uniqueSpots(300)
        // A city's worth of spots, some sharing a position.
        for i in 0..<200 {
            var spot = spots[i]
            spot.coordinate = Coordinate(
                latitudeE7: 601_000_000 + Int32(factory.int(0...2_000_000)),
                longitudeE7: 249_000_000 + Int32(factory.int(0...4_000_000)))!
            if i % 10 == 0 { spot.coordinate = Coordinate(latitudeE7: 601_500_000, longitudeE7: 250_000_000)! }
            spots[i] = spot
        }
        for subset in [spots, Array(spots[0..<200]), Array(spots[0..<1])] {
            try Self.withReader(subset) { reader throws in
                #expect(try (0..<reader.count).map { try reader.ref(at: $0) } == Self.hilbertOrder(subset))
            }
        }
    }

    /// A `side` × `side` grid of spots `step` apart, in shuffled input order, with each spot's grid column and row.
    static func grid(side: Int, step: Int32, seed: UInt64) -> [Spot] {
        var random = SplitMix64(seed: seed)
        var spots: [Spot] = []
        for row in 0..<side {
            for column in 0..<side {
                spots.append(
                    Spot(
                        ref: OSMRef(.node, Int64(row * side + column + 1)),
                        coordinate: Coordinate(
                            latitudeE7: 601_000_000 + Int32(row) * step, longitudeE7: 249_000_000 + Int32(column) * step
                        )!,
                        tagKey: "amenity", kind: "bench", category: nil))
            }
        }
        return spots.shuffled(using: &random)
    }

    @Test("spots near each other on the map are near each other in the file: a grid's tree boxes are compact squares")
    func gridLocality() throws {
        let side = 64
        let step: Int32 = 10_000
        try Self.withReader(Self.grid(side: side, step: step, seed: 5)) { reader in
            #expect(reader.tree.levelCounts == [256, 16, 1])
            // Each box's extent in grid cells, columns × rows.
            func cells(_ box: GeoBox) -> (columns: Int, rows: Int) {
                (Int((box.eastE7 - box.westE7) / step) + 1, Int((box.northE7 - box.southE7) / step) + 1)
            }
            // 16 consecutive spots on the Hilbert curve of a 64 × 64 grid fill a 4 × 4 square, and 256 a
            // 16 × 16 one. Input (row) order would give 16 × 1 strips, and random order boxes as big as the grid.
            let level0 = (0..<256).map { cells(reader.tree.box(level: 0, node: $0)) }
            #expect(
                level0.allSatisfy { $0.columns == 4 && $0.rows == 4 },
                "\(level0.filter { $0.columns != 4 || $0.rows != 4 })")
            let level1 = (0..<16).map { cells(reader.tree.box(level: 1, node: $0)) }
            #expect(level1.allSatisfy { $0.columns == 16 && $0.rows == 16 }, "\(level1)")
            // Consecutive spots in the file are neighbours on the grid: the curve never jumps.
            let positions = try (0..<reader.count).map { try reader.coordinate(at: $0) }
            let steps = zip(positions, positions.dropFirst()).map { a, b in
                (abs(a.latitudeE7 - b.latitudeE7) + abs(a.longitudeE7 - b.longitudeE7)) / step
            }
            #expect(steps.allSatisfy { $0 == 1 }, "\(steps.enumerated().filter { $0.element != 1 }.prefix(10))")
        }
    }

    // MARK: Tree

    static func union(_ boxes: [[Int32]]) -> [Int32] {
        boxes.dropFirst().reduce(into: boxes[0]) { box, other in
            box = [min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]), max(box[3], other[3])]
        }
    }

    static func corners(_ box: GeoBox) -> [Int32] { [box.westE7, box.southE7, box.eastE7, box.northE7] }

    static func contains(_ outer: [Int32], _ inner: [Int32]) -> Bool {
        outer[0] <= inner[0] && outer[1] <= inner[1] && inner[2] <= outer[2] && inner[3] <= outer[3]
    }

    @Test(
        "every tree box holds its children's boxes or points, exactly, on every level; the root holds every spot",
        arguments: [1, 2, 15, 16, 17, 255, 256, 257, 1_000])
    func treeContainsChildren(count: Int) throws {
        var factory = SpotFactory(seed: UInt64(7_000 + count))
        let spots = factory.uniqueSpots(count)
        try Self.withReader(spots) { reader in
            #expect(reader.tree.nodeSize == 16)
            var expectedCounts: [Int] = []
            var below = count
            repeat {
                below = (below + 15) / 16
                expectedCounts.append(below)
            } while below > 1
            #expect(reader.tree.levelCounts == expectedCounts)
            var children = try (0..<reader.count).map { position -> [Int32] in
                let point = try reader.coordinate(at: position)
                return [point.longitudeE7, point.latitudeE7, point.longitudeE7, point.latitudeE7]
            }
            for (level, boxes) in reader.tree.levelCounts.enumerated() {
                let parents = (0..<boxes).map { Self.corners(reader.tree.box(level: level, node: $0)) }
                for (index, parent) in parents.enumerated() {
                    let own = Array(children[(index * 16)..<min(index * 16 + 16, children.count)])
                    #expect(!own.isEmpty)
                    #expect(
                        own.allSatisfy { Self.contains(parent, $0) }, "level \(level) box \(index) holds its children")
                    #expect(parent == Self.union(own), "level \(level) box \(index) is no bigger than its children")
                }
                children = parents
            }
            let extent = try #require(GeoBox(enclosing: spots.map(\.coordinate)))
            #expect(children == [Self.corners(extent)])
            #expect(reader.tree.bounds == (count == 0 ? nil : extent))
        }
    }

    // MARK: References

    @Test("the reference table finds every own and merged reference, at the spot that holds it, and nothing else")
    func referenceLookup() throws {
        var factory = SpotFactory(seed: 77)
        let spots = factory.uniqueSpots(300)
        let all = Set(spots.flatMap { [$0.ref] + $0.merged })
        #expect(all.count == spots.count + spots.map(\.merged.count).reduce(0, +))
        #expect(spots.contains { !$0.merged.isEmpty })
        try Self.withReader(spots) { reader in
            for spot in spots {
                let position = try #require(try reader.spotNumber(for: spot.ref), "\(spot.ref)")
                #expect(try reader.ref(at: position) == spot.ref)
                for merged in spot.merged {
                    #expect(try reader.spotNumber(for: merged) == position, "\(merged) merged into \(spot.ref)")
                }
                #expect(try reader.spot(at: position).merged == spot.merged)
            }
            // Neighbours of every reference, by id and by type, and the ends of the id range.
            var absent: Set<OSMRef> = []
            for ref in all {
                if ref.id > Int64.min { absent.insert(OSMRef(ref.type, ref.id - 1)) }
                if ref.id < Int64.max { absent.insert(OSMRef(ref.type, ref.id + 1)) }
                for type in OSMType.allCases { absent.insert(OSMRef(type, ref.id)) }
            }
            for type in OSMType.allCases {
                for id in [Int64.min, Int64.max, 0, -1, 1] { absent.insert(OSMRef(type, id)) }
            }
            absent.subtract(all)
            #expect(absent.count > 1_000)
            for ref in absent {
                #expect(try reader.spotNumber(for: ref) == nil, "\(ref) is not in the index")
            }
            // Every spot, in the order of its own reference; stopping when asked.
            var inOrder: [OSMRef] = []
            try reader.forEachSpotInReferenceOrder { position in
                inOrder.append(try reader.ref(at: position))
                return true
            }
            #expect(inOrder == spots.map(\.ref).sorted())
            var visited = 0
            try reader.forEachSpotInReferenceOrder { _ in
                visited += 1
                return visited < 10
            }
            #expect(visited == 10)
        }
    }

    // MARK: Kind lists

    @Test(
        "each kind's list holds exactly the spots of that kind number, in reference order, and the lists cover every spot once",
        arguments: zip([61, 62, 63, 64, 65] as [UInt64], [300, 1_000, 17, 1, 0]))
    func kindLists(seed: UInt64, count: Int) throws {
        var factory = SpotFactory(seed: seed)
        var spots = factory.uniqueSpots(count)
        // One kind shared by a third of the spots, so that long lists interleave with short ones in the file.
        for i in stride(from: 0, to: count, by: 3) {
            spots[i].tagKey = "amenity"
            spots[i].kind = "bench"
            spots[i].category = nil
        }
        try Self.withReader(spots) { reader in
            #expect(reader.count == count)
            let kindOf = try (0..<reader.count).map { try reader.kindNumber(at: $0) }
            let refOf = try (0..<reader.count).map { try reader.ref(at: $0) }
            let rankOf = try (0..<reader.count).map { try reader.spot(atRank: $0) }
            #expect(
                rankOf.map { refOf[$0] } == spots.map(\.ref).sorted(),
                "spot(atRank:) walks the spots in reference order")
            #expect(
                try rankOf.indices.allSatisfy { rank in try reader.referenceRank(of: rankOf[rank]) == rank },
                "referenceRank(of:) is spot(atRank:)'s inverse")
            var covered: [Int] = []
            for (kind, spotKind) in reader.kinds.enumerated() {
                var rankList = try reader.kindList(ofKind: kind)
                let length = rankList.remaining
                let ranks = try rankList.drain()
                #expect(ranks.count == length && rankList.remaining == 0, "kind \(kind): remaining counts down to 0")
                #expect(try rankList.next() == nil, "kind \(kind): a list read to its end stays at its end")
                #expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 }, "kind \(kind): ranks ascend")
                let heldRanks = HeldRanks(ranks)
                try withExtendedLifetime(heldRanks) {
                    var held = heldRanks.list
                    let drained = try held.drain()
                    #expect(drained == ranks && held.remaining == 0, "kind \(kind): a list held in memory")
                    #expect(try held.next() == nil, "kind \(kind): a list held in memory reads as the stored one")
                }
                let list = try ranks.map { try reader.spot(atRank: $0) }
                // By the reader's own kind numbers and references.
                let expected = (0..<reader.count).filter { kindOf[$0] == kind }.sorted { refOf[$0] < refOf[$1] }
                #expect(list == expected, "kind \(kind)")
                #expect(!list.isEmpty, "kind \(kind) exists because a spot has it")
                // By the spots as written: those with this selecting tag and category, by reference.
                let written = spots.filter { spot in
                    Array(spot.tagKey.utf8) == Array(spotKind.key.utf8)
                        && Array(spot.kind.utf8) == Array(spotKind.value.utf8)
                        && spot.category == spotKind.category
                }
                #expect(list.map { refOf[$0] } == written.map(\.ref).sorted(), "kind \(kind) as written")
                covered += ranks
            }
            #expect(covered.sorted() == Array(0..<reader.count), "every spot in one list, once")
            if count >= 300 {
                #expect(reader.kinds.count > 10, "many kinds")
                let bench = try #require(
                    reader.kinds.firstIndex { $0.key == "amenity" && $0.value == "bench" && $0.category == nil })
                #expect(try reader.kindList(ofKind: bench).remaining >= count / 3)
            }
        }
    }

    // MARK: Reproducibility

    @Test("encoding the same spots and words in any input order gives identical bytes")
    func inputOrderIndependence() throws {
        var factory = SpotFactory(seed: 55)
        var spots = factory.uniqueSpots(200)
        // Some spots sharing one position, whose order only the reference decides.
        for i in stride(from: 0, to: 200, by: 9) {
            spots[i].coordinate = Coordinate(latitudeE7: 123_456, longitudeE7: -654_321)!
        }
        let metadata = factory.metadata(count: spots.count)
        let words = factory.categoryWords().merging(["cafe": [.cafe, .bakery], "kahvila": [.cafe]]) { $1 }
        var reversedWords: [String: [Category]] = [:]
        for key in words.keys.sorted().reversed() { reversedWords[key] = words[key]!.reversed() }
        let first = SpotIndexWriter.encode(spots, metadata: metadata, words: SearchWords(categories: words))
        var random = SplitMix64(seed: 56)
        let orders =
            [Array(spots.reversed()), spots.sorted { $0.ref < $1.ref }, spots.sorted { $0.ref > $1.ref }]
            + (0..<5).map { _ in spots.shuffled(using: &random) }
        for (number, order) in orders.enumerated() {
            #expect(
                SpotIndexWriter.encode(
                    order, metadata: metadata, words: SearchWords(categories: number % 2 == 0 ? reversedWords : words))
                    == first,
                "order \(number)")
        }
        // Spots that all share one position, so that only the reference orders them.
        let place = Coordinate(latitudeE7: 5, longitudeE7: 5)!
        let together = (0..<60).map { (i: Int) -> Spot in
            let ref = OSMRef(OSMType.allCases[i % 3], Int64(30 - i / 3))
            let kind = i % 2 == 0 ? "cafe" : "bench"
            return Spot(ref: ref, coordinate: place, tagKey: "amenity", kind: kind, category: nil, name: "n\(i % 7)")
        }
        for _ in 0..<3 {
            #expect(
                SpotIndexWriter.encode(together.shuffled(using: &random), metadata: metadata)
                    == SpotIndexWriter.encode(together, metadata: metadata))
        }
    }
}
