import Spots

/// How results sort: distance (0 without a point of reference), then rank (names that start
/// with the query first), then OSM type and id.
struct ResultKey: Comparable {
    let distance: Double
    let rank: Int
    let ref: OSMRef

    static func < (a: ResultKey, b: ResultKey) -> Bool {
        (a.distance, a.rank, a.ref.type, a.ref.id) < (b.distance, b.rank, b.ref.type, b.ref.id)
    }
}

/// The `limit` best results seen so far, in order: most candidates cost one comparison.
struct TopResults {
    let limit: Int
    private var entries: [(key: ResultKey, spot: Int, distance: Double?)] = []

    init(limit: Int) {
        self.limit = limit
    }

    mutating func offer(_ key: ResultKey, spot: Int, distance: Double?) {
        if entries.count == limit, let worst = entries.last, !(key < worst.key) { return }
        let position = entries.firstIndex { key < $0.key } ?? entries.count
        entries.insert((key, spot, distance), at: position)
        if entries.count > limit { entries.removeLast() }
    }

    /// The largest distance a new result may have and still be kept: `maximum` until there are
    /// `limit` results, then the distance of the last (ties are settled by the rest of the key).
    func distanceBound(within maximum: Double) -> Double {
        guard entries.count == limit, let worst = entries.last else { return maximum }
        return min(maximum, worst.key.distance)
    }

    var results: [(spot: Int, distance: Double?)] { entries.map { ($0.spot, $0.distance) } }
}
