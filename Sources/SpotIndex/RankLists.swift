import Spots

/// The postings of the text index (POST; FORMAT.md): per token of TOKN, its spots in groups by
/// where the token stands in their names and how good they are (`PostingGroup`), best group
/// first, each a rank list; in blocks of tokens.
///
/// Opening checks the token count against TOKN's and that the block offsets fit. A token's
/// entry is found from its block's start by skipping the entries before it unread; its group
/// keys, list lengths and ranks are checked as they are read, so damage stays in its entry.
struct PostingLists {
    private let blocks: BlockedEntries
    private let tokenCount: Int
    private let spotCount: Int

    /// The postings in `section`, for `tokenCount` tokens and `spotCount` spots.
    init(_ section: SectionBytes, tokenCount: Int, spotCount: Int) throws(IndexError) {
        guard section.count >= 8, Int(try section.uint32(at: 0)) == tokenCount else {
            throw section.corrupt("does not hold one list per token")
        }
        blocks = try BlockedEntries(section, blockSizeAt: 4, entryCount: tokenCount)
        self.tokenCount = tokenCount
        self.spotCount = spotCount
    }

    /// The groups of token `token`, best first.
    func groups(ofToken token: Int) throws(IndexError) -> [PostingGroup] {
        try groups(ofTokens: token..<token + 1)[0]
    }

    /// The groups of each token of `tokens`, in order, each best first: the entries are read
    /// one after the other from the block of the first.
    func groups(ofTokens tokens: Range<Int>) throws(IndexError) -> [[PostingGroup]] {
        precondition(tokens.lowerBound >= 0 && tokens.upperBound <= tokenCount, "token out of range")
        let entries = blocks.entries
        var result: [[PostingGroup]] = []
        result.reserveCapacity(tokens.count)
        guard !tokens.isEmpty else { return result }
        var (reader, entry) = blocks.entries(fromBlockOf: tokens.lowerBound)
        while entry < tokens.upperBound {
            if entry % blocks.blockSize == 0 { reader = blocks.entries(fromBlockOf: entry).reader }
            guard let count = reader.next(), Int(count) <= entries.count - reader.position else {
                throw entries.corrupt("a token's group count runs past the section")
            }
            let wanted = entry >= tokens.lowerBound
            var groups: [PostingGroup] = []
            for _ in 0..<count {
                guard let rawKey = reader.next(), let length = reader.next(),
                    Int(length) <= entries.count - reader.position
                else { throw entries.corrupt("a token's groups run past the section") }
                let start = reader.position
                let end = start + Int(length)
                if wanted {
                    guard let key = PostingGroup.Key(rawValue: rawKey), groups.last.map({ $0.key < key }) ?? true else {
                        throw entries.corrupt("a token's group keys are unknown or out of order")
                    }
                    groups.append(
                        PostingGroup(
                            key: key, ranks: try RankList(in: entries, from: start, to: end, spotCount: spotCount)))
                }
                reader = entries.varints(from: end)
            }
            if wanted { result.append(groups) }
            entry += 1
        }
        return result
    }
}

/// The spots of one token that share a group key: where the token stands in their names, in
/// which kind of name, and their quality score; a rank list in reference order. A token's
/// groups come best key first, so a search without a place reads them in the order it ranks.
public struct PostingGroup {
    /// The group's key.
    public let key: Key
    /// The spots, as reference ranks.
    public var ranks: RankList

    /// Where a token stands in a name, in which kind of name, and the quality score of the
    /// spot: ordered as results rank (`TokenPlace`, then `NameField`, then the higher score).
    public struct Key: Comparable, Hashable, Sendable {
        /// Where the token stands in the name.
        public let place: TokenPlace
        /// Which kind of name.
        public let field: NameField
        /// The spots' `PlaceQuality.score`.
        public let score: Int

        /// A key; `score` must lie in 0 ... `PlaceQuality.maximumScore`.
        public init(place: TokenPlace, field: NameField, score: Int) {
            precondition((0...PlaceQuality.maximumScore).contains(score), "a quality score out of range")
            self.place = place
            self.field = field
            self.score = score
        }

        /// The stored key: place and field above four bits of the score's shortfall from the best.
        var rawValue: UInt32 {
            UInt32(
                (place.rawValue * NameField.allCases.count + field.rawValue) << 4 + PlaceQuality.maximumScore - score)
        }

        /// The key stored as `rawValue`, or nil when no key is.
        init?(rawValue: UInt32) {
            let shortfall = Int(rawValue & 15)
            let fields = NameField.allCases.count
            guard shortfall <= PlaceQuality.maximumScore, let place = TokenPlace(rawValue: Int(rawValue >> 4) / fields),
                let field = NameField(rawValue: Int(rawValue >> 4) % fields)
            else { return nil }
            self.init(place: place, field: field, score: PlaceQuality.maximumScore - shortfall)
        }

        public static func < (a: Key, b: Key) -> Bool { a.rawValue < b.rawValue }
    }
}

/// The spots of each kind (KLST; FORMAT.md): per kind of KIND a rank list, and where each list
/// ends. Opening checks the kind count against KIND's and that the last list ends at the end
/// of the section; each list's bounds and ranks are checked as it is read.
struct KindLists {
    private let ends: RecordTable
    private let lists: SectionBytes
    private let spotCount: Int

    /// The lists in `section`, for `kindCount` kinds and `spotCount` spots.
    init(_ section: SectionBytes, kindCount: Int, spotCount: Int) throws(IndexError) {
        let count = section.count >= 4 ? Int(try section.uint32(at: 0)) : -1
        guard count >= 0, count <= (section.count - 4) / 4 else {
            throw section.corrupt("does not hold one list per kind")
        }
        ends = try RecordTable(try section.subrange(from: 4, to: 4 + 4 * count), recordSize: 4)
        lists = try section.subrange(from: 4 + 4 * count)
        self.spotCount = spotCount
        guard (count == 0 ? 0 : end(ofList: count - 1)) == lists.count else {
            throw section.corrupt("the lists do not end at the end of the section")
        }
        guard count == kindCount else { throw section.corrupt("holds \(count) lists for \(kindCount) kinds") }
    }

    /// The spots of kind `kind`, in reference order.
    func list(ofKind kind: Int) throws(IndexError) -> RankList {
        precondition(kind >= 0 && kind < ends.count, "kind out of range")
        let start = kind == 0 ? 0 : end(ofList: kind - 1)
        let end = end(ofList: kind)
        guard start <= end, end <= lists.count else { throw lists.corrupt("list \(kind) is out of bounds") }
        return try RankList(in: lists, from: start, to: end, spotCount: spotCount)
    }

    private func end(ofList kind: Int) -> Int {
        Int(ends.field(at: 0, of: kind) as UInt32)
    }
}

/// Spots in the order of their own OSM references, read from a rank list (FORMAT.md): one part
/// of a token's postings, or a kind's spots. `next()` gives reference ranks, ascending;
/// `SpotIndexReader.spot(atRank:)` turns a rank into a spot number.
public struct RankList {
    /// How many ranks are left to read.
    public private(set) var remaining: Int
    private var varints: VarintReader
    private var previous = -1
    private let spotCount: Int
    /// The section the list lies in, for errors.
    private let section: SectionBytes

    /// The list at bytes `start ..< end` of `section`, whose ranks are below `spotCount`.
    init(in section: SectionBytes, from start: Int, to end: Int, spotCount: Int) throws(IndexError) {
        varints = section.varints(from: start, to: end)
        guard let count = varints.next(), Int(count) <= end - start else {
            throw section.corrupt("a list's length runs past it")
        }
        remaining = Int(count)
        self.spotCount = spotCount
        self.section = section
    }

    /// The next rank, or nil at the end of the list.
    public mutating func next() throws(IndexError) -> Int? {
        guard remaining > 0 else { return nil }
        guard let gap = varints.next(), Int(gap) < spotCount - previous - 1 else {
            throw section.corrupt("a list runs past its end or past the last spot")
        }
        previous += Int(gap) + 1
        remaining -= 1
        return previous
    }
}
