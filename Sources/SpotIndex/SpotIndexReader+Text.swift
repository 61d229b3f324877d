/// The text index (TOKN, POST) and the per-kind lists (KLST): rank lists of spots in the order
/// of their own OSM references.
extension SpotIndexReader {
    /// The token numbers whose tokens start with `prefix` (folded UTF-8 bytes): a range, since
    /// tokens are sorted by their bytes.
    public func tokens(withPrefix prefix: [UInt8]) throws(IndexError) -> Range<Int> {
        try tokens.range(withPrefix: prefix)
    }

    /// The spots whose names hold token `token`, as two lists in reference order: those whose
    /// name the token starts, and the others.
    public func postingLists(ofToken token: Int) throws(IndexError) -> (startingName: RankList, others: RankList) {
        precondition(token >= 0 && token < tokens.count, "token out of range")
        var position = Int(postingBlockOffsets.load(4 * (token / postingBlockSize)) as UInt32)
        for _ in 0..<token % postingBlockSize { position = try postingEntry(at: position).end }
        let entry = try postingEntry(at: position)
        return (try rankList(in: postings, entry.starting, section: "POST"), try rankList(in: postings, entry.others, section: "POST"))
    }

    /// Calls `body` with every posting of tokens `tokens` (a range from `tokens(withPrefix:)`),
    /// token by token: the lists of consecutive tokens lie next to each other, so this is one
    /// pass over one stretch of the file. A spot comes once per token that it holds.
    public func forEachPosting(ofTokens tokens: Range<Int>, _ body: (_ spot: Int, _ startsName: Bool) -> Void) throws(IndexError) {
        for token in tokens {
            let lists = try postingLists(ofToken: token)
            var starting = lists.startingName
            while let rank = try starting.next() { body(try spot(atRank: rank), true) }
            var others = lists.others
            while let rank = try others.next() { body(try spot(atRank: rank), false) }
        }
    }

    /// The spots of kind `kind` (a position in `kinds`), in reference order.
    public func kindList(ofKind kind: Int) throws(IndexError) -> RankList {
        precondition(kind >= 0 && kind < kinds.count, "kind out of range")
        let start = kind == 0 ? 0 : Int(kindListEnds.load(4 * (kind - 1)) as UInt32)
        let end = Int(kindListEnds.load(4 * kind) as UInt32)
        guard start <= end, end <= kindLists.count else { throw corrupt("KLST", "list \(kind) is out of bounds") }
        return try rankList(in: kindLists, start..<end, section: "KLST")
    }

    /// The byte ranges of the two rank lists of the token whose entry starts at `position`.
    private func postingEntry(at position: Int) throws(IndexError) -> (starting: Range<Int>, others: Range<Int>, end: Int) {
        var lengths = VarintReader(postings, from: position)
        guard let starting = lengths.next(), let others = lengths.next(),
            Int(starting) + Int(others) <= postings.count - lengths.position
        else { throw corrupt("POST", "a token's lists run past the section") }
        let middle = lengths.position + Int(starting)
        return (lengths.position..<middle, middle..<middle + Int(others), middle + Int(others))
    }

    private func rankList(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>, section: String) throws(IndexError) -> RankList {
        var varints = VarintReader(bytes, from: range.lowerBound, to: range.upperBound)
        guard let count = varints.next(), Int(count) <= range.count else { throw corrupt(section, "a list's length runs past it") }
        return RankList(index: self, varints: varints, count: Int(count), section: section)
    }
}

/// Spots in the order of their own OSM references, read from a rank list (FORMAT.md): one part
/// of a token's postings, or a kind's spots. `next()` gives reference ranks, ascending;
/// `SpotIndexReader.spot(atRank:)` turns a rank into a spot number.
public struct RankList {
    /// How many ranks are left to read.
    public private(set) var remaining: Int
    private let index: SpotIndexReader
    private var varints: VarintReader
    private var previous = -1
    private let section: String

    init(index: SpotIndexReader, varints: VarintReader, count: Int, section: String) {
        self.index = index
        self.varints = varints
        self.remaining = count
        self.section = section
    }

    /// The next rank, or nil at the end of the list.
    public mutating func next() throws(IndexError) -> Int? {
        guard remaining > 0 else { return nil }
        guard let gap = varints.next(), Int(gap) < index.count - previous - 1 else {
            throw index.corrupt(section, "a list runs past its end or past the last spot")
        }
        previous += Int(gap) + 1
        remaining -= 1
        return previous
    }
}
