import Spots

/// Looking spots up by OSM reference (REFS, MERG, MRGO), and reference order.
extension SpotIndexReader {
    /// The number of the spot that holds `ref`: its own, or one merged into it; nil when none.
    /// Binary searches: logarithmic in the number of references.
    public func spotNumber(for ref: OSMRef) throws(IndexError) -> Int? {
        let ownRank = try referenceOrder.rank(of: ref) { (spot) throws(IndexError) in try spots.ref(of: spot) }
        if let rank = ownRank {
            return try spot(atRank: rank)
        }
        return try mergedReferences.spot(holding: ref)
    }

    /// Calls `body` with each spot in the order of its own OSM reference (type, then id), while
    /// `body` returns true.
    public func forEachSpotInReferenceOrder(_ body: (Int) throws -> Bool) throws {
        for rank in 0..<count {
            if try !body(try spot(atRank: rank)) { return }
        }
    }

    /// The reference rank of spot `spot`: its position in the order of the spots' own OSM
    /// references (REFS), found by a binary search over them.
    public func referenceRank(of spot: Int) throws(IndexError) -> Int {
        let ref = try spots.ref(of: spot)
        guard
            let rank = try referenceOrder.rank(
                of: ref, refOfSpot: { (spot) throws(IndexError) in try spots.ref(of: spot) })
        else { throw corrupt("REFS", "spot \(spot)'s reference \(ref) is not in reference order") }
        return rank
    }

    /// The spot with reference rank `rank`: the spot at that position in the order of the
    /// spots' own OSM references (REFS).
    public func spot(atRank rank: Int) throws(IndexError) -> Int {
        try referenceOrder.spot(atRank: rank)
    }

    /// The references merged into spot `spot` (its `merged`), without reading the rest of it.
    public func mergedRefs(of spot: Int) throws(IndexError) -> [OSMRef] {
        try mergedReferences.refs(mergedInto: spot)
    }
}
