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
    /// Both posting lists of `token`, read to their ends.
    func postingRanks(ofToken token: Int) throws(IndexError) -> (starting: [Int], others: [Int]) {
        var lists = try postingLists(ofToken: token)
        return (try lists.startingName.drain(), try lists.others.drain())
    }

    /// The ranks of kind `kind`'s spots, read to the end of its list.
    func kindRanks(ofKind kind: Int) throws(IndexError) -> [Int] {
        var list = try kindList(ofKind: kind)
        return try list.drain()
    }

    /// Each `forEachPosting` call for `tokens`, in order.
    func allPostings(ofTokens tokens: Range<Int>) throws(IndexError) -> [(spot: Int, startsName: Bool)] {
        var postings: [(spot: Int, startsName: Bool)] = []
        try forEachPosting(ofTokens: tokens) { postings.append(($0, $1)) }
        return postings
    }
}
