import Foundation
import SpotIndex
import Spots

/// Answers the questions MKLocalSearch answers, over a loaded index: the nearest spots, those
/// within a radius or a region, by text and by category, and a spot by its OSM reference.
///
/// Results are sorted by distance (from `near`, else the region's centre), ties by OSM type then
/// id; a text search without a place is sorted by how well the names match. Filters apply before
/// the limit. Nearest-first search walks the packed R-tree best first, with a lower bound of the
/// great-circle distance to each box (as geokdbush does), so it reads a few nodes, not the index.
public final class SpotSearch: @unchecked Sendable {
    /// The index searched.
    public let index: SpotIndexReader
    /// Folded query phrases (one to three words) and the categories they name.
    private let categoryWords: [String: [Category]]
    private let longestPhrase: Int

    /// A search over `index`.
    public init(index: SpotIndexReader) throws(IndexError) {
        self.index = index
        categoryWords = try index.categoryWords()
        longestPhrase = categoryWords.keys.map { $0.split(separator: " ").count }.max() ?? 1
    }

    /// The spots that answer `request`, at most `request.limit`.
    public func search(_ request: SearchRequest) throws -> [SearchResult] {
        try rankedSpots(request).map { SearchResult(spot: try index.spot(at: $0.spot), distance: $0.distance) }
    }

    /// The spot numbers (in `index`) that answer `request` with their distances, in result
    /// order: what `search` returns, before the spots are decoded.
    public func rankedSpots(_ request: SearchRequest) throws -> [(spot: Int, distance: Double?)] {
        guard request.limit >= 0 else { throw SearchError(description: "limit must not be negative") }
        if let radius = request.radius {
            guard request.near != nil else { throw SearchError(description: "a radius needs near (a point to measure from)") }
            guard radius >= 0, radius.isFinite else { throw SearchError(description: "radius must be a distance in metres") }
        }
        guard request.limit > 0, index.count > 0 else { return [] }
        let query = parse(request.naturalLanguageQuery ?? "")
        let allowedKinds = index.kinds.map { kind in
            (request.pointOfInterestFilter?.allows(kind.category) ?? true)
                && (query.categories.isEmpty || kind.category.map(query.categories.contains) == true)
        }
        let matches = try query.terms.isEmpty ? nil : textMatches(query.terms)
        func passes(_ spot: Int) throws -> Bool {
            try allowedKinds[index.kindNumber(at: spot)]
        }
        let origin = request.near ?? request.region?.center
        var chosen: [(spot: Int, distance: Double?, rank: Int)] = []
        if let origin, matches == nil, request.near != nil || request.region != nil {
            chosen = try nearest(
                to: origin, within: request.radius ?? .infinity, region: request.region, limit: request.near == nil ? nil : request.limit,
                passes: passes
            ).map { ($0.spot, $0.distance, 0) }
        } else {
            let candidates = matches.map { Array($0.keys) } ?? Array(0..<index.count)
            for spot in candidates where try passes(spot) {
                let coordinate = try index.coordinate(at: spot)
                if let region = request.region, !region.contains(coordinate) { continue }
                let distance = origin.map { coordinate.distance(to: $0) }
                if let distance, let radius = request.radius, distance > radius { continue }
                chosen.append((spot, distance, matches?[spot] == true ? 0 : 1))
            }
        }
        let refs = try Dictionary(uniqueKeysWithValues: chosen.map { ($0.spot, try index.ref(at: $0.spot)) })
        chosen.sort { a, b in
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            if a.rank != b.rank { return a.rank < b.rank }
            return refs[a.spot]! < refs[b.spot]!
        }
        return chosen.prefix(request.limit).map { ($0.spot, $0.distance) }
    }

    /// The spot that holds `ref`: its own, or the one it was merged into by deduplication.
    public func spot(for ref: OSMRef) throws(IndexError) -> Spot? {
        try index.spotIndex(for: ref).map { (spot) throws(IndexError) in try index.spot(at: spot) }
    }

    // MARK: Text

    /// A query cut into category phrases and the words left to match names.
    struct ParsedQuery {
        var categories: Set<Category> = []
        var terms: [String] = []
    }

    /// Splits folded query words into category phrases (longest first) and name terms.
    func parse(_ text: String) -> ParsedQuery {
        let words = SearchText.words(text)
        var query = ParsedQuery()
        var position = 0
        while position < words.count {
            var matched = false
            for length in stride(from: min(longestPhrase, words.count - position), through: 1, by: -1) {
                let phrase = words[position..<position + length].joined(separator: " ")
                if let categories = categoryWords[phrase] {
                    query.categories.formUnion(categories)
                    position += length
                    matched = true
                    break
                }
            }
            if !matched {
                query.terms.append(words[position])
                position += 1
            }
        }
        return query
    }

    /// The spots whose names match every term, each with whether the first term starts a name.
    private func textMatches(_ terms: [String]) throws -> [Int: Bool] {
        var result: [Int: Bool]?
        for (position, term) in terms.enumerated() {
            var spots: [Int: Bool] = [:]
            for token in index.tokens(withPrefix: Array(term.utf8)) {
                for posting in try index.postings(ofToken: token) {
                    spots[posting.spot] = (spots[posting.spot] ?? false) || (position == 0 && posting.startsName)
                }
            }
            if let previous = result {
                result = previous.filter { spots[$0.key] != nil }
            } else {
                result = spots
            }
            if result!.isEmpty { break }
        }
        return result ?? [:]
    }

    // MARK: Space

    /// The spots nearest to `origin` that pass, nearest first (ties by OSM type and id), within
    /// `maximum` metres and `region`; all of them when `limit` is nil.
    private func nearest(
        to origin: Coordinate, within maximum: Double, region: SearchRegion?, limit: Int?, passes: (Int) throws -> Bool
    ) throws -> [(spot: Int, distance: Double)] {
        var found: [(spot: Int, distance: Double)] = []
        let levels = index.levelCounts.count
        guard levels > 0 else { return [] }
        let bound = BoxDistance(origin)
        var queue = Heap()
        queue.push(Entry(distance: 0, level: levels, index: 0, ref: nil))
        while let entry = queue.pop() {
            if entry.distance > maximum { break }
            if entry.level == 0 {
                found.append((entry.index, entry.distance))
                if let limit, found.count == limit { break }
                continue
            }
            let childLevel = entry.level - 1
            let childCount = childLevel == 0 ? index.count : index.levelCounts[childLevel - 1]
            let first = entry.index * index.nodeSize
            for child in first..<min(first + index.nodeSize, childCount) {
                if childLevel == 0 {
                    let coordinate = try index.coordinate(at: child)
                    if let region, !region.contains(coordinate) { continue }
                    guard try passes(child) else { continue }
                    let distance = coordinate.distance(to: origin)
                    if distance <= maximum { queue.push(Entry(distance: distance, level: 0, index: child, ref: try index.ref(at: child))) }
                } else {
                    let box = index.box(level: childLevel - 1, index: child)
                    if let region, !region.intersects(west: box.minLongitudeE7, south: box.minLatitudeE7, east: box.maxLongitudeE7, north: box.maxLatitudeE7) {
                        continue
                    }
                    let distance = bound.minimum(to: box)
                    if distance <= maximum { queue.push(Entry(distance: distance, level: childLevel, index: child, ref: nil)) }
                }
            }
        }
        return found
    }
}

/// A node or a spot waiting in the best-first queue. Order: distance, then nodes before spots
/// (a node at the same distance may still hold a spot that sorts first), then OSM reference.
struct Entry {
    let distance: Double
    /// 0 for a spot; otherwise the tree level + 1 of a box (the root is the highest).
    let level: Int
    let index: Int
    let ref: OSMRef?

    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.distance != b.distance { return a.distance < b.distance }
        if (a.level == 0) != (b.level == 0) { return a.level != 0 }
        if let ra = a.ref, let rb = b.ref { return ra < rb }
        return false
    }
}

/// A binary min-heap of entries.
struct Heap {
    private var items: [Entry] = []

    mutating func push(_ entry: Entry) {
        items.append(entry)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Entry.precedes(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && Entry.precedes(items[left], items[smallest]) { smallest = left }
                if right < items.count && Entry.precedes(items[right], items[smallest]) { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}

/// A lower bound of the great-circle distance from a point to any point of a box, as geokdbush
/// computes it: exact along meridians, and through the point of the nearest meridian edge where
/// the great circle is farthest from the equator.
struct BoxDistance {
    private let longitude: Double
    private let latitude: Double
    private let cosLatitude: Double
    private static let radians = Double.pi / 180

    init(_ origin: Coordinate) {
        longitude = origin.longitude
        latitude = origin.latitude
        cosLatitude = cos(latitude * Self.radians)
    }

    func minimum(to box: TreeBox) -> Double {
        let minLon = Double(box.minLongitudeE7) / 1e7, maxLon = Double(box.maxLongitudeE7) / 1e7
        let minLat = Double(box.minLatitudeE7) / 1e7, maxLat = Double(box.maxLatitudeE7) / 1e7
        let h: Double
        if longitude >= minLon && longitude <= maxLon {
            h = latitude < minLat ? Self.haverSin((latitude - minLat) * Self.radians)
                : latitude > maxLat ? Self.haverSin((latitude - maxLat) * Self.radians) : 0
        } else {
            let haverSinDLon = min(Self.haverSin((longitude - minLon) * Self.radians), Self.haverSin((longitude - maxLon) * Self.radians))
            let extremum = vertexLatitude(haverSinDLon)
            if extremum > minLat && extremum < maxLat {
                h = partial(haverSinDLon, extremum)
            } else {
                h = min(partial(haverSinDLon, minLat), partial(haverSinDLon, maxLat))
            }
        }
        // A hair below the exact value, so that rounding never prunes a box holding a spot at
        // exactly the bound.
        return max(0, 2 * Coordinate.earthRadius * asin(min(1, h.squareRoot())) - 1e-6)
    }

    private static func haverSin(_ theta: Double) -> Double {
        let s = sin(theta / 2)
        return s * s
    }

    private func partial(_ haverSinDLon: Double, _ otherLatitude: Double) -> Double {
        cosLatitude * cos(otherLatitude * Self.radians) * haverSinDLon + Self.haverSin((latitude - otherLatitude) * Self.radians)
    }

    private func vertexLatitude(_ haverSinDLon: Double) -> Double {
        let cosDLon = 1 - 2 * haverSinDLon
        if cosDLon <= 0 { return latitude > 0 ? 90 : -90 }
        return atan(tan(latitude * Self.radians) / cosDLon) / Self.radians
    }
}
