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
    /// A walk through the tokens in their sorted (byte) order from the first that does not sort
    /// before `key`: what a search that forgives typos walks, passing over the tokens below a
    /// prefix no match can start with. The first cursor of a reader decodes every token once
    /// (`StringTable.Decoded`); it throws only then, for a damaged table.
    public func tokenCursor(atLeast key: [UInt8] = []) throws(IndexError) -> TokenCursor {
        TokenCursor(cursor: StringTable.DecodedCursor(try decodedTokens.value(), atLeast: key))
    }
}

/// A position in the sorted tokens of the text index (`SpotIndexReader.tokenCursor`), over the
/// tokens decoded once a reader: skipping the tokens that share a prefix, or moving forward to
/// a key, is a galloping search of them.
public struct TokenCursor {
    fileprivate var cursor: StringTable.DecodedCursor

    /// The current token's number, as `postingGroups(ofToken:)` takes it; the token count past
    /// the last.
    public var token: Int { cursor.number }
    /// The current token's folded UTF-8 bytes (empty past the last).
    public var bytes: [UInt8] { cursor.bytes }
    /// Whether the cursor is past the last token.
    public var isAtEnd: Bool { cursor.isAtEnd }

    /// Moves to the next token.
    public mutating func advance() { cursor.advance() }

    /// Moves to the first later token that does not start with the current one's first
    /// `length` bytes (at most its length).
    public mutating func skip(sharing length: Int) { cursor.skip(sharing: length) }

    /// Moves forward to the first token that does not sort before `key` (bytes): nowhere when
    /// the current one does not.
    public mutating func advance(toAtLeast key: [UInt8]) { cursor.advance(toAtLeast: key) }
}
