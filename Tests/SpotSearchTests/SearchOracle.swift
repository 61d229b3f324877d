import Foundation
import SpotIndex
import SpotText
import Spots

@testable import SpotSearch

/// The answer a brute-force reading of the rules gives: every spot checked, then sorted as
/// the documented ranking says (docs/search.md, "How results are ranked"), worked out from the spots'
/// own tags rather than from the index.
///
/// A spot answers a text query when each name term starts a token of one of its names and each
/// category phrase is met by its category or selecting tag, by an attribute listing a value the
/// phrase names or a value with it as a `_`-separated part (`cuisine=pizza` by "italian;pizza"
/// and "italian_pizza"), by a name word ending with a compound word
/// of what the phrase names ("taidemuseo" with "museo"), or by its names holding the phrase. A name matches the query's words
/// (category words too) when every word starts one of its tokens: exactly when its folded words
/// are the query's, as a prefix when its words start with them (the last as a prefix), else by
/// words. A spot's match is its best over its names: the level, then `name` and `name:xx`
/// before other names; a spot no one name matches is a category match when the query has
/// category phrases, and no answer when it has none. Without a place results rank by level,
/// then (for a query of category and name words) the spots of the named kinds, edits, name
/// field, at the category level the targets met, the quality score, then OSM type and id. With a
/// place: typos after, then the named kinds' spots, then for a query with name words the
/// weight of level and field times 1.5^(w × quality/10) over 1 + d / scale (w the request's
/// quality weight, clamped to 0...10, NaN as 1), for category words
/// alone 1.1^(quality/10) over 1 + d / 1 m. Sorted by distance: by distance, level, type and
/// id. Without text: nearest first, or in reference order without a place.
///
/// A spot no one name matches and that is no category match is an address match (docs/search.md,
/// "Addresses") when the query has terms and each of its words, but those of the phrases its
/// kind meets, starts a token of its names or a word of its searched address (`SearchAddress`:
/// street and place words with their equals, postcode, city, a house number's longer words), or
/// equals a house number (a number and the up to three letters after it joined), some word
/// starting an address word; it ranks after the category matches, in the address field.
///
/// When these leave fewer results than the limit, typos are forgiven (docs/search.md, "Typos"): a term of
/// 4 to 7 letters (alphabetic, not CJK) may be one edit from a token, of 8 or more two (the
/// optimal-string-alignment distance); a token that starts with a word is 0 edits; the last
/// word, when it is a term, is compared with every prefix of a token. A term is also met by the
/// spot's category when a one-word category phrase of it starts with the term or is within the
/// term's edits of it, a phrase by the category or by a name holding its words. A spot not already answered matches when one
/// of its names (or its category alone) meets every part, or its names, address and category
/// together (each part within its edits of a token of some name or of a word of one address
/// part, a term also by a house number it equals), some part by an address word, at the
/// address field; it ranks after every other match, by total edits, field, score, type and id
/// (sorted by distance: by distance, edits, type, id).
struct Oracle {
    /// A spot's name as the oracle matches it.
    struct Name {
        /// 0 for `name` and `name:xx`, 1 for the other names.
        let field: Int
        let words: [[UInt8]]
        let tokens: [[UInt8]]
        /// The tokens as text.
        var texts: [String] { tokens.map { String(decoding: $0, as: UTF8.self) } }
    }

    let spots: [Spot]
    let search: SpotSearch
    /// Each spot's names, worked out once.
    let names: [[Name]]
    /// Each spot's searched address.
    let addresses: [SearchAddress]
    /// What each spot meets otherwise than by its kind (`otherTargets(of:compounds:)`).
    let otherTargets: [Set<String>]
    /// The tokens of the index, where a split query word's halves are looked up.
    let indexTokens: Set<String>

    init(spots: [Spot], search: SpotSearch, compounds: [String: [String]]) throws {
        self.spots = spots
        self.search = search
        indexTokens = try Set(
            (0..<search.index.tokenCount).map { String(decoding: try search.index.token($0), as: UTF8.self) })
        otherTargets = spots.map { Self.otherTargets(of: $0, compounds: compounds) }
        addresses = spots.map { SearchAddress($0.address) }
        names = spots.map { spot in
            let fielded =
                [spot.name].compactMap { $0 }.map { ($0, 0) } + spot.names.values.map { ($0, 0) }
                + spot.otherNames.values.map { ($0, 1) }
                + [spot.details[.brand], spot.details[.operator]].compactMap { $0 }.map { ($0, 1) }
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

    /// Whether `words` (in query order) match the spot of `address` and names' `tokens` at the
    /// address level: each starts a token or an address word or equals a house number (alone,
    /// or a number joined to the up to three letters after it), some one an address word.
    static func addressMatches(_ words: [String], tokens: [[UInt8]], address: SearchAddress) -> Bool {
        let addressWords = address.parts.flatMap(\.words)
        let numbers = houseNumberPositions(words, address: address)
        var someByAddress = false
        for (position, word) in words.enumerated() {
            if addressWords.contains(where: { $0.hasPrefix(word) }) {
                someByAddress = true
            } else if !numbers.contains(position) && !tokens.contains(where: { $0.starts(with: word.utf8) }) {
                return false
            }
        }
        return someByAddress
    }

    /// The positions of `words` that a house number of `address` meets: equal to one, or a
    /// number (a digit first and last) and the one to three letters after it, joined.
    static func houseNumberPositions(_ words: [String], address: SearchAddress) -> Set<Int> {
        var numbers: Set<Int> = []
        for position in words.indices {
            if address.houseNumbers.contains(words[position]) { numbers.insert(position) }
            let scalars = words[position].unicodeScalars
            if position + 1 < words.count, scalars.first?.properties.numericType == .decimal,
                scalars.last?.properties.numericType == .decimal, (1...3).contains(words[position + 1].count),
                words[position + 1].unicodeScalars.allSatisfy(\.properties.isAlphabetic),
                address.houseNumbers.contains(words[position] + words[position + 1])
            {
                numbers.formUnion([position, position + 1])
            }
        }
        return numbers
    }

    /// Where a candidate ranks, smaller first.
    struct Key {
        let level: Int
        var edits = 0
        let field: Int
        let quality: Double
        let distance: Double
        let ref: OSMRef
        /// Whether some category phrase of the query is met by the spot's names alone.
        var missed = false
        /// How many of the phrases' targets the spot meets: its kind once per phrase, and each
        /// other target it meets.
        var targetsMet = 0

        /// The orders of docs/search.md, "How results are ranked".
        enum Order {
            /// No place; `namedKindsFirst` for a query with category words and name words.
            case relevance(namedKindsFirst: Bool)
            /// A place and name words: weight × 1.5^(w × q/10) / (1 + d / scale), w the quality weight.
            case near(scale: Double, qualityWeight: Double)
            /// A place and category words alone: 1.1^(q/10) / (1 + d / 1 m).
            case kindsNear
            case distance
        }

        /// The score near a place, as its logarithm (the search compares logarithms too).
        func logScore(_ order: Order) -> Double {
            let q = quality / 10
            switch order {
            case .near(let scale, let qualityWeight):
                let levelWeight = [1, 0.5, 0.4, 0.4, 1, 1][level]
                let fieldWeight = [1, 0.8, 0.25][field]
                return log(levelWeight * fieldWeight) + log(1.5) * (qualityWeight * q) - log1p(distance / scale)
            case .kindsNear: return log(1.1) * q - log1p(distance)
            case .relevance, .distance: return 0
            }
        }

        func precedes(_ other: Key, order: Order) -> Bool {
            let fuzzy = level == 5 ? 1 : 0
            let otherFuzzy = other.level == 5 ? 1 : 0
            switch order {
            case .relevance(let namedKindsFirst):
                let missed = namedKindsFirst && self.missed ? 1 : 0
                let otherMissed = namedKindsFirst && other.missed ? 1 : 0
                let met = level == 3 ? targetsMet : 0
                let otherMet = other.level == 3 ? other.targetsMet : 0
                let first = (level, missed, edits, field, -met)
                let otherFirst = (other.level, otherMissed, other.edits, other.field, -otherMet)
                guard first == otherFirst else { return first < otherFirst }
                return (-quality, ref.type.rawValue, ref.id) < (-other.quality, other.ref.type.rawValue, other.ref.id)
            case .near, .kindsNear:
                return (fuzzy, edits, missed ? 1 : 0, -logScore(order), ref.type.rawValue, ref.id)
                    < (
                        otherFuzzy, other.edits, other.missed ? 1 : 0, -other.logScore(order), other.ref.type.rawValue,
                        other.ref.id
                    )
            case .distance:
                return (fuzzy, distance, level, edits, ref.type.rawValue, ref.id)
                    < (otherFuzzy, other.distance, other.level, other.edits, other.ref.type.rawValue, other.ref.id)
            }
        }
    }

    /// How spot number `number` fits the kinds `query`'s phrases name.
    func kindFit(_ query: ParsedQuery, _ number: Int) -> (missed: Bool, targetsMet: Int) {
        let spot = spots[number]
        var met = 0
        for phrase in query.phrases {
            let byKind = phrase.targets.names(key: spot.tagKey, value: spot.kind, category: spot.category)
            let own = [spot.category?.rawValue, spot.tagKey + "=" + spot.kind]
            let others = otherTargets[number].filter { !own.contains($0) }
            met += (byKind ? 1 : 0) + others.filter { phrase.targets.names.contains($0) }.count
        }
        return (!query.phrases.allSatisfy { meets($0.targets, number) }, met)
    }

    /// Whether spot number `number` is of what `targets` name: by its category or selecting
    /// tag, or by one of its `otherTargets`.
    func meets(_ targets: PhraseTargets, _ number: Int) -> Bool {
        let spot = spots[number]
        return targets.names(key: spot.tagKey, value: spot.kind, category: spot.category)
            || !otherTargets[number].isDisjoint(with: targets.categories.map(\.rawValue))
            || !otherTargets[number].isDisjoint(with: targets.values)
    }

    /// The categories and values (`key=value`) `spot` meets otherwise than by its kind: each
    /// value one of its attributes lists and each `_`-separated part of one ("italian_pizza":
    /// italian and pizza), and what the compound words name that end one of its
    /// name words, longer than them.
    static func otherTargets(of spot: Spot, compounds: [String: [String]]) -> Set<String> {
        var targets: Set<String> = []
        for (key, value) in spot.attributeTags {
            // Items split on ";" or ","; an item that lists with "&" or " and " also gives each member.
            for item in value.replacingOccurrences(of: ",", with: ";").components(separatedBy: ";") {
                let listed = item.trimmingCharacters(in: .whitespaces).lowercased()
                guard !listed.isEmpty else { continue }
                let members = listed.replacingOccurrences(of: " and ", with: "&").replacingOccurrences(
                    of: "＆", with: "&"
                )
                .replacingOccurrences(of: "﹠", with: "&").components(separatedBy: "&")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                for text in [listed] + (members.count > 1 ? members : []) {
                    targets.insert(key + "=" + text)
                    for part in text.components(separatedBy: "_") { targets.insert(key + "=" + part) }
                }
            }
        }
        for (_, name) in spot.namesByKey {
            for word in SearchText.words(name) {
                var rest = Substring(word).dropFirst()
                while !rest.isEmpty {
                    targets.formUnion(compounds[String(rest)] ?? [])
                    rest = rest.dropFirst()
                }
            }
        }
        return targets
    }

    func answer(_ request: SearchRequest) throws -> [(ref: OSMRef, distance: Double?)] {
        guard request.limit > 0 else { return [] }
        let query = search.parser.parse(request.naturalLanguageQuery ?? "")
        let origin = request.near ?? request.region?.center
        let terms = query.words.map { Array($0.utf8) }
        var chosen: [Key] = []
        for (number, (spot, names)) in zip(spots, names).enumerated() {
            if let filter = request.pointOfInterestFilter, !filter.allows(spot.category) { continue }
            let tokens = names.flatMap(\.tokens)
            if let region = request.region, !region.contains(spot.coordinate) { continue }
            let distance = origin.map { spot.coordinate.distance(to: $0) }
            if let radius = request.radius, let distance, distance > radius { continue }
            var match: (level: Int, field: Int)?
            if !terms.isEmpty {
                for name in names {
                    guard let level = Self.level(of: name, terms: terms) else { continue }
                    if match.map({ (level, name.field) < ($0.level, $0.field) }) ?? true { match = (level, name.field) }
                }
                // The words the kind does not meet, which the names (or the address) must.
                let unmet = query.words(leavingOut: query.phrases.map { meets($0.targets, number) })
                if match == nil, !query.phrases.isEmpty,
                    unmet.allSatisfy({ word in tokens.contains { $0.starts(with: word.utf8) } })
                {
                    match = (3, 0)
                }
                if match == nil, !query.terms.isEmpty,
                    Self.addressMatches(unmet, tokens: tokens, address: addresses[number])
                {
                    match = (4, 2)
                }
                guard match != nil else { continue }
            }
            let fit = kindFit(query, number)
            chosen.append(
                Key(
                    level: match?.level ?? 0, field: match?.field ?? 0, quality: Double(Self.qualityScore(of: spot)),
                    distance: distance ?? 0, ref: spot.ref, missed: fit.missed, targetsMet: fit.targetsMet))
        }
        if !terms.isEmpty && chosen.count < request.limit {
            let answered = Set(chosen.map(\.ref))
            chosen += try typoMatches(query, request: request, origin: origin).filter { !answered.contains($0.ref) }
        }
        // Without text, nearest first (or by reference), whatever the sort.
        let order: Key.Order =
            if terms.isEmpty || request.sort == .distance {
                .distance
            } else if origin == nil {
                .relevance(namedKindsFirst: !query.phrases.isEmpty && !query.terms.isEmpty)
            } else if query.terms.isEmpty {
                .kindsNear
            } else {
                .near(
                    scale: request.distanceScale,
                    qualityWeight: request.qualityWeight.isNaN ? 1 : min(max(request.qualityWeight, 0), 10))
            }
        chosen.sort { $0.precedes($1, order: order) }
        return chosen.prefix(request.limit).map { ($0.ref, origin == nil ? nil : $0.distance) }
    }
}

extension Oracle {
    /// The edits a term of `letters` scalars forgives.
    static func maxEdits(of word: String, forgiving: Bool) -> Int {
        let scalars = Array(word.unicodeScalars)
        guard forgiving, scalars.allSatisfy({ $0.properties.isAlphabetic && !SearchText.isCJK($0) }) else { return 0 }
        return scalars.count >= 8 ? 2 : scalars.count >= 4 ? 1 : 0
    }

    /// The optimal-string-alignment distances between `a` and each prefix of `b` (from the empty
    /// one), by the whole table.
    static func distances(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> [Int] {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                table[i][j] = min(
                    table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count]
    }

    /// The edits from `word` to `token`, or nil beyond what the word forgives, `spent` fewer.
    static func edits(_ word: String, _ token: String, isLast: Bool, forgiving: Bool, spent: Int = 0) -> Int? {
        if token.unicodeScalars.starts(with: word.unicodeScalars) { return 0 }
        let limit = maxEdits(of: word, forgiving: forgiving) - spent
        guard limit > 0 else { return nil }
        let w = Array(word.unicodeScalars)
        let t = Array(token.unicodeScalars)
        // Strings whose lengths differ by more than the limit are farther apart than it.
        guard isLast ? t.count >= w.count - limit : abs(t.count - w.count) <= limit else { return nil }
        let row = distances(w, t)
        let edits = isLast ? row.min()! : row[t.count]
        return edits <= limit ? edits : nil
    }

    /// A part of the query in the typo stage: its words, whether they forgive, whether the last
    /// is a term, the edit of a respelling (0 or 1), what it names with the edits that takes,
    /// and the term it stands for.
    struct TypoPart {
        let words: [String]
        let forgiving: Bool
        let isLast: Bool
        let spent: Int
        let named: [(PhraseTargets, Int)]
        let term: Int?
    }

    /// The part of term `word`, or of two terms joined (`spent` 1): named by the one-word
    /// phrases within its edits of it.
    func termPart(_ word: String, isLast: Bool, spent: Int, term: Int?) -> TypoPart {
        var named: [(PhraseTargets, Int)] = []
        if Self.maxEdits(of: word, forgiving: true) > 0 {
            for phrase in search.parser.oneWordPhrases.sorted {
                let text = String(String.UnicodeScalarView(phrase.scalars.compactMap(Unicode.Scalar.init)))
                guard let edits = Self.edits(word, text, isLast: false, forgiving: true, spent: spent) else {
                    continue
                }
                named.append((phrase.targets, edits + spent))
            }
        }
        return TypoPart(words: [word], forgiving: true, isLast: isLast, spent: spent, named: named, term: term)
    }

    /// The parts of the typo stage and its readings (lists of part numbers): the query as typed,
    /// then two neighbouring terms of letters joined (4 letters or more together), then a term
    /// split in two halves of 3 letters or more that are whole tokens of the
    /// index (the second may start one when the term ends the query).
    func typoReadings(_ query: ParsedQuery) -> (parts: [TypoPart], readings: [[Int]]) {
        var parts = query.phrases.map {
            TypoPart(words: $0.words, forgiving: false, isLast: false, spent: 0, named: [($0.targets, 0)], term: nil)
        }
        let terms = query.termTexts
        func isLast(_ term: Int) -> Bool { query.endsWithTerm && term == terms.count - 1 }
        for (position, term) in terms.enumerated() {
            parts.append(termPart(term, isLast: isLast(position), spent: 0, term: position))
        }
        let asTyped = Array(parts.indices)
        var readings = [asTyped]
        func replace(_ replaced: [Int], by part: TypoPart) {
            parts.append(part)
            readings.append(asTyped.filter { !replaced.contains($0 - query.phrases.count) } + [parts.count - 1])
        }
        let letters = { (word: String) in
            word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && !SearchText.isUnspaced($0) }
        }
        let phraseWords = Set(query.phrases.flatMap(\.range))
        let positions = query.words.indices.filter { !phraseWords.contains($0) }
        for term in terms.indices.dropLast()
        where positions[term + 1] == positions[term] + 1 && letters(terms[term]) && letters(terms[term + 1])
            && (terms[term] + terms[term + 1]).unicodeScalars.count >= 4
        {
            replace(
                [term, term + 1],
                by: termPart(terms[term] + terms[term + 1], isLast: isLast(term + 1), spent: 1, term: nil))
        }
        let tokens = indexTokens
        for (term, text) in terms.enumerated() where letters(text) {
            let scalars = Array(text.unicodeScalars)
            for cut in stride(from: 3, through: scalars.count - 3, by: 1) {
                let first = String(String.UnicodeScalarView(scalars[..<cut]))
                let second = String(String.UnicodeScalarView(scalars[cut...]))
                guard tokens.contains(first),
                    isLast(term) ? tokens.contains(where: { $0.hasPrefix(second) }) : tokens.contains(second)
                else { continue }
                replace(
                    [term],
                    by: TypoPart(
                        words: [first, second], forgiving: false, isLast: isLast(term), spent: 1, named: [], term: nil))
            }
        }
        return (parts, readings)
    }

    /// The matches of the typo stage, every spot checked, by the best of the readings.
    func typoMatches(_ query: ParsedQuery, request: SearchRequest, origin: Coordinate?) throws -> [Key] {
        let (parts, readings) = typoReadings(query)
        guard readings.count > 1 || query.termTexts.contains(where: { Self.maxEdits(of: $0, forgiving: true) > 0 })
        else { return [] }
        var found: [Key] = []
        // The edits of a word to a token, as worked out: names repeat their words.
        var known: [String: Int?] = [:]
        for (number, (spot, spotNames)) in zip(spots, names).enumerated() {
            if let filter = request.pointOfInterestFilter, !filter.allows(spot.category) { continue }
            if let region = request.region, !region.contains(spot.coordinate) { continue }
            let distance = origin.map { spot.coordinate.distance(to: $0) }
            if let radius = request.radius, let distance, distance > radius { continue }
            let byKind = parts.map { part in
                part.named.filter { meets($0.0, number) }.map(\.1).min()
            }
            // The edits with which `tokens` meet every word of `part`.
            func edits(of part: TypoPart, in tokens: [String]) -> Int? {
                var total: Int? = part.spent
                for word in part.words {
                    let edits = tokens.compactMap { token in
                        let key =
                            word + "\t" + token + (part.isLast ? "\tlast" : "") + (part.forgiving ? "" : "\texact")
                            + "\t\(part.spent)"
                        if let known = known[key] { return known }
                        let edits = Self.edits(
                            word, token, isLast: part.isLast, forgiving: part.forgiving, spent: part.spent)
                        known[key] = edits
                        return edits
                    }.min()
                    total = edits.flatMap { e in total.map { $0 + e } }
                }
                return total
            }
            var best: (edits: Int, field: Int)?
            let address = addresses[number]
            let allTokens = spotNames.flatMap(\.texts)
            let numbers = Self.houseNumberPositions(query.termTexts, address: address)
            for reading in readings {
                if reading.allSatisfy({ byKind[$0] != nil }) {
                    let total = reading.map { byKind[$0]! }.reduce(0, +)
                    if best.map({ (total, 0) < ($0.edits, $0.field) }) ?? true { best = (total, 0) }
                }
                for name in spotNames {
                    var total: Int? = 0
                    for part in reading {
                        let edits = [edits(of: parts[part], in: name.texts), byKind[part]].compactMap { $0 }.min()
                        total = edits.flatMap { e in total.map { $0 + e } }
                    }
                    if let total, best.map({ (total, name.field) < ($0.edits, $0.field) }) ?? true {
                        best = (total, name.field)
                    }
                }
                // The names, the address and the kind together, some part by an address word.
                var total: Int? = 0
                var extra: Int?
                for part in reading {
                    let byAddress = address.parts.compactMap { edits(of: parts[part], in: $0.words) }.min()
                    let byNumber: Int? = parts[part].term.map(numbers.contains) == true ? 0 : nil
                    guard
                        let partBest = [edits(of: parts[part], in: allTokens), byKind[part], byNumber, byAddress]
                            .compactMap({ $0 }).min()
                    else {
                        total = nil
                        break
                    }
                    total = total.map { $0 + partBest }
                    if let byAddress { extra = min(extra ?? .max, byAddress - partBest) }
                }
                if let total, let extra, best.map({ (total + extra, 2) < ($0.edits, $0.field) }) ?? true {
                    best = (total + extra, 2)
                }
            }
            guard let best else { continue }
            let fit = kindFit(query, number)
            found.append(
                Key(
                    level: 5, edits: best.edits, field: best.field, quality: Double(Self.qualityScore(of: spot)),
                    distance: distance ?? 0, ref: spot.ref, missed: fit.missed, targetsMet: fit.targetsMet))
        }
        return found
    }
}

/// Checks `search` against the oracle on `requests`, for an index built with `compounds`;
/// returns the first mismatches.
func mismatches(
    _ search: SpotSearch, _ spots: [Spot], _ requests: [SearchRequest], compounds: [String: [String]] = [:]
) throws -> [String] {
    let oracle = try Oracle(spots: spots, search: search, compounds: compounds)
    var failures: [String] = []
    for request in requests {
        let got = try search.search(request).map { ($0.spot.ref, $0.distance) }
        let want = try oracle.answer(request)
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
