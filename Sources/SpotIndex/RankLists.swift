import SpotText
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
    /// The entries, as the rank lists name them.
    private let listBytes: RankListBytes
    private let tokenCount: Int
    private let spotCount: Int

    /// The postings in `section`, for `tokenCount` tokens and `spotCount` spots.
    init(_ section: SectionBytes, tokenCount: Int, spotCount: Int) throws(IndexError) {
        guard section.count >= 8, Int(try section.uint32(at: 0)) == tokenCount else {
            throw section.corrupt("does not hold one list per token")
        }
        blocks = try BlockedEntries(section, blockSizeAt: 4, entryCount: tokenCount)
        listBytes = RankListBytes(blocks.entries)
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
        var result = [[PostingGroup]](repeating: [], count: tokens.count)
        try forEachGroup(ofTokens: tokens) { (token, group) throws(IndexError) in
            result[token - tokens.lowerBound].append(group)
        }
        return result
    }

    /// Calls `body` with each group of each token of `tokens`, in order, each token's best
    /// first, and the token's number: `groups(ofTokens:)` without its arrays.
    func forEachGroup(
        ofTokens tokens: Range<Int>, _ body: (Int, PostingGroup) throws(IndexError) -> Void
    ) throws(IndexError) {
        let entries = blocks.entries
        var last: (token: Int, key: PostingGroup.Key)?
        try forEachGroup(ofTokens: tokens) { (token, rawKey, bytes) throws(IndexError) in
            guard let key = PostingGroup.Key(rawValue: rawKey), last.map({ $0.token != token || $0.key < key }) ?? true
            else { throw entries.corrupt("a token's group keys are unknown or out of order") }
            last = (token, key)
            try body(
                token,
                PostingGroup(
                    key: key,
                    ranks: try RankList(
                        in: listBytes, from: bytes.lowerBound, to: bytes.upperBound, spotCount: spotCount)
                ))
        }
    }

    /// How many postings the tokens `tokens` hold together: each group's list length, read
    /// without reading its ranks.
    func postingCount(ofTokens tokens: Range<Int>) throws(IndexError) -> Int {
        let entries = blocks.entries
        var total = 0
        try forEachGroup(ofTokens: tokens) { (_, _, bytes) throws(IndexError) in
            var varints = entries.varints(from: bytes.lowerBound, to: bytes.upperBound)
            guard let count = varints.next(), Int(count) <= bytes.count else {
                throw entries.corrupt("a list's length runs past it")
            }
            total += Int(count)
        }
        return total
    }

    /// Calls `body` with each group of each token of `tokens`, in order: the token, the group's
    /// stored key and the bytes of its rank list. The entries are read one after the other from
    /// the block of the first.
    private func forEachGroup(
        ofTokens tokens: Range<Int>, _ body: (Int, UInt32, Range<Int>) throws(IndexError) -> Void
    ) throws(IndexError) {
        precondition(tokens.lowerBound >= 0 && tokens.upperBound <= tokenCount, "token out of range")
        let entries = blocks.entries
        guard !tokens.isEmpty else { return }
        var (reader, entry) = blocks.entries(fromBlockOf: tokens.lowerBound)
        while entry < tokens.upperBound {
            if entry % blocks.blockSize == 0 { reader = blocks.entries(fromBlockOf: entry).reader }
            guard let count = reader.next(), Int(count) <= entries.count - reader.position else {
                throw entries.corrupt("a token's group count runs past the section")
            }
            for _ in 0..<count {
                guard let rawKey = reader.next(), let length = reader.next(),
                    Int(length) <= entries.count - reader.position
                else { throw entries.corrupt("a token's groups run past the section") }
                let start = reader.position
                let end = start + Int(length)
                if entry >= tokens.lowerBound { try body(entry, rawKey, start..<end) }
                reader = entries.varints(from: end)
            }
            entry += 1
        }
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

        /// How many name fields there are: counted once, as `allCases` makes an array each time.
        private static let fieldCount = NameField.allCases.count

        /// The stored key: place and field above four bits of the score's shortfall from the best.
        package var rawValue: UInt32 {
            UInt32((place.rawValue * Self.fieldCount + field.rawValue) << 4 + PlaceQuality.maximumScore - score)
        }

        /// The key stored as `rawValue`, or nil when no key is.
        init?(rawValue: UInt32) {
            let shortfall = Int(rawValue & 15)
            let fields = Self.fieldCount
            guard shortfall <= PlaceQuality.maximumScore, let place = TokenPlace(rawValue: Int(rawValue >> 4) / fields),
                let field = NameField(rawValue: Int(rawValue >> 4) % fields)
            else { return nil }
            self.init(place: place, field: field, score: PlaceQuality.maximumScore - shortfall)
        }

        public static func < (a: Key, b: Key) -> Bool { a.rawValue < b.rawValue }
    }
}

/// Numbered rank lists and where each ends (FORMAT.md): the spots of each kind (KLST). Opening
/// checks that the last list ends at the end of the section; the caller checks `count` against
/// what the lists are numbered by. Each list's bounds and ranks are checked as it is read.
struct NumberedRankLists {
    private let ends: RecordTable
    private let lists: SectionBytes
    /// The lists' bytes, as the rank lists name them.
    fileprivate let listBytes: RankListBytes
    private let spotCount: Int
    /// How many lists there are.
    var count: Int { ends.count }

    /// The lists in `section`, of spots below `spotCount`.
    init(_ section: SectionBytes, spotCount: Int) throws(IndexError) {
        let count = section.count >= 4 ? Int(try section.uint32(at: 0)) : -1
        guard count >= 0, count <= (section.count - 4) / 4 else {
            throw section.corrupt("does not hold the ends of its lists")
        }
        ends = try RecordTable(try section.subrange(from: 4, to: 4 + 4 * count), recordSize: 4)
        lists = try section.subrange(from: 4 + 4 * count)
        listBytes = RankListBytes(lists)
        self.spotCount = spotCount
        guard (count == 0 ? 0 : end(ofList: count - 1)) == lists.count else {
            throw section.corrupt("the lists do not end at the end of the section")
        }
    }

    /// List `number` (0 ..< `count`), in reference order.
    func list(_ number: Int) throws(IndexError) -> RankList {
        let bounds = try self.bounds(of: number)
        return try RankList(in: listBytes, from: bounds.lowerBound, to: bounds.upperBound, spotCount: spotCount)
    }

    /// The bytes of list `number` (0 ..< `count`) in `lists`, checked to lie within them.
    fileprivate func bounds(of number: Int) throws(IndexError) -> Range<Int> {
        precondition(number >= 0 && number < ends.count, "list number out of range")
        let start = number == 0 ? 0 : end(ofList: number - 1)
        let end = end(ofList: number)
        guard start <= end, end <= lists.count else { throw lists.corrupt("list \(number) is out of bounds") }
        return start..<end
    }

    private func end(ofList number: Int) -> Int {
        Int(ends.field(at: 0, of: number) as UInt32)
    }
}

/// Rank lists by name (WLST; FORMAT.md): entries sorted by their names' bytes, each a varint
/// name length, the name and a rank list, laid out as `NumberedRankLists`. A list is found by a
/// binary search over the names; every entry it passes is checked as it is read.
struct NamedRankLists {
    private let entries: NumberedRankLists
    private let spotCount: Int

    /// The lists in `section`, of spots below `spotCount`.
    init(_ section: SectionBytes, spotCount: Int) throws(IndexError) {
        entries = try NumberedRankLists(section, spotCount: spotCount)
        self.spotCount = spotCount
    }

    /// The list named `name`, or nil when there is none.
    func list(named name: String) throws(IndexError) -> RankList? {
        let wanted = Array(name.utf8)
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let entry = try self.entry(middle)
            if entry.name == wanted {
                return try RankList(
                    in: entries.listBytes, from: entry.list.lowerBound, to: entry.list.upperBound, spotCount: spotCount)
            }
            if entry.name.lexicographicallyPrecedes(wanted) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Entry `number`'s name and where its rank list lies.
    private func entry(_ number: Int) throws(IndexError) -> (name: [UInt8], list: Range<Int>) {
        let bounds = try entries.bounds(of: number)
        let bytes = entries.listBytes.section
        var varints = bytes.varints(from: bounds.lowerBound, to: bounds.upperBound)
        guard let length = varints.next(), Int(length) <= bounds.upperBound - varints.position else {
            throw bytes.corrupt("entry \(number)'s name runs past it")
        }
        let nameEnd = varints.position + Int(length)
        return (Array(bytes.bytes(in: varints.position..<nameEnd)), nameEnd..<bounds.upperBound)
    }
}

/// Spots in the order of their own OSM references, read from a rank list (FORMAT.md): one part
/// of a token's postings, or a kind's spots; or held in memory, a part of such a list that a
/// search set apart (`HeldRanks`). `next()` gives reference ranks, ascending;
/// `SpotIndexReader.spot(atRank:)` turns a rank into a spot number.
///
/// A list counts no reference (a search copies thousands of them into its sources and runs):
/// it points at bytes or ranks that another object owns, and is read only while that lives.
public struct RankList {
    /// How many ranks are left to read.
    public private(set) var remaining: Int
    private var varints: VarintReader
    private var previous = -1
    private let spotCount: Int
    /// The bytes the list lies in, for errors; nil for a list held in memory. Unmanaged, so
    /// that a copy of a list (a search files thousands away) counts no reference:
    /// the table that made the list holds them, and a list is read only while the reader that
    /// made it lives, as `varints`, which reads its mapped bytes, requires already.
    private let bytes: Unmanaged<RankListBytes>?
    /// The next rank of a list held in memory (`remaining` ranks from it are the list's); nil
    /// for a list read from a section. Points into the `HeldRanks` that made the list.
    private var held: UnsafePointer<Int>?

    /// The list at bytes `start ..< end` of `bytes`, whose ranks are below `spotCount`.
    init(in bytes: RankListBytes, from start: Int, to end: Int, spotCount: Int) throws(IndexError) {
        varints = bytes.section.varints(from: start, to: end)
        guard let count = varints.next(), Int(count) <= end - start else {
            throw bytes.section.corrupt("a list's length runs past it")
        }
        remaining = Int(count)
        self.spotCount = spotCount
        self.bytes = Unmanaged.passUnretained(bytes)
    }

    /// The list of the `count` ranks at `ranks`, which its `HeldRanks` owns.
    fileprivate init(held ranks: UnsafePointer<Int>?, count: Int) {
        remaining = count
        held = ranks
        varints = SectionBytes(UnsafeRawBufferPointer(start: nil, count: 0), file: "", name: "").varints(from: 0, to: 0)
        spotCount = 0
        bytes = nil
    }

    /// The next rank, or nil at the end of the list.
    public mutating func next() throws(IndexError) -> Int? {
        guard remaining > 0 else { return nil }
        if let rank = held {
            // In bounds: the list's `remaining` ranks from `held` are its `HeldRanks`'.
            remaining -= 1
            held = rank + 1
            return rank.pointee
        }
        guard let gap = varints.next(), Int(gap) < spotCount - previous - 1 else {
            // A list held in memory never comes here: its ranks run out with `remaining`.
            throw bytes!.takeUnretainedValue().section.corrupt("a list runs past its end or past the last spot")
        }
        previous += Int(gap) + 1
        remaining -= 1
        return previous
    }
}

/// Ranks a search set apart from lists it read (a part of a run's lists), held in memory for a
/// `RankList` to read as it reads the index's (`list`). The list points into them without a
/// reference: whoever reads it keeps this alive while it does.
public final class HeldRanks {
    private let ranks: UnsafeMutableBufferPointer<Int>

    /// `ranks`, ascending, as read from lists of the index.
    public init(_ ranks: [Int]) {
        self.ranks = .allocate(capacity: ranks.count)
        _ = self.ranks.initialize(from: ranks)
    }

    deinit { ranks.deallocate() }

    /// A list of the ranks, from the first; valid while this lives.
    public var list: RankList { RankList(held: UnsafePointer(ranks.baseAddress), count: ranks.count) }
}

/// The bytes of a table's rank lists (`PostingLists`, `NumberedRankLists`), held by the table,
/// for its lists to name in errors without counting a reference each (`RankList.bytes`).
final class RankListBytes {
    /// The section's bytes the lists lie in.
    let section: SectionBytes

    /// The lists' bytes `section`.
    init(_ section: SectionBytes) {
        self.section = section
    }
}
