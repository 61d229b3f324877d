import SeededRandom
import Foundation
import SpotIndex
import Spots
import SpotTestSupport
import Testing

/// The index's own structures: Hilbert order of the spots, the packed R-tree, the reference
/// table, the text index, and independence from input order.
@Suite("Index structure")
struct IndexStructureTests {
    static let metadata = IndexMetadata(generator: "g", buildTime: nil, inputs: [], bbox: nil, statistics: [:])

    static func withReader<T>(_ spots: [Spot], categoryWords: [String: [Category]] = [:], _ body: (SpotIndexReader) throws -> T) throws -> T {
        try withTemporaryFile(SpotIndexWriter.encode(spots, metadata: metadata, categoryWords: categoryWords)) { path in
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

    @Test("spots are stored in Hilbert order of their position over the extent, ties by OSM reference", arguments: [41, 42] as [UInt64])
    func hilbertOrder(seed: UInt64) throws {
        var factory = SpotFactory(seed: seed)
        var spots = factory.uniqueSpots(300)
        // A city's worth of spots, some sharing a position.
        for i in 0..<200 {
            var spot = spots[i]
            spot.coordinate = Coordinate(latitudeE7: 601_000_000 + Int32(factory.int(0...2_000_000)), longitudeE7: 249_000_000 + Int32(factory.int(0...4_000_000)))!
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
                spots.append(Spot(
                    ref: OSMRef(.node, Int64(row * side + column + 1)),
                    coordinate: Coordinate(latitudeE7: 601_000_000 + Int32(row) * step, longitudeE7: 249_000_000 + Int32(column) * step)!,
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
            #expect(level0.allSatisfy { $0.columns == 4 && $0.rows == 4 }, "\(level0.filter { $0.columns != 4 || $0.rows != 4 })")
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

    @Test("every tree box holds its children's boxes or points, exactly, on every level; the root holds every spot",
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
                    #expect(own.allSatisfy { Self.contains(parent, $0) }, "level \(level) box \(index) holds its children")
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

    @Test("each kind's list holds exactly the spots of that kind number, in reference order, and the lists cover every spot once",
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
            #expect(rankOf.map { refOf[$0] } == spots.map(\.ref).sorted(), "spot(atRank:) walks the spots in reference order")
            var covered: [Int] = []
            for (kind, spotKind) in reader.kinds.enumerated() {
                var rankList = try reader.kindList(ofKind: kind)
                let length = rankList.remaining
                let ranks = try rankList.drain()
                #expect(ranks.count == length && rankList.remaining == 0, "kind \(kind): remaining counts down to 0")
                #expect(try rankList.next() == nil, "kind \(kind): a list read to its end stays at its end")
                #expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 }, "kind \(kind): ranks ascend")
                let list = try ranks.map { try reader.spot(atRank: $0) }
                // By the reader's own kind numbers and references.
                let expected = (0..<reader.count).filter { kindOf[$0] == kind }.sorted { refOf[$0] < refOf[$1] }
                #expect(list == expected, "kind \(kind)")
                #expect(!list.isEmpty, "kind \(kind) exists because a spot has it")
                // By the spots as written: those with this selecting tag and category, by reference.
                let written = spots.filter { spot in
                    Array(spot.tagKey.utf8) == Array(spotKind.key.utf8) && Array(spot.kind.utf8) == Array(spotKind.value.utf8)
                        && spot.category == spotKind.category
                }
                #expect(list.map { refOf[$0] } == written.map(\.ref).sorted(), "kind \(kind) as written")
                covered += ranks
            }
            #expect(covered.sorted() == Array(0..<reader.count), "every spot in one list, once")
            if count >= 300 {
                #expect(reader.kinds.count > 10, "many kinds")
                let bench = try #require(reader.kinds.firstIndex { $0.key == "amenity" && $0.value == "bench" && $0.category == nil })
                #expect(try reader.kindList(ofKind: bench).remaining >= count / 3)
            }
        }
    }

    // MARK: Text

    /// The spots whose tokens start with `query` (one folded word), each with whether such a token starts one of its names.
    static func search(_ reader: SpotIndexReader, _ query: String) throws -> [OSMRef: Bool] {
        let words = SearchText.words(query)
        precondition(words.count == 1, "one word: \(query)")
        var found: [OSMRef: Bool] = [:]
        for token in try reader.tokens(withPrefix: Array(words[0].utf8)) {
            let lists = try reader.postingRanks(ofToken: token)
            for (ranks, startsName) in [(lists.starting, true), (lists.others, false)] {
                for rank in ranks {
                    let ref = try reader.ref(at: try reader.spot(atRank: rank))
                    found[ref] = found[ref] == true || startsName
                }
            }
        }
        return found
    }

    static let namedSpots: [Spot] = {
        func spot(_ id: Int64, _ name: String?, _ latitudeE7: Int32, names: [String: String] = [:], other: [String: String] = [:]) -> Spot {
            var spot = Spot(
                ref: OSMRef(.node, id), coordinate: Coordinate(latitudeE7: latitudeE7, longitudeE7: 1_000_000 * Int32(id))!,
                tagKey: "amenity", kind: "cafe", category: .cafe, name: name, names: names)
            spot.otherNames = other
            return spot
        }
        return [
            spot(1, "Café Central", 480_000_000, names: ["de": "Kaffeehaus Zentral"]),
            spot(2, "Central Station", 10_000_000, other: ["alt_name": "Rautatieasema"]),
            spot(3, "姫路城", 348_000_000, names: ["ja": "姫路城", "en": "Himeji Castle"]),
            spot(4, "東京タワー", 356_000_000),
            spot(5, "서울역", 375_000_000),
            spot(6, "Ｃａｆｅ Ｌｕｎａ", -10_000_000),
            spot(7, "Zürich Hauptbahnhof", 473_000_000),
            spot(8, "Санкт-Петербург", 599_000_000),
            spot(9, "Ōsaka 大阪駅", 347_000_000),
            spot(10, nil, 0),
        ]
    }()

    @Test("the text index finds name words by prefix, CJK names by any substring, in every kind of name")
    func textSearch() throws {
        func refs(_ ids: Int64...) -> Set<OSMRef> { Set(ids.map { OSMRef(.node, $0) }) }
        try Self.withReader(Self.namedSpots) { reader throws in
            let cases: [(String, Set<OSMRef>)] = [
                ("caf", refs(1, 6)), ("CAFÉ", refs(1, 6)), ("Ｃａｆ", refs(1, 6)), ("central", refs(1, 2)), ("cent", refs(1, 2)),
                ("zentral", refs(1)), ("kaffee", refs(1)), ("rautatie", refs(2)), ("himeji", refs(3)), ("castle", refs(3)),
                ("zur", refs(7)), ("hauptbahn", refs(7)), ("петер", refs(8)), ("санкт", refs(8)), ("osa", refs(9)), ("luna", refs(6)),
                // CJK: any substring, since every suffix is a token.
                ("姫", refs(3)), ("路", refs(3)), ("路城", refs(3)), ("城", refs(3)), ("姫路城", refs(3)),
                ("タワ", refs(4)), ("ワー", refs(4)), ("京タ", refs(4)), ("울", refs(5)), ("울역", refs(5)), ("阪駅", refs(9)), ("駅", refs(9)),
                // Latin, Cyrillic: words by prefix only, not inside a word.
                ("entral", []), ("bahnhof", []), ("тербург", []), ("astle", []), ("x", []),
            ]
            for (query, expected) in cases {
                #expect(Set(try Self.search(reader, query).keys) == expected, "\(query)")
                let postings = try reader.allPostings(ofTokens: try reader.tokens(withPrefix: Array(SearchText.words(query)[0].utf8)))
                #expect(Set(try postings.map { try reader.ref(at: $0.spot) }) == expected, "\(query) by forEachPosting")
            }
            // Whether the token starts a name: "central" starts "Central Station" but not "Café Central".
            #expect(try Self.search(reader, "central") == [OSMRef(.node, 1): false, OSMRef(.node, 2): true])
            #expect(try Self.search(reader, "zentral") == [OSMRef(.node, 1): false])
            #expect(try Self.search(reader, "castle") == [OSMRef(.node, 3): false])
            #expect(try Self.search(reader, "himeji") == [OSMRef(.node, 3): true])
            #expect(try Self.search(reader, "路城") == [OSMRef(.node, 3): false])
            #expect(try Self.search(reader, "姫路") == [OSMRef(.node, 3): true])
            #expect(try Self.search(reader, "rautatieasema") == [OSMRef(.node, 2): true])
            #expect(try Self.search(reader, "大阪") == [OSMRef(.node, 9): false])
        }
    }

    @Test("the reader gives each token's spots as the names give them, in two lists, those whose name the token starts and the others, each in reference order",
          arguments: [91, 92] as [UInt64])
    func textTables(seed: UInt64) throws {
        var factory = SpotFactory(seed: seed)
        let spots = factory.uniqueSpots(200, excluding: Set(Self.namedSpots.map(\.ref))) + Self.namedSpots
        let expected = ExpectedIndex(spots)
        try Self.withReader(spots) { reader in
            #expect(reader.tokenCount == expected.tokens.count)
            #expect(try reader.tokens(withPrefix: []) == 0..<expected.tokens.count, "every token has the empty prefix")
            let spotOfRank = try (0..<reader.count).map { try reader.spot(atRank: $0) }
            #expect(try spotOfRank.map { try reader.ref(at: $0) } == expected.refs)
            for (number, token) in expected.tokens.enumerated() {
                let comment: Comment = "token \(String(decoding: token, as: UTF8.self).debugDescription)"
                let want = expected.postings[number]
                let read = try reader.postingRanks(ofToken: number)
                #expect(read.starting == want.starting, comment)
                #expect(read.others == want.others, comment)
                // forEachPosting gives the same, as spot numbers: the name-starting spots first.
                let each = try reader.allPostings(ofTokens: number..<number + 1)
                #expect(each.map(\.spot) == (want.starting + want.others).map { spotOfRank[$0] }, comment)
                #expect(each.map(\.startsName) == want.starting.map { _ in true } + want.others.map { _ in false }, comment)
                // A token is found by itself as a prefix, first of the tokens it starts.
                let range = try reader.tokens(withPrefix: token)
                #expect(range.lowerBound == number, comment)
                #expect(range.upperBound == expected.tokens[number...].firstIndex { !$0.starts(with: token) } ?? expected.tokens.count, comment)
            }
            // forEachPosting over a range goes token by token.
            let all = try reader.allPostings(ofTokens: 0..<expected.tokens.count)
            #expect(all.map(\.spot) == expected.postings.flatMap { ($0.starting + $0.others).map { spotOfRank[$0] } })
        }
    }

    @Test("every word of every name is found by each of its prefixes, every CJK word by each of its substrings")
    func everyWordFound() throws {
        var factory = SpotFactory(seed: 93)
        let spots = factory.uniqueSpots(150, excluding: Set(Self.namedSpots.map(\.ref))) + Self.namedSpots
        try Self.withReader(spots) { reader in
            var memo: [String: Set<Int>] = [:]
            func found(_ query: String) throws -> Set<Int> {
                if let known = memo[query] { return known }
                var result: Set<Int> = []
                result.formUnion(try reader.allPostings(ofTokens: try reader.tokens(withPrefix: Array(query.utf8))).map(\.spot))
                memo[query] = result
                return result
            }
            var queries = 0
            var cjkWords = 0
            for spot in spots {
                let position = try #require(try reader.spotNumber(for: spot.ref))
                for name in spot.allNames {
                    for word in SearchText.words(name) {
                        let characters = Array(word)
                        let isCJK = word.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) || (0xAC00...0xD7AF).contains($0.value) }
                        if isCJK { cjkWords += 1 }
                        for start in isCJK ? Array(characters.indices) : [0] {
                            for end in (start + 1)...characters.count {
                                let query = String(characters[start..<end])
                                queries += 1
                                #expect(try found(query).contains(position), "\(spot.ref) by \(query.debugDescription) of \(name.debugDescription)")
                            }
                        }
                    }
                }
            }
            #expect(queries > 1_000)
            #expect(cjkWords > 10)
        }
    }

    // MARK: Reproducibility

    @Test("encoding the same spots and words in any input order gives identical bytes")
    func inputOrderIndependence() throws {
        var factory = SpotFactory(seed: 55)
        var spots = factory.uniqueSpots(200)
        // Some spots sharing one position, whose order only the reference decides.
        for i in stride(from: 0, to: 200, by: 9) { spots[i].coordinate = Coordinate(latitudeE7: 123_456, longitudeE7: -654_321)! }
        let metadata = factory.metadata(count: spots.count)
        let words = factory.categoryWords().merging(["cafe": [.cafe, .bakery], "kahvila": [.cafe]]) { $1 }
        var reversedWords: [String: [Category]] = [:]
        for key in words.keys.sorted().reversed() { reversedWords[key] = words[key]!.reversed() }
        let first = SpotIndexWriter.encode(spots, metadata: metadata, categoryWords: words)
        var random = SplitMix64(seed: 56)
        let orders = [Array(spots.reversed()), spots.sorted { $0.ref < $1.ref }, spots.sorted { $0.ref > $1.ref }]
            + (0..<5).map { _ in spots.shuffled(using: &random) }
        for (number, order) in orders.enumerated() {
            #expect(SpotIndexWriter.encode(order, metadata: metadata, categoryWords: number % 2 == 0 ? reversedWords : words) == first, "order \(number)")
        }
        // Spots that all share one position, so that only the reference orders them.
        let place = Coordinate(latitudeE7: 5, longitudeE7: 5)!
        let together = (0..<60).map { (i: Int) -> Spot in
            let ref = OSMRef(OSMType.allCases[i % 3], Int64(30 - i / 3))
            let kind = i % 2 == 0 ? "cafe" : "bench"
            return Spot(ref: ref, coordinate: place, tagKey: "amenity", kind: kind, category: nil, name: "n\(i % 7)")
        }
        for _ in 0..<3 {
            #expect(SpotIndexWriter.encode(together.shuffled(using: &random), metadata: metadata) == SpotIndexWriter.encode(together, metadata: metadata))
        }
    }
}
