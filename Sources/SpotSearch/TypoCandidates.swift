import SpotIndex
import SpotText

/// The spots the postings of the tokens a part of the typo stage reaches hold, with the fewest
/// edits with which they reach each, in its names and in its names or address: what the stage
/// asks of a candidate before it reads the candidate's names; or the spots of the word lists
/// of the part's targets, with their edits (met alike either way). A byte a spot (the two counts,
/// four bits each), for every spot when the postings list more than a 256th of them
/// (sorting them would cost more), else beside the sorted ranks.
///
/// Spots are listed by reference rank, as postings and lists give them, not by spot number:
/// turning each posting's rank into its spot would read REFS at every posting (a cache miss
/// each, for the postings of a common word spread over the whole index), while a candidate is
/// asked about by the rank it was read at (`Candidate`).
final class PartListing {
    /// Sorted ranks, beside `codes`; empty when `codes` has a byte for every rank.
    private let ranks: [Int32]
    /// The edits with which a name (low four bits) and a name or the address (high four bits) is
    /// reached, `none` for neither.
    private let codes: [UInt8]
    private static let none: UInt8 = 0x0F

    /// The listing of `sources`' name postings (their kinds' lists are left out), those of the
    /// address field too when `addresses`.
    convenience init(_ sources: FuzzySources, addresses: Bool = true, in index: SpotIndexReader) throws {
        var listed: [Int] = []
        listed.reserveCapacity(sources.nameCount)
        for (origin, lists) in sources.postingGroups where addresses || origin.bound.field != .address {
            let edits = Self.code(origin.bound.edits)
            let code = Int(edits << 4 | (origin.bound.field == .address ? Self.none : edits))
            for var ranks in lists {
                while let rank = try ranks.next() { listed.append(rank << 8 | code) }
            }
        }
        self.init(listed, spotCount: index.count)
    }

    /// The spots of the word lists of `targets` (categories and values, with the edits that
    /// meet each) in `index`.
    convenience init(targets: [String: Int], in index: SpotIndexReader) throws {
        var listed: [Int] = []
        for (target, edits) in targets {
            guard let list = try index.wordList(of: target) else { continue }
            let code = Int(Self.code(edits) << 4 | Self.code(edits))
            for rank in try list.remainingRanks() { listed.append(rank << 8 | code) }
        }
        self.init(listed, spotCount: index.count)
    }

    /// The listing of `listed`, each entry packed as rank << 8 | code (so that sorting puts a
    /// spot's together), for an index of `spotCount` spots.
    private init(_ listed: [Int], spotCount: Int) {
        var listed = listed
        if listed.count > spotCount / 256 {
            var codes = [UInt8](repeating: Self.none << 4 | Self.none, count: spotCount)
            for entry in listed { codes[entry >> 8] = Self.merged(codes[entry >> 8], UInt8(entry & 0xFF)) }
            (ranks, self.codes) = ([], codes)
        } else {
            listed.sort()
            var ranks: [Int32] = []
            var codes: [UInt8] = []
            for entry in listed {
                let (rank, code) = (Int32(entry >> 8), UInt8(entry & 0xFF))
                if ranks.last == rank {
                    codes[codes.count - 1] = Self.merged(codes[codes.count - 1], code)
                } else {
                    ranks.append(rank)
                    codes.append(code)
                }
            }
            (self.ranks, self.codes) = (ranks, codes)
        }
    }

    /// Edits as a count of a code: at most one below `none`.
    private static func code(_ edits: Int) -> UInt8 { UInt8(min(edits, Int(none) - 1)) }

    /// The fewest of each count of `a` and `b`.
    private static func merged(_ a: UInt8, _ b: UInt8) -> UInt8 {
        min(a & 0xF0, b & 0xF0) | min(a & 0x0F, b & 0x0F)
    }

    /// The fewest edits with which a token reaches a name of the spot of reference rank `rank`,
    /// and a name or its address; nil where none does.
    func edits(ofRank rank: Int) -> (names: Int?, any: Int?) {
        let code: UInt8
        if ranks.isEmpty {
            code = codes.isEmpty ? Self.none << 4 | Self.none : codes[rank]
        } else {
            var low = 0
            var high = ranks.count
            let target = Int32(rank)
            while low < high {
                let middle = (low + high) / 2
                if ranks[middle] < target { low = middle + 1 } else { high = middle }
            }
            code = low < ranks.count && ranks[low] == target ? codes[low] : Self.none << 4 | Self.none
        }
        let names = code & 0x0F
        let any = code >> 4
        return (names == Self.none ? nil : Int(names), any == Self.none ? nil : Int(any))
    }
}

/// What the parts of one reading of a query in the typo stage list, but the one that gave the
/// runs (the gatherer): a candidate must be listed by all of them to be checked, and the edits
/// with which they list it bound the edits with which it can meet the reading, before its names
/// are read.
final class TypoCandidates {
    /// What a part lists: the spots of some kinds, those of its targets' word lists, and the
    /// spots its names' postings hold; for a number part, also those whose house number meets it.
    final class Part {
        /// The edits with which each kind, by number, meets the part; nil for one that does not.
        let kinds: [Int?]
        /// The spots of the part's targets' lists, with their edits; nil when it has no targets.
        let listed: Lazy<PartListing>?
        let names: Lazy<PartListing>
        /// The fewest edits with which the part's address postings, when `names` leaves them out
        /// (too many to list), may reach any spot; nil when `names` lists them too.
        let addressEdits: Int?
        /// The term's position in the query's terms, for a part that may be a house number.
        let houseNumberTerm: Int?
        /// Whether a spot's postings and lists alone tell whether the part lists it: no kind
        /// meets it, its address postings are listed and it is not a number part.
        let listsByNumber: Bool

        /// A part met by `kinds` and `listed`, whose postings list `names`, its address postings
        /// left out with `addressEdits` when not nil.
        init(
            kinds: [Int?], listed: Lazy<PartListing>?, names: Lazy<PartListing>, addressEdits: Int?,
            houseNumberTerm: Int?
        ) {
            self.kinds = kinds
            self.listed = listed
            self.names = names
            self.addressEdits = addressEdits
            self.houseNumberTerm = houseNumberTerm
            listsByNumber = houseNumberTerm == nil && addressEdits == nil && !kinds.contains { $0 != nil }
        }

        /// The fewest edits with which the part's postings and its targets' lists reach the spot
        /// of reference rank `rank`, in a name and in a name or its address; nil where none does.
        func listedEdits(ofRank rank: Int) throws -> (names: Int?, any: Int?) {
            let byPostings = try names.value().edits(ofRank: rank)
            let byNames = fewest(byPostings.names, try listed?.value().edits(ofRank: rank).names)
            return (byNames, fewest(fewest(byNames, byPostings.any), addressEdits))
        }
    }

    /// The fewest edits with which a spot can meet a reading: by its names and kind alone (nil
    /// when some part meets it by its address alone), and by its names and address together.
    struct Least {
        let names: Int?
        let any: Int
    }

    let otherParts: [Part]
    /// The fewest edits the reading's other parts, those not in `otherParts`, add to any spot.
    let unlistedEdits: Int
    /// Whether the reading holds the part that gathered the run.
    let holdsGatherer: Bool
    /// Whether a spot's edits are bounded, or only whether the parts list it (then every bound is
    /// 0): false for a query of one part, whose spots the exact levels met with no edit.
    let countsEdits: Bool
    /// The query's terms.
    let terms: [String]
    let index: SpotIndexReader
    /// The terms each house number meets, shared by the readings.
    let houseNumbers: HouseNumberTerms

    /// What `otherParts` list of a reading whose other parts add `unlistedEdits`, which holds the
    /// gatherer or not, counting edits or not; `houseNumbers` tells which of `terms` the house
    /// numbers of `index` meet.
    init(
        otherParts: [Part], unlistedEdits: Int, holdsGatherer: Bool, countsEdits: Bool, terms: [String],
        index: SpotIndexReader, houseNumbers: HouseNumberTerms
    ) {
        self.otherParts = otherParts
        self.unlistedEdits = unlistedEdits
        self.holdsGatherer = holdsGatherer
        self.countsEdits = countsEdits
        self.terms = terms
        self.index = index
        self.houseNumbers = houseNumbers
    }

    /// Whether the other parts may list the spot of reference rank `rank`: false when one that
    /// `listsByNumber` does not, asked before the spot's kind is read.
    func mayList(rank: Int) throws -> Bool {
        try otherParts.allSatisfy { part in try !part.listsByNumber || part.listedEdits(ofRank: rank).any != nil }
    }

    /// The fewest edits with which `candidate`, of kind number `kind`, can meet the reading, where
    /// the gatherer meets it with `gathererEdits` at best; nil when some other part does not list
    /// it. A number part that does not list the spot is met by its house number when that meets
    /// the term, with no edit, at the address field.
    func leastEdits(_ candidate: Candidate, kind: Int, gathererEdits: Int) throws -> Least? {
        let base = unlistedEdits + (holdsGatherer ? gathererEdits : 0)
        var names: Int? = base
        var any = base
        for part in otherParts {
            let listed = try part.listedEdits(ofRank: candidate.rank)
            let byNames = fewest(part.kinds[kind], listed.names)
            var byAny = fewest(byNames, listed.any)
            if let term = part.houseNumberTerm {
                if try byAny != nil || houseNumbers.terms(met: terms, at: candidate.spot, in: index).contains(term) {
                    byAny = 0
                }
            }
            guard let byAny else { return nil }
            names = names.flatMap { names in byNames.map { names + $0 } }
            any += byAny
        }
        return countsEdits ? Least(names: names, any: any) : Least(names: 0, any: 0)
    }
}

/// The fewer of two edit counts, either of which may be missing; nil when both are.
func fewest(_ a: Int?, _ b: Int?) -> Int? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
