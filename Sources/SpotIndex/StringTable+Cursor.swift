extension StringTable {
    /// A walk through the strings in sorted order that decodes each into one buffer, and can
    /// pass over every string that starts with the current one's first bytes: within a block by
    /// reading entry headers only (an entry that shares those bytes with the string before it
    /// starts with them too), beyond it by a binary search of the blocks.
    struct Cursor {
        private let table: StringTable
        /// The number of the current string; the table's count past the last.
        private(set) var number: Int
        /// The current string (empty past the last).
        private(set) var bytes: [UInt8] = []
        /// Where the entry after the current one starts.
        private var position = 0

        /// A cursor at the first string that does not sort before `key`.
        init(_ table: StringTable, atLeast key: [UInt8]) throws(IndexError) {
            self.table = table
            number = table.count
            try seek(atLeast: key, fromBlock: 0, galloping: false)
        }

        /// Whether the cursor is past the last string.
        var isAtEnd: Bool { number >= table.count }

        /// Moves to the next string.
        mutating func advance() throws(IndexError) {
            guard !isAtEnd else { return }
            number += 1
            guard !isAtEnd else { return bytes.removeAll() }
            if number % table.blockSize == 0 {
                position = try table.start(ofBlock: number / table.blockSize)
                bytes.removeAll(keepingCapacity: true)
            }
            try table.advance(&position, &bytes)
        }

        /// Moves to the first later string that does not start with the current one's first
        /// `length` bytes (at most its length).
        mutating func skip(sharing length: Int) throws(IndexError) {
            guard !isAtEnd, try !passInBlock(sharing: length) else { return }
            // Past this block: the first string after every one that starts with the bytes.
            guard number + 1 < table.count, let successor = Self.successor(of: bytes) else {
                number = table.count
                return bytes.removeAll()
            }
            try seek(atLeast: successor, fromBlock: (number + 1) / table.blockSize, galloping: true)
        }

        /// Moves to the first later string of this block that does not start with the current
        /// one's first `length` bytes, and returns true; at the block's end returns false, the
        /// cursor at the block's last string with `bytes` cut to those bytes.
        ///
        /// Only the shared bytes matter from here: every entry passed over keeps them, and the
        /// entry that keeps fewer is decoded over them. The entries passed over are not decoded,
        /// so their lengths are not checked against what they share (`advance()` checks them;
        /// nothing here reads past `bytes`).
        private mutating func passInBlock(sharing length: Int) throws(IndexError) -> Bool {
            precondition(length <= bytes.count, "a skip past the current string")
            bytes.removeLast(bytes.count - length)
            while number + 1 < table.count && (number + 1) % table.blockSize != 0 {
                let (shared, coded) = try table.sharedAndCoded(at: position)
                number += 1
                if shared < length {
                    try table.advance(&position, &bytes)
                    return true
                }
                position = coded.upperBound
            }
            return false
        }

        /// Moves forward to the first string that does not sort before `key` (nowhere when the
        /// current one does not). The strings that share one byte more with the current one than
        /// `key` does sort before it as the current one does, so they are passed over together
        /// (`skip(sharing:)`): mostly by entry headers, without decoding.
        mutating func advance(toAtLeast key: [UInt8]) throws(IndexError) {
            while !isAtEnd && bytes.lexicographicallyPrecedes(key) {
                let common = commonPrefixLength(with: key)
                if common == bytes.count { try advance() } else { try skip(sharing: common + 1) }
            }
        }

        /// Moves to the first string in block `lowest` or after that does not sort before `key`,
        /// `galloping` when it is likely near (`lastBlock(before:from:galloping:)`).
        private mutating func seek(atLeast key: [UInt8], fromBlock lowest: Int, galloping: Bool) throws(IndexError) {
            let blockCount = (table.count + table.blockSize - 1) / table.blockSize
            guard lowest < blockCount else {
                number = table.count
                return bytes.removeAll()
            }
            try scan(toAtLeast: key, inBlock: try table.lastBlock(before: key, from: lowest, galloping: galloping))
        }

        /// Moves to the first string of block `block`, or the first of the next, that does not
        /// sort before `key`: in a sorted table the next block's first string does not. Within
        /// the block only, so that a damaged table's order cannot make the search recurse.
        private mutating func scan(toAtLeast key: [UInt8], inBlock block: Int) throws(IndexError) {
            number = block * table.blockSize
            position = try table.start(ofBlock: block)
            bytes.removeAll(keepingCapacity: true)
            try table.advance(&position, &bytes)
            let nextBlock = (block + 1) * table.blockSize
            while !isAtEnd && number < nextBlock && bytes.lexicographicallyPrecedes(key) {
                let common = commonPrefixLength(with: key)
                if common == bytes.count {
                    try advance()
                } else if try !passInBlock(sharing: common + 1) {
                    try advance()
                }
            }
        }

        /// How many first bytes the current string shares with `key`.
        private func commonPrefixLength(with key: [UInt8]) -> Int {
            var common = 0
            while common < bytes.count && common < key.count && bytes[common] == key[common] { common += 1 }
            return common
        }

        /// The least byte string after every string that starts with `prefix`, or nil when every
        /// string after `prefix` starts with it (`prefix` is empty or all 0xFF bytes).
        private static func successor(of prefix: [UInt8]) -> [UInt8]? {
            guard let last = prefix.lastIndex(where: { $0 < 0xFF }) else { return nil }
            return prefix[..<last] + [prefix[last] + 1]
        }
    }
}
