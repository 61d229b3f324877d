/// A trie of sequences of Unicode scalar values (folded tokens, category phrases), made in
/// memory from the sequences in sorted order: what a search that forgives typos walks, keeping
/// one row of the edit-distance table a letter of the path, so that the items which share a
/// prefix share its rows and a branch out of reach is left whole.
///
/// The nodes are stored in preorder, one array a field: a node's subtree is the nodes from it up
/// to `subtreeEnd`, its first child (if any) comes right after it and each next sibling at the
/// end of the one before, so a walk reads memory front to back. Each node covers a range of the
/// items (in the order they were given); 20 bytes a node.
public struct ScalarTrie: Sendable {
    /// Each node's last scalar (the root's 0), with `itemFlag` set when its path is an item.
    @usableFromInline let letters: [UInt32]
    /// Each node's subtree end.
    @usableFromInline let ends: [UInt32]
    /// Each node's first item, and one more entry: the item count.
    @usableFromInline let firstItems: [UInt32]
    /// Each node's blocks (`block(of:)`): those of its letter and its subtree's.
    @usableFromInline let blockSets: [UInt64]

    /// Set in `letters` on a node whose path is itself an item (scalars stop at U+10FFFF, and
    /// stand-ins for malformed bytes below U+110100).
    @inlinable static var itemFlag: UInt32 { 1 << 31 }

    /// The root's number.
    public static let root = 0

    /// How many nodes the trie has.
    @inlinable public var nodeCount: Int { letters.count }

    /// The last scalar of node `node`'s path.
    @inlinable public func letter(_ node: Int) -> UInt32 { letters[node] & ~Self.itemFlag }

    /// Whether node `node`'s path is itself an item: the first of `items(node)`.
    @inlinable public func isItem(_ node: Int) -> Bool { letters[node] & Self.itemFlag != 0 }

    /// The items whose sequences start with node `node`'s path, a range of their numbers.
    @inlinable public func items(_ node: Int) -> Range<Int> { Int(firstItems[node])..<Int(firstItems[Int(ends[node])]) }

    /// The node after node `node`'s subtree: its next sibling, else the next of an ancestor's
    /// (`nodeCount` past the last).
    @inlinable public func subtreeEnd(_ node: Int) -> Int { Int(ends[node]) }

    /// The blocks of node `node`'s letter and of the letters in its subtree.
    @inlinable public func blocks(_ node: Int) -> UInt64 { blockSets[node] }

    /// The bit of the 128-scalar block of `scalar` (64 bits: blocks that share one fold together):
    /// an item within a word's edits shares a letter with it when the word is longer than its
    /// edits, so a branch none of whose letters shares a block with the word's can be passed over.
    @inlinable public static func block(of scalar: UInt32) -> UInt64 { 1 << UInt64((scalar >> 7) & 63) }

    /// Makes a trie from items given one at a time, in sorted order. Items out of order (a
    /// damaged table's) make a trie in which a walk may miss some of them, never one whose
    /// numbers lead out of its arrays: the builder sets every subtree end and range itself.
    public struct Builder {
        private var letters: [UInt32] = [0]
        private var ends: [UInt32] = [0]
        private var firstItems: [UInt32] = [0]
        private var parents: [UInt32] = [0]
        /// The nodes of the last item's path below the root.
        private var open: [Int] = []
        private var itemCount = 0

        /// An empty trie's builder.
        public init() {}

        /// Adds the next item; false, adding nothing, past 2³² − 1 nodes or items.
        public mutating func append(_ scalars: [UInt32]) -> Bool {
            guard letters.count + scalars.count < Int(UInt32.max), itemCount < Int(UInt32.max) else { return false }
            var shared = 0
            while shared < scalars.count, shared < open.count,
                scalars[shared] == letters[open[shared]] & ~ScalarTrie.itemFlag
            {
                shared += 1
            }
            if shared == scalars.count && shared == open.count && itemCount > 0 {
                itemCount += 1  // the same item again: the node's range takes it in
                return true
            }
            while open.count > shared { ends[open.removeLast()] = UInt32(letters.count) }
            if scalars.isEmpty { letters[ScalarTrie.root] |= ScalarTrie.itemFlag }
            for depth in shared..<scalars.count {
                parents.append(UInt32(open.last ?? ScalarTrie.root))
                open.append(letters.count)
                letters.append(scalars[depth] | (depth == scalars.count - 1 ? ScalarTrie.itemFlag : 0))
                ends.append(0)
                firstItems.append(UInt32(itemCount))
            }
            itemCount += 1
            return true
        }

        /// The trie of the items added.
        public mutating func build() -> ScalarTrie {
            while let node = open.popLast() { ends[node] = UInt32(letters.count) }
            ends[ScalarTrie.root] = UInt32(letters.count)
            firstItems.append(UInt32(itemCount))
            // From the last node back: children come after their parent.
            var blockSets = [UInt64](repeating: 0, count: letters.count)
            for node in letters.indices.dropFirst().reversed() {
                blockSets[node] |= ScalarTrie.block(of: letters[node] & ~ScalarTrie.itemFlag)
                blockSets[Int(parents[node])] |= blockSets[node]
            }
            return ScalarTrie(letters: letters, ends: ends, firstItems: firstItems, blockSets: blockSets)
        }
    }

    private init(letters: [UInt32], ends: [UInt32], firstItems: [UInt32], blockSets: [UInt64]) {
        self.letters = letters
        self.ends = ends
        self.firstItems = firstItems
        self.blockSets = blockSets
    }
}
