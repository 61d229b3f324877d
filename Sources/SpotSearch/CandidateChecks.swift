import SpotIndex
import SpotText

/// What the verify stage knows of a text search when it checks a candidate.
struct CheckContext {
    let index: SpotIndexReader
    let query: ParsedQuery
    let filter: CandidateFilter
    /// The spots with a name that starts as an exact or prefix match of the query must: its
    /// first word is the name's (with more words) or starts it (the query's one word). Read
    /// from that word's postings at a name's start, when first asked.
    let nameStarts: Lazy<SpotSet>

    init(index: SpotIndexReader, query: ParsedQuery, filter: CandidateFilter) {
        self.index = index
        self.query = query
        self.filter = filter
        nameStarts = Lazy {
            guard let first = query.words.first else { return SpotSet([], estimatedCount: 0, count: index.count) }
            var tokens = try index.tokens(withPrefix: Array(first.utf8))
            if query.words.count > 1 {
                let isWord = try !tokens.isEmpty && index.token(tokens.lowerBound).elementsEqual(first.utf8)
                tokens = tokens.lowerBound..<(isWord ? tokens.lowerBound + 1 : tokens.lowerBound)
            }
            let spots = try index.spots(ofTokens: tokens) { $0.place != .inName && $0.field != .address }
            return SpotSet(spots, estimatedCount: spots.count, count: index.count)
        }
    }
}

/// How a candidate matches a text query: its key but for its score's distance and its reference.
struct CandidateMatch {
    let level: MatchLevel
    /// The typos forgiven (`FuzzyWord`): 0 but at the fuzzy level.
    let edits: Int
    let field: NameField
    /// The spot's quality score (`PlaceQuality.score`).
    let quality: Int
}

/// A candidate of a run: its spot number and its reference rank (REFS), the position it was read
/// at in the run's rank lists, which a check may look it up by (`PartListing`).
struct Candidate {
    let spot: Int
    let rank: Int
}

/// The verify stage of a text search: how the key of a candidate of a run is found, given by
/// the source that gathered the run (`CandidateRun.check`). The walk asks `admits` first, then
/// `match`.
protocol CandidateCheck {
    /// Whether `candidate` may match, asked before its kind is read: a check that can turn a
    /// spot away by its number or rank alone saves reading its record. By default, true.
    func mayAdmit(_ candidate: Candidate, in context: CheckContext) throws -> Bool

    /// Whether `candidate`, of kind number `kind`, may match before its key is found: by
    /// default, whether it passes the request's filter (`CandidateFilter`).
    func admits(_ candidate: Candidate, kind: Int, in context: CheckContext) throws -> Bool

    /// How `candidate`, of kind number `kind`, of a run bounded by `bound`, matches; nil when it
    /// does not.
    func match(_ candidate: Candidate, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch?

    /// Whether the check knows a better bound for each spot than its run's (`bestKey`), cheaply.
    var boundsEachSpot: Bool { get }

    /// The best key (at no distance) that `candidate`, of kind number `kind`, of a run bounded by
    /// `bound`, can have in `order`, found before its key is; nil when it cannot match. The walk
    /// asks it, after `admits`, once its list is full. By default the run's best key.
    func bestKey(of candidate: Candidate, kind: Int, bound: KeyBound, order: RankOrder, in context: CheckContext)
        throws -> RankKey?
}

extension CandidateCheck {
    var boundsEachSpot: Bool { false }

    func bestKey(of candidate: Candidate, kind: Int, bound: KeyBound, order: RankOrder, in context: CheckContext)
        throws -> RankKey?
    { order.bestKey(of: bound) }

    func mayAdmit(_ candidate: Candidate, in context: CheckContext) throws -> Bool { true }

    func admits(_ candidate: Candidate, kind: Int, in context: CheckContext) throws -> Bool {
        try context.filter.passes(candidate.spot, kind: kind)
    }
}

/// A spot's key is its run's bound: the postings of a one-word query, whose groups give the
/// key itself.
struct BoundCheck: CandidateCheck {
    func match(_ candidate: Candidate, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
        CandidateMatch(level: bound.level, edits: bound.edits, field: bound.field, quality: bound.score)
    }
}

/// A spot matches at its run's bound by its kind (a category match, or a misspelt category
/// word's kind in the typo stage), scored by its own quality.
struct KindCheck: CandidateCheck {
    func match(_ candidate: Candidate, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
        CandidateMatch(
            level: bound.level, edits: bound.edits, field: .primary,
            quality: try context.index.quality(at: candidate.spot).score)
    }
}

/// A spot's names decide (`NameMatch`): the best level at which one holds the query; else the
/// category level where the names hold the terms and the kind (or a list, or the names) meets
/// each phrase; else the address level where names and address together hold it (`AddressMatch`).
struct NameCheck: CandidateCheck {
    /// The words whose tokens' postings gave the run: its spots hold a token each starts, so a
    /// house number need not meet them.
    var held: [String] = []
    /// Whether the run's bound says nothing of where the query's first word stands (the
    /// postings of a later word gave it): then a spot without a name that starts as the query
    /// does (`CheckContext.nameStarts`) matches at the words level at best.
    var boundsByNameStart = false

    var boundsEachSpot: Bool { true }

    /// The run's bound, lowered for the spot: to the category level, with the targets its kind
    /// and lists meet, when its names or address miss a phrase's words (a name level needs its
    /// names to hold every word); else to the words level by `boundsByNameStart`.
    func bestKey(of candidate: Candidate, kind: Int, bound: KeyBound, order: RankOrder, in context: CheckContext)
        throws -> RankKey?
    {
        let spot = candidate.spot
        if bound.level < .category, try !context.filter.textHoldsPhrases(spot) {
            let fit = try context.filter.kindFit(spot, kind: kind)
            return order.bestKey(
                of: KeyBound(
                    level: .category, field: .primary, score: bound.score,
                    targets: min(bound.targets, fit.targetsMet)))
        }
        guard boundsByNameStart, bound.level < .words, try !context.nameStarts.value().contains(spot) else {
            return order.bestKey(of: bound)
        }
        return order.bestKey(
            of: KeyBound(level: .words, field: bound.field, score: bound.score, targets: bound.targets))
    }

    func admits(_ candidate: Candidate, kind: Int, in context: CheckContext) throws -> Bool {
        try context.filter.passes(candidate.spot, kind: kind, holding: held)
    }

    func match(_ candidate: Candidate, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
        try match(spot: candidate.spot, kind: kind, in: context)
    }

    /// How spot `spot`, of kind number `kind`, matches by its names, whatever its run's bound
    /// (the neighbourhood's walk asks by spot number, with no run); nil when it does not.
    func match(spot: Int, kind: Int, in context: CheckContext) throws -> CandidateMatch? {
        let index = context.index
        let quality = try index.quality(at: spot).score
        let text = try CandidateText(spot: spot, in: index, words: context.filter.words)
        if let named = NameMatch.best(in: text.names, terms: context.query.words) {
            return CandidateMatch(level: named.level, edits: 0, field: NameField(ofKey: named.key), quality: quality)
        }
        let words = context.query.words(leavingOut: try context.filter.phrasesMetByKind(spot, kind: kind))
        if context.filter.hasPhrases, NameMatch.namesHold(words, in: text.names) {
            return CandidateMatch(level: .category, edits: 0, field: .primary, quality: quality)
        }
        guard !context.query.terms.isEmpty,
            AddressMatch.field(words: words, names: text.names, address: try text.address()) != nil
        else { return nil }
        return CandidateMatch(level: .address, edits: 0, field: .address, quality: quality)
    }
}

/// A spot's names and kind decide, typos forgiven (`TypoStage.match`), by the readings of the
/// query whose parts but the one that gathered list it (`TypoCandidates`). The request's
/// category filter applies first; the exact levels' checks of terms and phrases do not. What
/// the parts list bounds a spot's edits before its names are read: a spot is read at the first
/// run of its reading that holds it, so the gatherer meets it with the edits of that run's
/// tokens (`gathererEdits`) at best.
struct TypoCheck: CandidateCheck {
    let stage: TypoStage
    /// What each reading's other parts list (`TypoStage.readings`).
    let candidates: [TypoCandidates]
    /// The edits with which the run's tokens meet the part that gathered it.
    let gathererEdits: Int
    /// The last spot asked about and the fewest edits with which it can meet each reading:
    /// `bestKey` and `match` ask about the same candidate in turn.
    private let last = LastSpot()

    /// A spot and its fewest edits by reading.
    private final class LastSpot {
        var spot = -1
        var least: [TypoCandidates.Least?] = []
    }

    /// The check of the runs whose gatherer meets their spots with `gathererEdits`.
    init(stage: TypoStage, candidates: [TypoCandidates], gathererEdits: Int) {
        self.stage = stage
        self.candidates = candidates
        self.gathererEdits = gathererEdits
    }

    var boundsEachSpot: Bool { true }

    /// Whether some reading's other parts may list the spot, as far as their postings and lists
    /// tell without its kind (`TypoCandidates.mayList`).
    func mayAdmit(_ candidate: Candidate, in context: CheckContext) throws -> Bool {
        try candidates.contains { try $0.mayList(rank: candidate.rank) }
    }

    func admits(_ candidate: Candidate, kind: Int, in context: CheckContext) throws -> Bool {
        context.filter.allowedKinds[kind]
    }

    /// The fewest edits with which `candidate`, of kind number `kind`, can meet each reading;
    /// nil for one whose other parts do not list it.
    private func leastEdits(_ candidate: Candidate, kind: Int) throws -> [TypoCandidates.Least?] {
        if last.spot == candidate.spot { return last.least }
        last.least = try candidates.map { try $0.leastEdits(candidate, kind: kind, gathererEdits: gathererEdits) }
        last.spot = candidate.spot
        return last.least
    }

    func bestKey(of candidate: Candidate, kind: Int, bound: KeyBound, order: RankOrder, in context: CheckContext)
        throws -> RankKey?
    {
        // The fewest edits of a match by names and kind alone, and of one by names and address.
        var names: Int?
        var any: Int?
        for case let least? in try leastEdits(candidate, kind: kind) {
            if let edits = least.names { names = min(names ?? edits, edits) }
            any = min(any ?? least.any, least.any)
        }
        guard let any else { return nil }
        let byAddress = order.bestKey(
            of: KeyBound(level: bound.level, edits: max(any, bound.edits), field: .address, score: bound.score))
        guard let names else { return byAddress }
        // Where it takes the run's edits, a match by the names has the run's field at best.
        let edits = max(names, bound.edits)
        let byNames = order.bestKey(
            of: KeyBound(
                level: bound.level, edits: edits, field: edits > bound.edits ? .primary : bound.field,
                score: bound.score))
        return min(byNames, byAddress)
    }

    func match(_ candidate: Candidate, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
        let index = context.index
        let least = try leastEdits(candidate, kind: kind)
        guard least.contains(where: { $0 != nil }),
            let match = try stage.match(
                try CandidateText(spot: candidate.spot, in: index, words: context.filter.words), kind: kind,
                rank: candidate.rank, readings: least.map { $0 != nil }, leastEdits: least.map { $0?.any ?? 0 })
        else { return nil }
        return CandidateMatch(
            level: .fuzzy, edits: match.edits, field: match.field, quality: try index.quality(at: candidate.spot).score)
    }
}
