import SpotIndex
import SpotText

/// What the verify stage knows of a text search when it checks a candidate.
struct CheckContext {
    let index: SpotIndexReader
    let query: ParsedQuery
    let filter: CandidateFilter
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

/// The verify stage of a text search: how the key of a candidate of a run is found, given by
/// the source that gathered the run (`CandidateRun.check`). The walk asks `admits` first, then
/// `match`.
protocol CandidateCheck {
    /// Whether a spot's key is its run's bound but for its reference: then, without a place, a
    /// run read in reference order ends at the first spot that ranks after the last kept.
    var keyIsBound: Bool { get }

    /// Whether spot `spot`, of kind number `kind`, may match before its key is found: by
    /// default, whether it passes the request's filter (`CandidateFilter`).
    func admits(_ spot: Int, kind: Int, in context: CheckContext) throws -> Bool

    /// How spot `spot`, of kind number `kind`, of a run bounded by `bound`, matches; nil when it
    /// does not.
    func match(_ spot: Int, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch?
}

extension CandidateCheck {
    var keyIsBound: Bool { false }

    func admits(_ spot: Int, kind: Int, in context: CheckContext) throws -> Bool {
        try context.filter.passes(spot, kind: kind)
    }
}

/// A spot's key is its run's bound: the postings of a one-word query, whose groups give the
/// key itself.
struct BoundCheck: CandidateCheck {
    var keyIsBound: Bool { true }

    func match(_ spot: Int, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
        CandidateMatch(level: bound.level, edits: bound.edits, field: bound.field, quality: bound.score)
    }
}

/// A spot matches at its run's bound by its kind (a category match, or a misspelt category
/// word's kind in the typo stage), scored by its own quality.
struct KindCheck: CandidateCheck {
    func match(_ spot: Int, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
        CandidateMatch(
            level: bound.level, edits: bound.edits, field: .primary, quality: try context.index.quality(at: spot).score)
    }
}

/// A spot's names decide (`NameMatch`): the best level at which one holds the query; else the
/// category level where the names hold the terms and the kind (or a list, or the names) meets
/// each phrase; else the address level where names and address together hold it (`AddressMatch`).
struct NameCheck: CandidateCheck {
    func match(_ spot: Int, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
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
/// category filter applies first; the exact levels' checks of terms and phrases do not.
struct TypoCheck: CandidateCheck {
    let stage: TypoStage
    /// What each reading's other parts list (`TypoStage.readings`).
    let candidates: [TypoCandidates]
    /// The fewest edits with which any spot can meet each reading.
    let leastEdits: [Int]

    func admits(_ spot: Int, kind: Int, in context: CheckContext) throws -> Bool {
        context.filter.allowedKinds[kind]
    }

    func match(_ spot: Int, kind: Int, bound: KeyBound, in context: CheckContext) throws -> CandidateMatch? {
        let index = context.index
        let open = try candidates.map { try $0.mayMatch(spot, kind: kind) }
        guard open.contains(true),
            let match = try stage.match(
                try CandidateText(spot: spot, in: index, words: context.filter.words), kind: kind, spot: spot,
                readings: open, leastEdits: leastEdits)
        else { return nil }
        return CandidateMatch(
            level: .fuzzy, edits: match.edits, field: match.field, quality: try index.quality(at: spot).score)
    }
}
