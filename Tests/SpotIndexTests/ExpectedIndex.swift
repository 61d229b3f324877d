import SpotIndex
import Spots

/// What the index of some spots must hold, worked out from the spots alone as FORMAT.md
/// describes it, to compare with what the writer wrote and what the reader reads.
struct ExpectedIndex {
    /// The spots' own references, ascending: the reference of each rank.
    let refs: [OSMRef]
    /// Each reference's rank.
    let rankOf: [OSMRef: Int]
    /// STRS: every distinct string of the kinds and attributes, sorted by bytes.
    let strings: [[UInt8]]
    /// TOKN: every distinct token of every name, sorted by bytes.
    let tokens: [[UInt8]]
    /// POST: for each token (in `tokens` order), the ranks of the spots one of whose names it
    /// starts, and of the others, ascending.
    let postings: [(starting: [Int], others: [Int])]
    /// KLST: for each selecting tag (key, value, category name), its spots' ranks, ascending.
    let kindRanks: [[[UInt8]]: [Int]]

    init(_ spots: [Spot]) {
        refs = spots.map(\.ref).sorted()
        rankOf = Dictionary(uniqueKeysWithValues: refs.enumerated().map { ($1, $0) })
        var strings: Set<[UInt8]> = []
        var tokenStarts: [[UInt8]: [Int: Bool]] = [:]
        var kindRanks: [[[UInt8]]: [Int]] = [:]
        for spot in spots {
            let rank = rankOf[spot.ref]!
            let category = spot.category.map { Array($0.rawValue.utf8) }
            strings.formUnion([Array(spot.tagKey.utf8), Array(spot.kind.utf8)] + [category].compactMap { $0 })
            for tag in spot.attributeTags { strings.formUnion([Array(tag.key.utf8), Array(tag.value.utf8)]) }
            for name in spot.allNames {
                for (token, startsName) in SearchText.tokens(ofName: name) {
                    tokenStarts[Array(token.utf8), default: [:]][rank, default: false] =
                        tokenStarts[Array(token.utf8)]?[rank] == true || startsName
                }
            }
            kindRanks[Self.kindKey(spot.tagKey, spot.kind, spot.category?.rawValue), default: []].append(rank)
        }
        self.strings = strings.sorted { $0.lexicographicallyPrecedes($1) }
        tokens = tokenStarts.keys.sorted { $0.lexicographicallyPrecedes($1) }
        postings = tokens.map { token in
            let spots = tokenStarts[token]!
            return (spots.filter(\.value).map(\.key).sorted(), spots.filter { !$0.value }.map(\.key).sorted())
        }
        self.kindRanks = kindRanks.mapValues { $0.sorted() }
    }

    /// How `kindRanks` names a selecting tag: the bytes of its key, value and category (empty for none).
    static func kindKey(_ key: String, _ value: String, _ category: String?) -> [[UInt8]] {
        [Array(key.utf8), Array(value.utf8), category.map { [0x01] + Array($0.utf8) } ?? []]
    }

    /// The POST section FORMAT.md prescribes for these spots, in blocks of `blockSize` tokens,
    /// encoded by the tests.
    func encodedPostings(blockSize: Int = 16) -> [UInt8] {
        RawPostings(
            entries: postings.map { RawPostings.Entry(starting: $0.starting, others: $0.others) }, blockSize: blockSize
        ).encoded
    }
}
