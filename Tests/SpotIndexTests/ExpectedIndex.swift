import SpotIndex
import SpotText
import Spots

/// What the index of some spots must hold, worked out from the spots alone as FORMAT.md
/// describes it, to compare with what the writer wrote and what the reader reads.
struct ExpectedIndex {
    /// One group of a token's postings (FORMAT.md, "TOKN and POST"): the key's parts as the
    /// format numbers them, and the ranks of its spots, ascending.
    struct Group: Equatable {
        /// 0 for the name's only word, 1 for the first of several, 2 for a later word or a CJK suffix.
        var place: Int
        /// 0 for `name` and `name:LANG`, 1 for the other names, 2 for the address.
        var field: Int
        /// The spots' quality score, 0 to 10.
        var score: Int
        var ranks: [Int]

        /// The stored key: `(place × 3 + field) × 16 + (10 − score)`.
        var rawKey: Int { (place * 3 + field) * 16 + (10 - score) }

        /// The key as the reader gives it.
        var key: PostingGroup.Key {
            let places: [TokenPlace] = [.wholeName, .nameStart, .inName]
            let fields: [NameField] = [.primary, .other, .address]
            return PostingGroup.Key(place: places[place], field: fields[field], score: score)
        }
    }

    /// The spots' own references, ascending: the reference of each rank.
    let refs: [OSMRef]
    /// Each reference's rank.
    let rankOf: [OSMRef: Int]
    /// STRS: every distinct string of the kinds and attributes, sorted by bytes.
    let strings: [[UInt8]]
    /// TOKN: every distinct token of every name and searched address, sorted by bytes.
    let tokens: [[UInt8]]
    /// POST: for each token (in `tokens` order), its groups, keys ascending: each spot in the
    /// group of each place and field its names give the token that no other beats in both.
    let postings: [[Group]]
    /// QUAL: each spot's quality byte, by its own reference.
    let qualities: [OSMRef: UInt8]
    /// KLST: for each selecting tag (key, value, category name), its spots' ranks, ascending.
    let kindRanks: [[[UInt8]]: [Int]]

    init(_ spots: [Spot]) {
        refs = spots.map(\.ref).sorted()
        rankOf = Dictionary(uniqueKeysWithValues: refs.enumerated().map { ($1, $0) })
        var strings: Set<[UInt8]> = []
        // Token → rank → the places and fields of the token in the spot's names that no other
        // beats in both.
        var bestKeys: [[UInt8]: [Int: [Group]]] = [:]
        var kindRanks: [[[UInt8]]: [Int]] = [:]
        var qualities: [OSMRef: UInt8] = [:]
        for spot in spots {
            let rank = rankOf[spot.ref]!
            let category = spot.category.map { Array($0.rawValue.utf8) }
            strings.formUnion([Array(spot.tagKey.utf8), Array(spot.kind.utf8)] + [category].compactMap { $0 })
            for tag in spot.attributeTags { strings.formUnion([Array(tag.key.utf8), Array(tag.value.utf8)]) }
            let quality = Self.quality(of: spot)
            qualities[spot.ref] = quality
            let score = Self.score(of: quality)
            let fielded =
                [spot.name].compactMap { $0 }.map { ($0, 0) } + spot.names.values.map { ($0, 0) }
                + spot.otherNames.values.map { ($0, 1) }
                + [spot.details[.brand], spot.details[.operator]].compactMap { $0 }.map { ($0, 1) }
            func add(_ token: String, place: Int, field: Int) {
                let group = Group(place: place, field: field, score: score, ranks: [rank])
                let bytes = Array(token.utf8)
                var known = bestKeys[bytes]?[rank] ?? []
                func beats(_ a: Group, _ b: Group) -> Bool { a.place <= b.place && a.field <= b.field }
                if known.contains(where: { beats($0, group) }) { return }
                known.removeAll { beats(group, $0) }
                bestKeys[bytes, default: [:]][rank] = known + [group]
            }
            for (name, field) in fielded {
                for (token, place) in SearchText.tokens(ofName: name) {
                    add(token, place: Self.number(of: place), field: field)
                }
            }
            // The address's words, at the last place of the address field.
            for word in SearchAddress(spot.address).words { add(word, place: 2, field: 2) }
            kindRanks[Self.kindKey(spot.tagKey, spot.kind, spot.category?.rawValue), default: []].append(rank)
        }
        self.strings = strings.sorted { $0.lexicographicallyPrecedes($1) }
        tokens = bestKeys.keys.sorted { $0.lexicographicallyPrecedes($1) }
        postings = tokens.map { token in
            Dictionary(grouping: bestKeys[token]!.values.flatMap { $0 }, by: \.rawKey).values
                .map { groups in
                    var group = groups[0]
                    group.ranks = groups.flatMap(\.ranks).sorted()
                    return group
                }
                .sorted { $0.rawKey < $1.rawKey }
        }
        self.qualities = qualities
        self.kindRanks = kindRanks.mapValues { $0.sorted() }
    }

    /// FORMAT.md's number for where a token stands in a name.
    static func number(of place: TokenPlace) -> Int {
        switch place {
        case .wholeName: 0
        case .nameStart: 1
        case .inName: 2
        }
    }

    /// The QUAL byte of `spot`, from its tags (FORMAT.md, "QUAL"): bit 0 wikidata, 1 wikipedia,
    /// 2 website, 3 opening hours, 4 phone, 5 an area (a way or relation).
    static func quality(of spot: Spot) -> UInt8 {
        let flags = [
            spot.details[.wikidata] != nil, spot.hasWikipedia, spot.details[.website] != nil,
            spot.details[.openingHours] != nil, spot.details[.phone] != nil, spot.ref.type != .node,
        ]
        return flags.enumerated().reduce(0) { $0 | ($1.element ? 1 << UInt8($1.offset) : 0) }
    }

    /// The quality score of a QUAL byte: 4 for either encyclopedia tag, 2 for a website, 2 for
    /// opening hours, 1 for a phone, 1 for an area.
    static func score(of quality: UInt8) -> Int {
        let weights: [(bits: UInt8, weight: Int)] = [(0b11, 4), (0b100, 2), (0b1000, 2), (0b1_0000, 1), (0b10_0000, 1)]
        return weights.reduce(0) { $0 + (quality & $1.bits != 0 ? $1.weight : 0) }
    }

    /// How `kindRanks` names a selecting tag: the bytes of its key, value and category (empty for none).
    static func kindKey(_ key: String, _ value: String, _ category: String?) -> [[UInt8]] {
        [Array(key.utf8), Array(value.utf8), category.map { [0x01] + Array($0.utf8) } ?? []]
    }

    /// Each token's entry as the tests encode it.
    var postingEntries: [RawPostings.Entry] {
        postings.map { RawPostings.Entry(groups: $0.map { ($0.rawKey, $0.ranks) }) }
    }

    /// The POST section FORMAT.md prescribes for these spots, in blocks of `blockSize` tokens,
    /// encoded by the tests.
    func encodedPostings(blockSize: Int = 16) -> [UInt8] {
        RawPostings(entries: postingEntries, blockSize: blockSize).encoded
    }

    /// The QUAL section FORMAT.md prescribes for these spots, in the order of `spotRefs` (the
    /// spots' order in the index, which the writer chooses).
    func encodedQualities(spotRefs: [OSMRef]) -> [UInt8] {
        spotRefs.map { qualities[$0]! }
    }
}
