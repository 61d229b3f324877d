import Foundation

extension StringTable {
    /// The first string of every block of a table, decoded once: for a table that seeks often
    /// (the tokens, which a walk that forgives typos seeks thousands of times a query), so that
    /// each step of a search of the blocks compares bytes rather than decoding an entry.
    struct BlockFirsts: Sendable {
        /// The strings one after the other.
        private let bytes: [UInt8]
        /// Where each string ends in `bytes`.
        private let ends: [Int]

        /// The first strings of `table`'s blocks.
        init(_ table: StringTable) throws(IndexError) {
            var bytes: [UInt8] = []
            var ends: [Int] = []
            let blockCount = (table.count + table.blockSize - 1) / table.blockSize
            ends.reserveCapacity(blockCount)
            for block in 0..<blockCount {
                var position = try table.start(ofBlock: block)
                var first: [UInt8] = []
                try table.advance(&position, &first, previousLength: 0)
                bytes += first
                ends.append(bytes.count)
            }
            self.bytes = bytes
            self.ends = ends
        }

        /// Whether the first string of block `block` sorts before `key`.
        func firstString(ofBlock block: Int, precedes key: [UInt8]) -> Bool {
            let start = block == 0 ? 0 : ends[block - 1]
            return bytes[start..<ends[block]].lexicographicallyPrecedes(key)
        }
    }

    /// A table's `BlockFirsts`, decoded on first use, whichever thread asks first.
    final class LazyBlockFirsts: @unchecked Sendable {
        // Unchecked: `decoded` is read and written under `lock` only.
        private let lock = NSLock()
        private var decoded: BlockFirsts?
        private let table: StringTable

        /// The first strings of `table`'s blocks, to be decoded when first asked for.
        init(_ table: StringTable) {
            self.table = table
        }

        /// The first strings, decoded now if they were not yet.
        func value() throws(IndexError) -> BlockFirsts {
            lock.lock()
            defer { lock.unlock() }
            if let decoded { return decoded }
            let firsts = try BlockFirsts(table)
            decoded = firsts
            return firsts
        }
    }
}
