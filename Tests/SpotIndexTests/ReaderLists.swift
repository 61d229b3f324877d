import SpotIndex

extension RankList {
    /// The ranks left in the list, read to its end.
    mutating func drain() throws(IndexError) -> [Int] {
        var ranks: [Int] = []
        while let rank = try next() { ranks.append(rank) }
        return ranks
    }
}

extension SpotIndexReader {
    /// The posting groups of `token`, each with its ranks read to the end of its list.
    func postingRanks(ofToken token: Int) throws(IndexError) -> [(key: PostingGroup.Key, ranks: [Int])] {
        var read: [(key: PostingGroup.Key, ranks: [Int])] = []
        for var group in try postingGroups(ofToken: token) { read.append((group.key, try group.ranks.drain())) }
        return read
    }

    /// The ranks of kind `kind`'s spots, read to the end of its list.
    func kindRanks(ofKind kind: Int) throws(IndexError) -> [Int] {
        var list = try kindList(ofKind: kind)
        return try list.drain()
    }

    /// The spots (as spot numbers) of every group of every token in `tokens`, token by token,
    /// each token's groups in order, with the key of the group that gave them.
    func allPostings(ofTokens tokens: Range<Int>) throws(IndexError) -> [(spot: Int, key: PostingGroup.Key)] {
        var postings: [(spot: Int, key: PostingGroup.Key)] = []
        for token in tokens {
            for (key, ranks) in try postingRanks(ofToken: token) {
                for rank in ranks { postings.append((try spot(atRank: rank), key)) }
            }
        }
        return postings
    }
}
