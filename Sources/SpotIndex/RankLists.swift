/// The postings of the text index (POST; FORMAT.md): per token of TOKN, two rank lists, the
/// spots whose names the token starts, then the others, in blocks of tokens.
///
/// Opening checks the token count against TOKN's and that the block offsets fit. A token's
/// entry is found from its block's start by skipping the entries before it unread; its list
/// lengths and ranks are checked as they are read, so damage stays in its entry.
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

    /// The two rank lists of token `token`: the spots whose name it starts, and the others.
    func lists(ofToken token: Int) throws(IndexError) -> (startingName: RankList, others: RankList) {
        precondition(token >= 0 && token < tokenCount, "token out of range")
        var (lengths, entry) = blocks.entries(fromBlockOf: token)
        while true {
            guard let starting = lengths.next(), let others = lengths.next(),
                Int(starting) + Int(others) <= blocks.entries.count - lengths.position
            else { throw blocks.entries.corrupt("a token's lists run past the section") }
            let middle = lengths.position + Int(starting)
            let end = middle + Int(others)
            if entry == token {
                return (
                    try RankList(in: blocks.entries, from: lengths.position, to: middle, spotCount: spotCount),
                    try RankList(in: blocks.entries, from: middle, to: end, spotCount: spotCount)
                )
            }
            lengths = blocks.entries.varints(from: end)
            entry += 1
        }
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
