/// The text index (TOKN, POST) and the per-kind lists (KLST): rank lists of spots in the order
/// of their own OSM references.
extension SpotIndexReader {
    /// The token numbers whose tokens start with `prefix` (folded UTF-8 bytes): a range, since
    /// tokens are sorted by their bytes.
    public func tokens(withPrefix prefix: [UInt8]) throws(IndexError) -> Range<Int> {
        try tokens.range(withPrefix: prefix)
    }

    /// The spots whose names hold token `token`, in groups by where the token stands in their
    /// names and by quality, best group first (`PostingGroup`).
    public func postingGroups(ofToken token: Int) throws(IndexError) -> [PostingGroup] {
        try postings.groups(ofToken: token)
    }

    /// The spots of kind `kind` (a position in `kinds`), in reference order.
    public func kindList(ofKind kind: Int) throws(IndexError) -> RankList {
        try kindLists.list(ofKind: kind)
    }
}

extension SpotIndexReader {
    /// The folded UTF-8 bytes of token `token` (a number from `tokens(withPrefix:)`).
    public func token(_ token: Int) throws(IndexError) -> [UInt8] {
        try tokens.bytes(token)
    }
}
