import SpotIndex

/// The ranks outside which no spot of a run meets the query (`CandidateRun.narrowing`), made
/// when the walk first reaches a run that pays for them, and shared by the runs they narrow.
/// Filtering a run's ranks through a bit costs a few instructions a rank; a candidate turned
/// away after it is read (its reference, its kind, what each part lists of it) costs hundreds.
final class RunNarrowing {
    /// How many ranks the lists the set is made of hold: what making it costs.
    let cost: Int
    private let ranks: Lazy<SpotSet>

    /// A narrowing to `make()`, which reads `cost` ranks.
    init(cost: Int, make: @escaping () throws -> SpotSet) {
        self.cost = cost
        ranks = Lazy(make)
    }

    /// Whether a run of `postings` should be kept to the ranks: once they are made, always; else
    /// when making them reads at most `costPerPosting` ranks for each of the run's.
    func pays(forPostings postings: Int) -> Bool {
        ranks.isMade || cost <= Self.costPerPosting * postings
    }

    /// How many ranks making the set may read for each posting of the first run it narrows:
    /// measured on the typo rows of Benchmarks/typos.sh.
    static let costPerPosting = 2

    /// The ranks.
    func value() throws -> SpotSet { try ranks.value() }
}

/// The narrowings of a typo stage's runs (`TypoStage.runs`): a spot of a run its driver gathers
/// meets one of the readings the driver gathers for only when every other part of that reading
/// meets it, by its postings (names or address), its targets' word lists, or its kind; so the
/// run is kept to the union, over those readings, of what all their other parts list of the
/// run's kinds (`FuzzySources.ranks(ofKinds:)`). A candidate met only by another reading is
/// among that reading's driver's runs. A reading with a number part alone besides the driver
/// (met by a house number no posting lists) or with no other part leaves the runs whole.
struct TypoNarrowings {
    let stage: TypoStage
    /// The sources of the parts that were read.
    let sources: [Int: FuzzySources]
    let index: SpotIndexReader
    /// Made once for the runs of one driver whose spots are of the same kinds.
    private var made: [MadeKey: RunNarrowing?] = [:]

    private struct MadeKey: Hashable {
        let driver: Int
        let kinds: Set<Int>?
    }

    init(stage: TypoStage, sources: [Int: FuzzySources], index: SpotIndexReader) {
        self.stage = stage
        self.sources = sources
        self.index = index
    }

    /// The narrowing of the runs of `driver` whose spots are of `kinds` (nil: of any kind), which
    /// gathers for the readings `gathered`; nil when some reading has no part to narrow by.
    mutating func narrowing(ofRunsOf driver: Int, kinds: Set<Int>?, for gathered: [Int]) -> RunNarrowing? {
        let key = MadeKey(driver: driver, kinds: kinds)
        if let known = made[key] { return known }
        let narrowing = make(ofRunsOf: driver, kinds: kinds, for: gathered)
        made[key] = .some(narrowing)
        return narrowing
    }

    private func make(ofRunsOf driver: Int, kinds: Set<Int>?, for gathered: [Int]) -> RunNarrowing? {
        let byReading = gathered.map { reading in
            stage.readings[reading].filter { part in
                part != driver && !stage.parts[part].mayBeHouseNumber && sources[part] != nil
            }
        }
        guard !byReading.contains(where: \.isEmpty) else { return nil }
        let (partSources, index) = (sources, self.index)
        let cost = byReading.joined().reduce(0) { $0 + partSources[$1]!.count(ofKinds: kinds) }
        return RunNarrowing(cost: cost) {
            var kept: [Int] = []
            for parts in byReading {
                // What the reading's parts all list: the fewest's ranks, filtered by the others'.
                let parts = parts.sorted {
                    partSources[$0]!.count(ofKinds: kinds) < partSources[$1]!.count(ofKinds: kinds)
                }
                var ranks = try partSources[parts[0]]!.ranks(ofKinds: kinds)
                for part in parts.dropFirst() where !ranks.isEmpty {
                    let listed = try partSources[part]!.ranks(ofKinds: kinds)
                    let set = SpotSet(listed, estimatedCount: listed.count, count: index.count)
                    ranks.removeAll { !set.contains($0) }
                }
                kept += ranks
            }
            return SpotSet(kept, estimatedCount: kept.count, count: index.count)
        }
    }
}
