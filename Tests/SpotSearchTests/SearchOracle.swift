import Foundation
import SpotIndex
import Spots

@testable import SpotSearch

/// The answer a brute-force reading of the rules gives: every spot checked, then sorted as
/// the documented ranking says (README, "How results are ranked"), worked out from the spots'
/// own tags rather than from the index.
///
/// A text query's words are name terms (or, for a query of category phrases alone, the first
/// phrase's words, and the phrase's categories as a weaker match). A name matches when every
/// term starts one of its tokens: exactly when its folded words are the terms, as a prefix when
/// its words start with the terms (the last as a prefix), else by words. A spot's match is its
/// best over its names: the level, then `name` and `name:xx` before other names. Results rank by
/// level, name field, score (the quality score, or with a place the quality weighed by the
/// distance decay), then OSM type and id; or, sorted by distance, by distance, level, type and
/// id. Without text: nearest first, or in reference order without a place.
struct Oracle {
    /// A spot's name as the oracle matches it.
    struct Name {
        /// 0 for `name` and `name:xx`, 1 for the other names.
        let field: Int
        let words: [[UInt8]]
        let tokens: [[UInt8]]
    }

    let spots: [Spot]
    let search: SpotSearch
    /// Each spot's names, worked out once.
    let names: [[Name]]

    init(spots: [Spot], search: SpotSearch) {
        self.spots = spots
        self.search = search
        names = spots.map { spot in
            let fielded =
                [spot.name].compactMap { $0 }.map { ($0, 0) } + spot.names.values.map { ($0, 0) }
                + spot.otherNames.values.map { ($0, 1) }
            return fielded.map { name, field in
                Name(
                    field: field, words: SearchText.words(name).map { Array($0.utf8) },
                    tokens: SearchText.tokens(ofName: name).map { Array($0.token.utf8) })
            }
        }
    }

    /// The quality score of `spot` from its tags: 4 for a wikidata or wikipedia tag, 2 for a
    /// website, 2 for opening hours, 1 for a phone, 1 for an area (a way or relation).
    static func qualityScore(of spot: Spot) -> Int {
        (spot.details[.wikidata] != nil || spot.hasWikipedia ? 4 : 0) + (spot.details[.website] != nil ? 2 : 0)
            + (spot.details[.openingHours] != nil ? 2 : 0) + (spot.details[.phone] != nil ? 1 : 0)
            + (spot.ref.type != .node ? 1 : 0)
    }

    /// The level at which `name` matches `terms`: 0 exact, 1 prefix, 2 words; nil when some term
    /// starts none of its tokens.
    static func level(of name: Name, terms: [[UInt8]]) -> Int? {
        guard terms.allSatisfy({ term in name.tokens.contains { $0.starts(with: term) } }) else { return nil }
        if name.words == terms { return 0 }
        let last = terms.count - 1
        if name.words.count >= terms.count, name.words[..<last].elementsEqual(terms[..<last]),
            name.words[last].starts(with: terms[last])
        {
            return 1
        }
        return 2
    }

    /// Where a candidate ranks, smaller first.
    struct Key {
        let level: Int
        let field: Int
        let score: Double
        let distance: Double
        let ref: OSMRef

        func precedes(_ other: Key, sort: SearchSort) -> Bool {
            switch sort {
            case .relevance:
                (level, field, -score, ref.type.rawValue, ref.id)
                    < (other.level, other.field, -other.score, other.ref.type.rawValue, other.ref.id)
            case .distance:
                (distance, level, ref.type.rawValue, ref.id)
                    < (other.distance, other.level, other.ref.type.rawValue, other.ref.id)
            }
        }
    }

    func answer(_ request: SearchRequest) -> [(ref: OSMRef, distance: Double?)] {
        guard request.limit > 0 else { return [] }
        let query = search.parser.parse(request.naturalLanguageQuery ?? "")
        let origin = request.near ?? request.region?.center
        let terms = (query.terms.isEmpty ? query.phrases.first?.words ?? [] : query.terms).map { Array($0.utf8) }
        let categoryMatch = query.terms.isEmpty ? query.phrases.first?.categories : nil
        var chosen: [Key] = []
        for (spot, names) in zip(spots, names) {
            if let filter = request.pointOfInterestFilter, !filter.allows(spot.category) { continue }
            let tokens = names.flatMap(\.tokens)
            func holds(_ word: [UInt8]) -> Bool { tokens.contains { $0.starts(with: word) } }
            let phrasesMet = query.phrases.allSatisfy { phrase in
                (spot.category.map(phrase.categories.contains) ?? false)
                    || phrase.words.allSatisfy { holds(Array($0.utf8)) }
            }
            if !phrasesMet { continue }
            if let region = request.region, !region.contains(spot.coordinate) { continue }
            let distance = origin.map { spot.coordinate.distance(to: $0) }
            if let radius = request.radius, let distance, distance > radius { continue }
            var match: (level: Int, field: Int)?
            if !terms.isEmpty {
                for name in names {
                    guard let level = Self.level(of: name, terms: terms) else { continue }
                    if match.map({ (level, name.field) < ($0.level, $0.field) }) ?? true { match = (level, name.field) }
                }
                if match == nil, let categories = categoryMatch, spot.category.map(categories.contains) == true {
                    match = (3, 0)
                }
                guard match != nil else { continue }
            }
            let quality = Double(Self.qualityScore(of: spot))
            let score = distance.map { (1 + quality / 10) * exp(-$0 / request.distanceScale) } ?? quality
            chosen.append(
                Key(
                    level: match?.level ?? 0, field: match?.field ?? 0, score: terms.isEmpty ? 0 : score,
                    distance: distance ?? 0, ref: spot.ref))
        }
        // Without text, nearest first (or by reference), whatever the sort.
        let sort = terms.isEmpty ? .distance : request.sort
        chosen.sort { $0.precedes($1, sort: sort) }
        return chosen.prefix(request.limit).map { ($0.ref, origin == nil ? nil : $0.distance) }
    }
}

/// Checks `search` against the oracle on `requests`; returns the first mismatches.
func mismatches(_ search: SpotSearch, _ spots: [Spot], _ requests: [SearchRequest]) throws -> [String] {
    let oracle = Oracle(spots: spots, search: search)
    var failures: [String] = []
    for request in requests {
        let got = try search.search(request).map { ($0.spot.ref, $0.distance) }
        let want = oracle.answer(request)
        let differ = zip(got, want).enumerated().first { $1.0.0 != $1.1.ref || $1.0.1 != $1.1.distance }?.offset
        if got.count != want.count || differ != nil {
            let at = differ ?? min(got.count, want.count)
            failures.append(
                "\(request): \(got.count) results for \(want.count), from \(at) got \(got[at...].prefix(3).map(\.0)) "
                    + "want \(want[at...].prefix(3).map(\.ref))")
        }
        if failures.count >= 5 { break }
    }
    return failures
}
