import Foundation

extension StringTable {
    /// Every string of a table decoded once, one after the other: for a table that a search
    /// walks often (the tokens, which a walk that forgives typos moves through thousands of times
    /// a query), so that passing over the strings that share a prefix, or seeking one, is a
    /// search over bytes in memory rather than decoding entries. About the table's decoded size
    /// and 4 bytes a string.
    struct Decoded: Sendable {
        /// The strings one after the other.
        private let bytes: [UInt8]
        /// Where each string ends in `bytes`.
        private let ends: [UInt32]

        /// The strings of `table`.
        init(_ table: StringTable) throws(IndexError) {
            var bytes: [UInt8] = []
            var ends: [UInt32] = []
            ends.reserveCapacity(table.count)
            var string: [UInt8] = []
            var position = 0
            for number in 0..<table.count {
                if number % table.blockSize == 0 {
                    position = try table.start(ofBlock: number / table.blockSize)
                    string.removeAll(keepingCapacity: true)
                }
                try table.advance(&position, &string)
                bytes += string
                guard let end = UInt32(exactly: bytes.count) else { throw table.corrupt("decodes past 4 GiB") }
                ends.append(end)
            }
            self.bytes = bytes
            self.ends = ends
        }

        /// How many strings the table holds.
        var count: Int { ends.count }

        /// String number `number` (below `count`).
        func string(_ number: Int) -> ArraySlice<UInt8> {
            bytes[Int(number == 0 ? 0 : ends[number - 1])..<Int(ends[number])]
        }

        /// Whether `string` sorts before `key` by their bytes (`lexicographicallyPrecedes`, with
        /// one `memcmp` over the bytes they share: the generic comparison walks element by element,
        /// and a walk of the tokens compares thousands of strings a query).
        static func precedes(_ string: ArraySlice<UInt8>, _ key: [UInt8]) -> Bool {
            let shared = Swift.min(string.count, key.count)
            let order = string.withUnsafeBytes { string in
                key.withUnsafeBytes { key in shared == 0 ? 0 : memcmp(string.baseAddress!, key.baseAddress!, shared) }
            }
            return order < 0 || order == 0 && string.count < key.count
        }

        /// Whether `string` starts with `prefix`, by one `memcmp`.
        static func starts(_ string: ArraySlice<UInt8>, with prefix: ArraySlice<UInt8>) -> Bool {
            guard string.count >= prefix.count else { return false }
            return prefix.isEmpty
                || string.withUnsafeBytes { string in
                    prefix.withUnsafeBytes { prefix in memcmp(string.baseAddress!, prefix.baseAddress!, prefix.count) }
                } == 0
        }

        /// The first number from `start` on whose string `isPast` holds, `count` when none does.
        /// `isPast` holds from some string on in sorted order (a damaged table's order gives some
        /// number at or after `start`). Galloping: the numbers `start` + 0, 1, 3, 7… are tried
        /// before the binary search, so that a search that lands near where it starts (most
        /// skips of a walk) compares a few strings, not the logarithm of all.
        func first(from start: Int, where isPast: (ArraySlice<UInt8>) -> Bool) -> Int {
            var low = start
            var high = start
            var step = 1
            while high < count, !isPast(string(high)) {
                low = high + 1
                high = start + step
                step *= 2
            }
            high = min(high, count)
            while low < high {
                let middle = (low + high) / 2
                if isPast(string(middle)) { high = middle } else { low = middle + 1 }
            }
            return low
        }
    }

    /// A table's `Decoded` strings, decoded on first use, whichever thread asks first.
    final class LazyDecoded: @unchecked Sendable {
        // Unchecked: `decoded` is read and written under `lock` only.
        private let lock = NSLock()
        private var decoded: Decoded?
        private let table: StringTable

        /// The strings of `table`, to be decoded when first asked for.
        init(_ table: StringTable) {
            self.table = table
        }

        /// The strings, decoded now if they were not yet.
        func value() throws(IndexError) -> Decoded {
            lock.lock()
            defer { lock.unlock() }
            if let decoded { return decoded }
            let strings = try Decoded(table)
            decoded = strings
            return strings
        }
    }

    /// A walk through decoded strings in sorted order (`Decoded`) that can pass over every string
    /// that starts with the current one's first bytes, or move forward to a key, by a galloping
    /// search.
    struct DecodedCursor {
        private let strings: Decoded
        /// The number of the current string; the count past the last.
        private(set) var number: Int
        /// The current string, copied (empty past the last).
        private(set) var bytes: [UInt8] = []

        /// A cursor at the first of `strings` that does not sort before `key`.
        init(_ strings: Decoded, atLeast key: [UInt8]) {
            self.strings = strings
            number = strings.first(from: 0) { !Decoded.precedes($0, key) }
            load()
        }

        /// Whether the cursor is past the last string.
        var isAtEnd: Bool { number >= strings.count }

        /// Moves to the next string.
        mutating func advance() {
            guard !isAtEnd else { return }
            number += 1
            load()
        }

        /// Moves to the first later string that does not start with the current one's first
        /// `length` bytes (at most its length).
        mutating func skip(sharing length: Int) {
            guard !isAtEnd else { return }
            precondition(length <= bytes.count, "a skip past the current string")
            let prefix = bytes[..<length]
            number = strings.first(from: number + 1) { !Decoded.starts($0, with: prefix) }
            load()
        }

        /// Moves forward to the first string that does not sort before `key` (nowhere when the
        /// current one does not).
        mutating func advance(toAtLeast key: [UInt8]) {
            guard !isAtEnd, Decoded.precedes(bytes[...], key) else { return }
            number = strings.first(from: number + 1) { !Decoded.precedes($0, key) }
            load()
        }

        /// Copies the current string into `bytes`.
        private mutating func load() {
            bytes.removeAll(keepingCapacity: true)
            if !isAtEnd { bytes.append(contentsOf: strings.string(number)) }
        }
    }
}
