import Spots

/// The `limit` best candidates seen so far, best first: most candidates cost one comparison.
struct TopResults<Key: Comparable> {
    let limit: Int
    private(set) var entries: [(key: Key, spot: Int)] = []

    init(limit: Int) {
        self.limit = limit
        // Room for the list and the one offer beyond it, so that it grows once for a usual limit.
        entries.reserveCapacity(min(limit, 64) + 1)
    }

    /// Whether `limit` candidates are kept.
    var isFull: Bool { entries.count == limit }

    /// The last kept key, once `limit` candidates are kept.
    var worst: Key? { isFull ? entries.last?.key : nil }

    /// Keeps `spot` with `key` if it ranks among the best `limit` seen.
    mutating func offer(_ key: Key, spot: Int) {
        if let worst, !(key < worst) { return }
        let position = entries.firstIndex { key < $0.key } ?? entries.count
        entries.insert((key, spot), at: position)
        if entries.count > limit { entries.removeLast() }
    }
}

/// How nearby results sort: distance, then OSM type and id.
struct NearbyKey: Comparable {
    let distance: Double
    let ref: OSMRef

    static func < (a: NearbyKey, b: NearbyKey) -> Bool {
        (a.distance, a.ref.type, a.ref.id) < (b.distance, b.ref.type, b.ref.id)
    }
}
