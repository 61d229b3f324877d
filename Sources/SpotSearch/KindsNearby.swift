import SpotIndex
import Spots

/// The spots of the kinds a query of category words alone names, near a place, gathered from
/// the user's neighbourhood: the spatial tree walked nearest box first (`PackedTreeView.nearest`),
/// each spot of the kinds (by its kind or the build's lists) keyed in the `kindsNear` order. Once
/// the list of the best is full, no spot beyond the distance at which even the best quality score
/// cannot beat the last kept is wanted, so the walk reads the neighbourhood, not every spot of
/// the kinds.
///
/// The kinds' lists are the other source of the same spots: they cost a read of every spot of
/// the kinds, the walk about `limit` × spots / spots of the kinds (one in that many is of them).
/// The walk is taken when it reads fewer.
struct KindsNearby {
    let index: SpotIndexReader
    let request: SearchRequest
    let origin: Coordinate
    let filter: CandidateFilter
    let order: RankOrder

    /// Whether the walk reads fewer spots than the lists of `query`'s first phrase.
    func isCheaperThanLists(for query: ParsedQuery) throws -> Bool {
        guard let phrase = query.phrases.first else { return false }
        let kinds = try index.kinds.indices.filter { phrase.targets.names(index.kinds[$0]) }.map {
            try index.kindList(ofKind: $0).remaining
        }
        let listed = try phrase.targets.wordLists(in: index).map(\.remaining)
        let spotsOfKinds = Double((kinds + listed).reduce(0, +))
        return spotsOfKinds * spotsOfKinds > Double(request.limit) * Double(index.count)
    }

    /// The best `request.limit` spots of the kinds, best first, each with its key; every spot of
    /// the kinds within the request's radius and region when there are fewer.
    func best() throws -> TopResults<RankKey> {
        var best = TopResults<RankKey>(limit: request.limit)
        let distances = DistanceFrom(origin)
        let maximum = request.radius ?? .infinity
        try index.tree.nearest(to: origin, in: request.region, within: maximum) { spots, bound in
            for spot in spots {
                let coordinate = try index.coordinate(at: spot)
                if let region = request.region, !region.contains(coordinate) { continue }
                let kind = try index.kindNumber(at: spot)
                guard filter.allowedKinds[kind] else { continue }
                let fit = try filter.kindFit(spot, kind: kind)
                guard !fit.missed else { continue }
                let distance = distances.distance(to: coordinate)
                guard distance <= maximum else { continue }
                let match = CandidateMatch(
                    level: .category, edits: 0, field: .primary, quality: try index.quality(at: spot).score)
                best.offer(order.key(match, fit: fit, distance: distance, ref: try index.ref(at: spot)), spot: spot)
            }
            return min(maximum, best.worst.map(order.farthestBeating) ?? maximum)
        }
        return best
    }
}
