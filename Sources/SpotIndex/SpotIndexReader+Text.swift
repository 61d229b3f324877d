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
        try postings.lists(ofToken: token)
    }

    /// Calls `body` with every posting of tokens `tokens` (a range from `tokens(withPrefix:)`),
    /// token by token: the lists of consecutive tokens lie next to each other, so this is one
    /// pass over one stretch of the file. A spot comes once per token that it holds.
    public func forEachPosting(ofTokens tokens: Range<Int>, _ body: (_ spot: Int, _ startsName: Bool) -> Void)
        throws(IndexError)
    {
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
        try kindLists.list(ofKind: kind)
    }
}
