import SpotIndex
import SpotText
import Spots

/// The last stage of a text search (docs/search.md, "Typos"): when the exact levels leave the list of
/// results short, the query again with its typos forgiven, at the fuzzy level. Each term may
/// be within its edits (`FuzzyWord`) of a word of a name, or start or be within its edits of a
/// whole one-word category phrase of the spot's kind ("muse", "resturant", "muzeum"); category
/// phrases the parser found count as in the exact levels. A spot matches when one of its names
/// (or its kind) meets every part, and ranks by the edits it took, fewest first.
///
/// The query is read as typed and in each of its respellings (`Respelling`: two neighbouring
/// terms joined, or one split in two, for an edit), each reading a list of parts; a spot meets
/// the query by its best reading. No spot meets a reading without every one of its parts, so
/// each reading gathers its candidates by its part whose tokens within reach and kinds list the
/// fewest spots (a respelling: the part it puts in, or one of the query's), and the readings
/// that gather by the same part share its runs. Each other part of a reading gives the spots it
/// lists, with the fewest edits it takes for each, which bound a candidate before its names are
/// read for that reading (`TypoCandidates`).
struct TypoStage: CandidateSource {
    /// The parts of every reading: the query's category phrases, then its terms (the query as
    /// typed), then the parts its respellings put in their place.
    let parts: [FuzzyPart]
    /// The readings of the query, each the numbers of its parts: the query as typed first, then
    /// one per respelling, the part it puts in last.
    let readings: [[Int]]
    /// The query's terms.
    let terms: [String]

    /// The stage for `query`, parsed by `parser`, over `index`; nil when no part forgives a typo
    /// and no respelling reads the query otherwise.
    init?(query: ParsedQuery, parser: QueryParser, index: SpotIndexReader) throws(IndexError) {
        let kinds = index.kinds
        var parts = query.phrases.map { phrase in
            FuzzyPart(
                words: phrase.words.map { FuzzyWord($0, isLast: false, forgiving: false) },
                kinds: Dictionary(
                    uniqueKeysWithValues: kinds.indices.filter { phrase.targets.names(kinds[$0]) }.map { ($0, 0) }),
                targets: Dictionary(uniqueKeysWithValues: phrase.targets.names.map { ($0, 0) }), index: index)
        }
        let firstTerm = parts.count
        for (position, term) in query.terms.enumerated() {
            let word = FuzzyWord(term.text, isLast: query.endsWithTerm && position == query.terms.count - 1)
            parts.append(
                Self.termPart(
                    word, term: position, mayBeHouseNumber: term.mayBeHouseNumber, parser: parser, index: index))
        }
        let asTyped = Array(parts.indices)
        var readings = [asTyped]
        for respelling in try Respelling.all(of: query, in: index) {
            if respelling.words.count == 1 {
                parts.append(Self.termPart(respelling.words[0], spaceEdits: 1, parser: parser, index: index))
            } else {
                parts.append(FuzzyPart(words: respelling.words, kinds: [:], targets: [:], spaceEdits: 1, index: index))
            }
            readings.append(asTyped.filter { !respelling.terms.contains($0 - firstTerm) } + [parts.count - 1])
        }
        guard readings.count > 1 || parts.contains(where: \.forgives) else { return nil }
        self.parts = parts
        self.readings = readings
        terms = query.termTexts
    }

    /// The part of a term, or of a respelling's joined word (`spaceEdits` 1), read as `word`:
    /// met by names within its edits, and by the kinds and targets of the one-word category
    /// phrases it starts or is within its edits of. A category word is met whole: a typo in its
    /// first letters with the rest unsaid ("poste" for "hoste…") names too many kinds to be
    /// meant. One whose length differs from the word's by more than its edits is out of reach
    /// unless the word starts it.
    private static func termPart(
        _ word: FuzzyWord, spaceEdits: Int = 0, term: Int? = nil, mayBeHouseNumber: Bool = false,
        parser: QueryParser, index: SpotIndexReader
    ) -> FuzzyPart {
        let kinds = index.kinds
        var kindEdits: [Int: Int] = [:]
        var targetEdits: [String: Int] = [:]
        if FuzzyWord.mayForgive(word.text) && FuzzyWord.maxEdits(forLength: word.scalars.count) > 0 {
            let whole = FuzzyWord(word.text, isLast: false, spent: spaceEdits)
            for (phrase, phraseEdits) in parser.oneWordPhrases.matches(of: whole) {
                let edits = phraseEdits + spaceEdits
                for kind in kinds.indices where phrase.targets.names(kinds[kind]) {
                    kindEdits[kind] = min(kindEdits[kind] ?? edits, edits)
                }
                for name in phrase.targets.names { targetEdits[name] = min(targetEdits[name] ?? edits, edits) }
            }
        }
        return FuzzyPart(
            words: [word], kinds: kindEdits, targets: targetEdits, spaceEdits: spaceEdits, term: term,
            mayBeHouseNumber: mayBeHouseNumber, index: index)
    }

    /// How many postings a part's listing reads for what one spot's names cost to read and
    /// check: measured on the typo rows of Benchmarks/typos.sh (20 is best on both indexes; 10
    /// reads names the postings would have ruled out, 40 and more list parts few candidates ask).
    static let postingsPerName = 20

    /// How many tokens a part of the query may reach for its sources to be read, for each spot
    /// of the fewest that a part read lists: each token costs a posting at least.
    static let tokensPerSpot = 10

    /// The same for a respelling's other parts, measured against the respelling's own fewest
    /// spots: lower, since a respelling's runs are read only while the list is short, so what
    /// its sources save is less sure (measured on typos.sh's rows: 3 read fewer instructions
    /// than 1, 5 or 10).
    static let tokensPerRespeltSpot = 3

    /// The candidates: the runs of each part that gathers for some readings (the one of them
    /// that lists the fewest spots), grouped by the best key each gives (with one part, the key
    /// itself). Every candidate is checked against every reading whose other parts list it
    /// (`TypoCheck`).
    ///
    /// Reading a spot's names costs about as much as listing twenty postings (`PartListing`, by
    /// rank, with no look-up of a posting's spot), so a part that lists more than twenty times
    /// as many spots as the one that gathers is checked on the names alone, its postings unread
    /// (`postingsPerName`). Each token has a posting, so parts are read in the order of the
    /// tokens they reach, and those that reach too many are not read.
    func runs(in index: SpotIndexReader) throws -> [CandidateRun] {
        let asTyped = readings[0]
        let tokens = try asTyped.map { try parts[$0].tokenMatches(in: index, alone: asTyped.count == 1) }
        let tokenCounts = tokens.map { $0.reduce(0) { $0 + $1.tokens.count } }
        var sources: [Int: FuzzySources] = [:]
        // Reads the sources of the query's parts of `reading` in the order of the tokens they
        // reach, while those are at most `tokensPerSpot` times the spots of the fewest read:
        // each token costs a posting at least, and a part that reaches more lists too many spots
        // to gather by or to list. Returns those fewest spots (nil: no part but number parts read).
        func readSources(of reading: [Int], tokensPerSpot: Int) throws -> Int? {
            var fewest =
                reading.compactMap { part in
                    parts[part].mayBeHouseNumber ? nil : sources[part]?.count
                }.min() ?? .max
            for part in reading.filter({ sources[$0] == nil }).sorted(by: { tokenCounts[$0] < tokenCounts[$1] }) {
                guard fewest == .max || tokenCounts[part] <= tokensPerSpot * fewest else { break }
                sources[part] = try parts[part].sources(of: tokens[part], in: index)
                if !parts[part].mayBeHouseNumber { fewest = min(fewest, sources[part]!.count) }
            }
            return fewest == .max ? nil : fewest
        }
        let fewest = try readSources(of: asTyped, tokensPerSpot: Self.tokensPerSpot)
        // A house number meets a number part unlisted, so such a part never gathers, unless every
        // part is one (then the typo is in none: the stage forgives nothing there).
        let gathering = asTyped.filter { !parts[$0].mayBeHouseNumber }
        if let first = gathering.min(by: { tokenCounts[$0] < tokenCounts[$1] }), fewest == nil {
            sources[first] = try parts[first].sources(of: tokens[first], in: index)
        }
        let driver = sources.filter { gathering.isEmpty || !parts[$0.key].mayBeHouseNumber }
            .min { ($0.value.count, $0.key) < ($1.value.count, $1.key) }!.key
        var drivers = [driver]
        var partTokens = Dictionary(uniqueKeysWithValues: zip(asTyped, tokens))
        for reading in readings.dropFirst() {
            let part = reading.last!
            partTokens[part] = try parts[part].tokenMatches(in: index, alone: false)
            sources[part] = try parts[part].sources(of: partTokens[part]!, in: index)
            // Its other parts are read as the query's are, measured against the respelling's
            // spots: a split whose halves many names hold ("delli kesk") leaves the query's other
            // words worth reading, to gather by or to list.
            _ = try readSources(of: reading, tokensPerSpot: Self.tokensPerRespeltSpot)
            // No spot meets the respelling without the part it puts in, nor without any other of
            // its parts: it gathers by the one whose sources list the fewest spots.
            drivers.append(
                reading.filter { sources[$0] != nil && !parts[$0].mayBeHouseNumber }
                    .min { (sources[$0]!.count, $0) < (sources[$1]!.count, $1) }!)
        }
        // The fewest edits each part can take (with one part, which the exact levels met with
        // none, its tokens within reach leave those out: its reading does not count edits).
        var least: [Int: Int] = [:]
        for (part, tokens) in partTokens { least[part] = parts[part].leastEdits(tokens: tokens) }
        let houseNumbers = HouseNumberTerms()
        // What each part whose sources were read lists, shared by every reading that has it: all
        // its postings, or those of names alone.
        let listings = sources.mapValues { source in
            (
                all: Lazy { try PartListing(source, in: index) },
                names: Lazy { try PartListing(source, addresses: false, in: index) }
            )
        }
        // With one part, a run's bound is its spots' key but for their quality when they come
        // from a kind's list: their names were read first where they do better (a name's run
        // whose bound is below), and no better where they do as well. A respelling's runs have
        // a bound below such a key where they may do better, and are checked.
        var runs: [CandidateRun] = []
        var narrowings = TypoNarrowings(stage: self, sources: sources, index: index)
        for driver in Set(drivers).sorted() {
            // The readings this part gathers for share its runs.
            let gathered = readings.indices.filter { drivers[$0] == driver }
            let candidates = readings.indices.map { other in
                self.candidates(
                    of: readings[other], listedBy: drivers[other], leavingOut: driver, sources: sources,
                    listings: listings, least: least, countsEdits: asTyped.count > 1 || other > 0,
                    houseNumbers: houseNumbers, index: index)
            }
            // Every part but the driver adds at least its fewest edits to a spot of a reading; a
            // spot that another reading meets with fewer is in that reading's runs, read first.
            let othersLeast = gathered.map { readings[$0].filter { $0 != driver }.reduce(0) { $0 + least[$1]! } }.min()!
            for group in sources[driver]!.groups {
                let origin = group.origin
                let bound = KeyBound(
                    level: origin.bound.level, edits: origin.bound.edits + othersLeast, field: origin.bound.field,
                    score: origin.bound.score)
                let check: any CandidateCheck
                if gathered != [0] || asTyped.count > 1 {
                    check = TypoCheck(stage: self, candidates: candidates, gathererEdits: origin.bound.edits)
                } else if origin.isKind {
                    check = KindCheck()
                } else {
                    check = BoundCheck()
                }
                var run = CandidateRun(
                    bound: bound, lists: group.lists, check: check, splitsByQuality: origin.isKind)
                run.narrowing = narrowings.narrowing(ofRunsOf: driver, kinds: group.kinds, for: gathered)
                runs.append(run)
            }
        }
        return runs.sorted { $0.bound < $1.bound }
    }

    /// What the parts of `reading` but `gatherer` (the part whose runs are read) list, of those
    /// whose `sources` were read and list at most `postingsPerName` times as many spots as the
    /// reading's `driver`: a kind or postings (`listings`), a number part also by the spot's
    /// house number. A part whose address postings are too many (a town's name in every
    /// address) lists its names' alone when they are at most twice the driver's: its address is
    /// then taken to meet any spot with its `least` edits, so such a listing turns away only the
    /// candidates its address alone may meet, and only once the list is full, and pays for fewer
    /// postings than a whole one. The other parts add their `least` edits. A reading's own driver
    /// is among them for the runs of another, so that a candidate of the query as typed is
    /// checked against a respelling only when it holds the respelt word. A reading that does not
    /// `countsEdits` (one part, which the exact levels met with none) lists its spots with no edit.
    private func candidates(
        of reading: [Int], listedBy driver: Int, leavingOut gatherer: Int, sources: [Int: FuzzySources],
        listings: [Int: (all: Lazy<PartListing>, names: Lazy<PartListing>)], least: [Int: Int], countsEdits: Bool,
        houseNumbers: HouseNumberTerms, index: SpotIndexReader
    ) -> TypoCandidates {
        var unlistedEdits = 0
        var others: [TypoCandidates.Part] = []
        let gathered = sources[driver]!.count
        for part in reading where part != gatherer {
            let listing: (names: Lazy<PartListing>, addressEdits: Int?)
            switch (sources[part], listings[part]) {
            case (let source?, let listings?) where source.nameCount <= Self.postingsPerName * gathered:
                listing = (listings.all, nil)
            case (let source?, let listings?) where source.nameCount - source.addressCount <= 2 * gathered:
                listing = (listings.names, least[part]!)
            default:
                unlistedEdits += least[part]!
                continue
            }
            others.append(
                TypoCandidates.Part(
                    kinds: index.kinds.indices.map { parts[part].kinds[$0] },
                    listed: parts[part].targets.isEmpty ? nil : parts[part].listed, names: listing.names,
                    addressEdits: listing.addressEdits,
                    houseNumberTerm: parts[part].mayBeHouseNumber ? parts[part].term : nil))
        }
        return TypoCandidates(
            otherParts: others, unlistedEdits: unlistedEdits, holdsGatherer: reading.contains(gatherer),
            countsEdits: countsEdits, terms: terms, index: index, houseNumbers: houseNumbers)
    }

    /// How the spot of reference rank `rank`, with `text` and of kind number `kind`, meets the
    /// query with typos forgiven, by the best of the readings flagged in `open` (every one
    /// without): the fewest edits, then the best field, and the name key or address part that
    /// gives them (nil when its kind or lists meet every part); nil when it does not. One name
    /// (or the kind) meets every part of a reading, or, at the address field, the names and the
    /// address together as at the address level (`AddressMatch`), read only when that can take
    /// fewer edits: when the names took more than `leastEdits` (the fewest the spot can take), by
    /// reading.
    func match(
        _ text: CandidateText, kind: Int, rank: Int, readings open: [Bool]? = nil, leastEdits: [Int]? = nil
    ) throws -> (edits: Int, field: NameField, key: String?)? {
        let opened = readings.indices.filter { open?[$0] ?? true }
        let least = opened.lazy.map { leastEdits?[$0] ?? 0 }.min() ?? 0
        let names = text.names
        // What is worked out once per part, or per name and part, when first needed (a name
        // stops being read at the first part it misses): -1 for no match, -2 not yet known.
        var kindKnown = [Int](repeating: -2, count: parts.count)
        var known = [Int](repeating: -2, count: names.count * parts.count)
        // The edits with which the spot's kind or lists meet a part.
        func byKind(_ part: Int) throws -> Int? {
            if kindKnown[part] == -2 {
                let listed = try parts[part].listed.value().edits(ofRank: rank).names
                kindKnown[part] = fewest(parts[part].kinds[kind], listed) ?? -1
            }
            return kindKnown[part] >= 0 ? kindKnown[part] : nil
        }
        // The edits with which a name meets a part.
        func edits(ofName name: Int, part: Int) -> Int? {
            let slot = name * parts.count + part
            if known[slot] == -2 { known[slot] = parts[part].edits(ofNameTokens: names[name].tokenScalars) ?? -1 }
            return known[slot] >= 0 ? known[slot] : nil
        }
        var best: (edits: Int, field: NameField, key: String?)?
        func consider(_ edits: Int, _ field: NameField, _ key: String?) {
            if best.map({ (edits, field) < ($0.edits, $0.field) }) ?? true { best = (edits, field, key) }
        }
        for reading in opened.lazy.map({ self.readings[$0] }) {
            var byKinds = 0
            for part in reading {
                guard let edits = try byKind(part) else {
                    byKinds = -1
                    break
                }
                byKinds += edits
            }
            if byKinds >= 0 { consider(byKinds, .primary, nil) }
            for name in names.indices {
                var total = 0
                for part in reading {
                    guard let partEdits = fewest(edits(ofName: name, part: part), try byKind(part)) else {
                        total = -1
                        break
                    }
                    total += partEdits
                }
                if total >= 0 { consider(total, NameField(ofKey: names[name].key), names[name].key) }
            }
        }
        // The address field ranks last: it takes fewer edits or nothing.
        guard best.map({ $0.edits > least }) ?? true else { return best }
        let address = try text.address()
        let addressParts = address.parts.map { part in (part.key, part.words.map { $0.unicodeScalars.map(\.value) }) }
        // The fewest edits with which a part of the address meets each part, and which, worked
        // out once, when first needed.
        var byAddress: [Int: (edits: Int, key: String)?] = [:]
        func addressEdits(ofPart part: Int) -> (edits: Int, key: String)? {
            if let known = byAddress[part] { return known }
            var best: (edits: Int, key: String)?
            for (key, words) in addressParts {
                guard let edits = parts[part].edits(ofNameTokens: words) else { continue }
                if best.map({ edits < $0.edits }) ?? true { best = (edits, key) }
            }
            byAddress[part] = .some(best)
            return best
        }
        for reading in opened.lazy.map({ self.readings[$0] }) {
            if let match = try addressMatch(
                of: reading, houseNumbers: address.houseNumbers, byKind: byKind, byAddress: addressEdits,
                byNames: { part in names.indices.lazy.compactMap { edits(ofName: $0, part: part) }.min() }),
                best.map({ match.edits < $0.edits }) ?? true
            {
                best = (match.edits, .address, match.key)
            }
        }
        return best
    }
}

extension TypoStage {
    /// How the names and the address together meet the parts of `reading` with typos forgiven,
    /// at least one by a word of the address, as at the address level (a phrase met by the
    /// kind, or by the words of the names or address; a term also by one of `houseNumbers`):
    /// the fewest edits and the address part that met a part, or nil. `byKind` gives the edits
    /// with which the spot's kind or lists meet a part, `byAddress` gives the fewest with
    /// which a part of the address meets a part and which, `byNames` the fewest with which some
    /// name meets a part (asked only once the address meets some part).
    private func addressMatch(
        of reading: [Int], houseNumbers: [String], byKind: (Int) throws -> Int?,
        byAddress: (Int) -> (edits: Int, key: String)?, byNames: (Int) -> Int?
    ) rethrows -> (edits: Int, key: String)? {
        let byAddress = reading.map(byAddress)
        guard byAddress.contains(where: { $0 != nil }) else { return nil }
        let numbers = AddressMatch.houseNumberWords(terms, among: houseNumbers)
        var total = 0
        // The fewest edits more than its best with which an address word meets a part, and where.
        var cheapest: (extra: Int, key: String)?
        for (part, address) in zip(reading, byAddress) {
            let byNumber: Int? = parts[part].term.map(numbers.contains) == true ? 0 : nil
            let otherwise = fewest(fewest(byNames(part), try byKind(part)), byNumber)
            guard let partEdits = [otherwise, address?.edits].compactMap({ $0 }).min() else { return nil }
            total += partEdits
            if let address, cheapest.map({ address.edits - partEdits < $0.extra }) ?? true {
                cheapest = (address.edits - partEdits, address.key)
            }
        }
        return cheapest.map { (total + $0.extra, $0.key) }
    }
}
