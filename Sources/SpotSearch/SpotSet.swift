import SpotIndex

/// A value worked out on first use.
final class Lazy<Value> {
    private let make: () throws -> Value
    private var made: Value?

    init(_ make: @escaping () throws -> Value) {
        self.make = make
    }

    /// Whether the value has been worked out.
    var isMade: Bool { made != nil }

    func value() throws -> Value {
        if let made { return made }
        let value = try make()
        made = value
        return value
    }
}

extension SpotIndexReader {
    /// The spot numbers the postings of `tokens` hold in the groups whose keys `keeps`, each
    /// once a group.
    func spots(ofTokens tokens: Range<Int>, keeping keeps: (PostingGroup.Key) -> Bool) throws(IndexError) -> [Int] {
        var spots: [Int] = []
        try forEachPostingGroup(ofTokens: tokens) { (_, group) throws(IndexError) in
            guard keeps(group.key) else { return }
            var ranks = group.ranks
            while let rank = try ranks.next() { spots.append(try spot(atRank: rank)) }
        }
        return spots
    }

    /// The spot numbers of what is left of `list`, in its (reference) order.
    func spots(in list: RankList) throws(IndexError) -> [Int] {
        try list.remainingRanks().map { rank throws(IndexError) in try spot(atRank: rank) }
    }
}

extension RankList {
    /// The ranks left in the list, in order.
    func remainingRanks() throws(IndexError) -> [Int] {
        var list = self
        var ranks: [Int] = []
        ranks.reserveCapacity(list.remaining)
        while let rank = try list.next() { ranks.append(rank) }
        return ranks
    }
}

/// A set of spot numbers: a sorted array when very small, else a bit set (a bit a spot: 120
/// kilobytes for a million). The one spot set of a search: what a term's or a phrase's postings
/// hold, and the spots a text search has seen. Zeroing the bits costs about what sorting a few
/// dozen members does, and a search asks a set about thousands of candidates, which a bit
/// answers in a few instructions and a binary search in about a hundred: so the array serves only
/// sets of under one member in `bitsFrom` spots.
struct SpotSet {
    /// A set of more than one member in this many spots is kept as bits.
    private static let bitsFrom = 4096

    private var sorted: [Int] = []
    private var bits: [UInt64]?

    /// An empty set of spots out of `count`, as bits: for a walk that adds many.
    init(outOf count: Int) {
        bits = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    /// The set of `spots` (any order, repeats allowed) out of `count` spots.
    init<S: Sequence>(_ spots: S, estimatedCount: Int, count: Int) where S.Element == Int {
        if estimatedCount > count / Self.bitsFrom {
            var words = [UInt64](repeating: 0, count: (count + 63) / 64)
            for spot in spots { words[spot >> 6] |= 1 << UInt64(spot & 63) }
            bits = words
        } else {
            var list = Array(spots)
            list.sort()
            var unique: [Int] = []
            unique.reserveCapacity(list.count)
            for spot in list where unique.last != spot { unique.append(spot) }
            sorted = unique
        }
    }

    /// Whether `spot` is a member.
    func contains(_ spot: Int) -> Bool {
        if let bits { return bits[spot >> 6] & (1 << UInt64(spot & 63)) != 0 }
        let position = insertionPoint(of: spot)
        return position < sorted.count && sorted[position] == spot
    }

    /// Adds `spot`; returns whether it was new.
    mutating func insert(_ spot: Int) -> Bool {
        guard bits != nil else {
            let position = insertionPoint(of: spot)
            guard position == sorted.count || sorted[position] != spot else { return false }
            sorted.insert(spot, at: position)
            return true
        }
        let bit: UInt64 = 1 << UInt64(spot & 63)
        guard bits![spot >> 6] & bit == 0 else { return false }
        bits![spot >> 6] |= bit
        return true
    }

    /// The position of the first member not below `spot` in the sorted members.
    private func insertionPoint(of spot: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < spot { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The members, ascending.
    var members: [Int] {
        guard let bits else { return sorted }
        var result: [Int] = []
        for (position, word) in bits.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                result.append(position << 6 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return result
    }
}
