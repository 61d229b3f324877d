import Foundation

extension StringTable {
    /// The table's strings as a trie of their scalars (`ScalarTrie`, item *n* string *n*), each
    /// decoded once (`UTF8Scalar`: a malformed byte stands for itself).
    func trie() throws(IndexError) -> ScalarTrie {
        var builder = ScalarTrie.Builder()
        var string: [UInt8] = []
        var scalars: [UInt32] = []
        var position = 0
        for number in 0..<count {
            if number % blockSize == 0 {
                position = try start(ofBlock: number / blockSize)
                string.removeAll(keepingCapacity: true)
            }
            try advance(&position, &string)
            scalars.removeAll(keepingCapacity: true)
            var offset = 0
            while offset < string.count {
                let (scalar, length) = UTF8Scalar.decode(string, at: offset)
                scalars.append(scalar)
                offset += length
            }
            guard builder.append(scalars) else { throw corrupt("too many strings for a trie") }
        }
        return builder.build()
    }

    /// A table's `trie()`, made on first use, whichever thread asks first.
    final class LazyTrie: @unchecked Sendable {
        // Unchecked: `made` is read and written under `lock` only.
        private let lock = NSLock()
        private var made: ScalarTrie?
        private let table: StringTable

        /// The trie of `table`, to be made when first asked for.
        init(_ table: StringTable) {
            self.table = table
        }

        /// The trie, made now if it was not yet.
        func value() throws(IndexError) -> ScalarTrie {
            lock.lock()
            defer { lock.unlock() }
            if let made { return made }
            let trie = try table.trie()
            made = trie
            return trie
        }
    }
}
