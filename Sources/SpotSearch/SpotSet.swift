import SpotIndex

/// A value worked out on first use.
final class Lazy<Value> {
    private let make: () throws -> Value
    private var made: Value?

    init(_ make: @escaping () throws -> Value) {
        self.make = make
    }

    func value() throws -> Value {
        if let made { return made }
        let value = try make()
        made = value
        return value
    }
}

/// A spot set worked out on first use.
typealias LazySpotSet = Lazy<SpotSet>

extension SpotIndexReader {
    /// The spot numbers of what is left of `list`, in its (reference) order.
    func spots(in list: RankList) throws(IndexError) -> [Int] {
        var list = list
        var spots: [Int] = []
        spots.reserveCapacity(list.remaining)
        while let rank = try list.next() { spots.append(try spot(atRank: rank)) }
        return spots
    }
}

/// A set of spot numbers: a sorted array when small, a bit set (a few kilobytes even for a
/// million spots) when large.
struct SpotSet {
    private var sorted: [Int] = []
    private var bits: [UInt64]?

    /// The set of `spots` (any order, repeats allowed) out of `count` spots.
    init<S: Sequence>(_ spots: S, estimatedCount: Int, count: Int) where S.Element == Int {
        if estimatedCount > count / 64 {
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

    func contains(_ spot: Int) -> Bool {
        if let bits { return bits[spot >> 6] & (1 << UInt64(spot & 63)) != 0 }
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < spot { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == spot
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
