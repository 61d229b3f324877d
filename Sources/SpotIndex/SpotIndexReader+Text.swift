/// The text index (TOKN, POST) and the per-kind lists (KLST): rank lists of spots in the order
/// of their own OSM references.
extension SpotIndexReader {
    /// The house numbers of the spots (`SearchAddress.houseNumbers`) that do not start with a
    /// digit: words of one or two letters (HNUM); nil for a file written before they were
    /// listed, where any such word may be a house number.
    public func letterHouseNumbers() throws(IndexError) -> Set<String>? {
        try letterHouseNumberList?.decode()
    }

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

    /// The groups of each token of `tokens` (`postingGroups(ofToken:)`), read in one pass.
    public func postingGroups(ofTokens tokens: Range<Int>) throws(IndexError) -> [[PostingGroup]] {
        try postings.groups(ofTokens: tokens)
    }

    /// Calls `body` with each group of each token of `tokens` (`postingGroups(ofTokens:)`), in
    /// order, and the token's number: for a caller that files the groups away, without arrays.
    public func forEachPostingGroup(
        ofTokens tokens: Range<Int>, _ body: (Int, PostingGroup) throws(IndexError) -> Void
    ) throws(IndexError) {
        try postings.forEachGroup(ofTokens: tokens, body)
    }

    /// How many postings the tokens `tokens` hold together (a spot once for each group of each
    /// token that lists it), counted without reading a rank.
    public func postingCount(ofTokens tokens: Range<Int>) throws(IndexError) -> Int {
        try postings.postingCount(ofTokens: tokens)
    }

    /// The spots of kind `kind` (a position in `kinds`), in reference order.
    public func kindList(ofKind kind: Int) throws(IndexError) -> RankList {
        try kindLists.list(kind)
    }

    /// The spots that meet `target`, a category's name or a value as `key=value`, otherwise than
    /// by their kind: by an attribute that holds the value (`cuisine=pizza`) or by a name word
    /// that ends with one of its compound words ("Taidemuseo"), in reference order; nil when
    /// there are none (or the file has no WLST).
    public func wordList(of target: String) throws(IndexError) -> RankList? {
        try wordLists?.list(named: target)
    }
}

extension SpotIndexReader {
    /// The folded UTF-8 bytes of token `token` (a number from `tokens(withPrefix:)`).
    public func token(_ token: Int) throws(IndexError) -> [UInt8] {
        try tokens.bytes(token)
    }
}

extension SpotIndexReader {
    /// The tokens as a trie of their scalars, item *n* token number *n*: what a search that
    /// forgives typos walks, passing over the branches no match can start with. Made on a
    /// reader's first call, a node for each distinct prefix of the tokens, 20 bytes each; it
    /// throws only then, for a damaged table.
    public func tokenTrie() throws(IndexError) -> ScalarTrie {
        try tokenTrieOnce.value()
    }
}
