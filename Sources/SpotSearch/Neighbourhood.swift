import SpotIndex
import Spots

/// Candidates from the user's neighbourhood: the spatial tree walked nearest box first
/// (`PackedTreeView.nearest`), each spot keyed as the runs of postings or lists would key it.
/// Once the list of the best is full, no spot beyond the distance at which even the best match
/// cannot beat the last kept is wanted (`RankOrder.farthestBeating`), so the walk reads the
/// neighbourhood, not every spot the query's words or kinds list.
///
/// - A query of category words alone takes the kinds' spots from here when that reads fewer
///   spots than their lists: the walk reads about `limit` × spots / spots of the kinds.
/// - Name words near a place are tried here within a budget of spots read, twice the postings
///   their runs would read (a spot neither the runs nor the checked terms list is turned away by
///   its number once their sets are made); past it the walk gives up and the runs go on from
///   what it found, so a key it gave is never lost.
struct Neighbourhood {
    let index: SpotIndexReader
    let request: SearchRequest
    let origin: Coordinate
    let order: RankOrder

    /// What the walk found: the best spots with their keys, and whether it finished (every spot
    /// that could rank among them was read) within its budget.
    struct Found {
        let best: TopResults<RankKey>
        let finished: Bool
    }

    /// Walks the neighbourhood reading at most `budget` spots, keying each that `match` admits
    /// (given its spot and kind numbers).
    func walk(budget: Int = .max, match: (Int, Int) throws -> (CandidateMatch, KindFit)?) throws -> Found {
        var best = TopResults<RankKey>(limit: request.limit)
        let distances = DistanceFrom(origin)
        let maximum = request.radius ?? .infinity
        var read = 0
        try index.tree.nearest(to: origin, in: request.region, within: maximum) { spots, _ in
            read += spots.count
            guard read <= budget else { return -1 }
            for spot in spots {
                let coordinate = try index.coordinate(at: spot)
                if let region = request.region, !region.contains(coordinate) { continue }
                guard let (candidate, fit) = try match(spot, try index.kindNumber(at: spot)) else { continue }
                let distance = distances.distance(to: coordinate)
                guard distance <= maximum else { continue }
                best.offer(order.key(candidate, fit: fit, distance: distance, ref: try index.ref(at: spot)), spot: spot)
            }
            return min(maximum, best.worst.map { order.farthestBeating($0) } ?? maximum)
        }
        return Found(best: best, finished: read <= budget)
    }

    /// The spots that meet every phrase of `query` by kind or the build's lists, keyed at the
    /// category level, when the walk reads fewer spots than the lists of the phrases; nil
    /// otherwise. They rank before every other match of a query of category phrases alone, so
    /// a walk that fills the list with them answers it; one that does not leaves the rest to
    /// the runs, the kinds' lists among them (a hotel named "Metropolis" meets "hotel me" by
    /// its kind and its name). It reads about `limit` × spots / spots of the phrase with the
    /// fewest ("hotel ca" reads as far as the spots of "ca" lie apart, not the hotels), and
    /// gives up at eight times that: few spots meet every phrase ("ravintola teatteri", a
    /// restaurant and a theatre, is a name), and the lists are read instead.
    func kinds(of query: ParsedQuery, filter: CandidateFilter) throws -> Found? {
        guard !query.phrases.isEmpty else { return nil }
        let spotsOfKinds = try query.phrases.map { phrase in
            let lists = try phrase.targets.kindLists(in: index) + phrase.targets.wordLists(in: index)
            return Double(lists.reduce(0) { $0 + $1.remaining })
        }.min()!
        let expectedReads = Double(request.limit) * Double(index.count) / spotsOfKinds
        guard spotsOfKinds > expectedReads else { return nil }
        return try walk(budget: Int(8 * expectedReads)) { spot, kind in
            guard filter.allowedKinds[kind] else { return nil }
            let fit = try filter.kindFit(spot, kind: kind)
            guard !fit.missed else { return nil }
            let quality = try index.quality(at: spot).score
            return (CandidateMatch(level: .category, edits: 0, field: .primary, quality: quality), fit)
        }
    }

    /// The name, category and address matches of the query near the place, found by their text
    /// (`NameCheck`, which also meets what the filter's terms, house numbers and phrases ask),
    /// within `budget` spots read. Every match is among the spots of `runs` (the plan gathers
    /// them all), so a spot they do not list is passed over before its text is read (`RunSpots`).
    func names(budget: Int, runs: [CandidateRun], context: CheckContext) throws -> Found {
        let listed = RunSpots(runs, in: index)
        return try walk(budget: budget) { spot, kind in
            guard try listed.mayHold(spot), try context.filter.passes(spot, kind: kind),
                let match = try NameCheck().match(spot: spot, kind: kind, in: context)
            else { return nil }
            return (match, try context.filter.kindFit(spot, kind: kind))
        }
    }
}

/// The spots a plan's runs list, for the neighbourhood's walk. As `TermHolders` answers for one
/// term, a spot is first let through to have its text read, while the texts read cost less than
/// the runs' postings would (`TermHolders.postingsPerText`); then the postings are read once into
/// a set, and a spot they do not list is turned away by its number.
final class RunSpots {
    private let runs: [CandidateRun]
    private let index: SpotIndexReader
    /// How many postings the runs hold.
    private let postings: Int
    private var asked = 0
    private var listed: SpotSet?

    /// The spots of `runs` of `index`.
    init(_ runs: [CandidateRun], in index: SpotIndexReader) {
        self.runs = runs
        self.index = index
        postings = QueryPlan.postings(in: runs)
    }

    /// Whether spot `spot` may be listed: false only when the set is made and does not hold it.
    func mayHold(_ spot: Int) throws -> Bool {
        if let listed { return listed.contains(spot) }
        asked += 1
        guard asked * TermHolders.postingsPerText >= postings else { return true }
        let spots = try runs.flatMap { try $0.lists.flatMap { try index.spots(in: $0) } }
        let set = SpotSet(spots, estimatedCount: spots.count, count: index.count)
        listed = set
        return set.contains(spot)
    }
}
