/// The category phrases of one word (`QueryParser`), kept so that the phrases a misspelt term
/// may mean are found without working out the edits of each (which cost more than the rest of
/// a typo search). The phrases are kept as a trie, made once: a walk down it keeps one row of
/// the edit-distance table a letter of the path (`EditRows`), so phrases that share a prefix
/// share its rows; it leaves a branch once its prefix is out of reach, or when no letter of its
/// phrases shares a block of scripts with the word's (a phrase within a word's edits shares a
/// letter with it: other scripts' thousands of first letters are passed over), and takes a whole
/// branch once every phrase in it matches alike (the word starts them all).
struct OneWordPhrases {
    /// A phrase of one word: its folded word's scalars and what it names.
    struct Phrase {
        let scalars: [UInt32]
        let targets: PhraseTargets
    }

    /// A node of the trie: the path from the root spells the first `depth` scalars of the
    /// phrases of `phrases`. 32 bytes, its ranges as 32-bit bounds, and knowing whether its path
    /// is a phrase itself: a walk visits thousands of nodes a query, and reading a phrase's
    /// scalars (an array of its own) at each cost more than the rest of the visit.
    private struct Node {
        /// The last scalar of the path.
        let letter: UInt32
        /// Whether the path is itself a phrase: the first of `phrases`.
        let isPhrase: Bool
        private let firstPhrase: Int32
        private let endOfPhrases: Int32
        private var firstChild: Int32 = 0
        private var endOfChildren: Int32 = 0
        /// The blocks (`block(of:)`) of every letter of the phrases under the node.
        var blocks: UInt64 = 0

        init(letter: UInt32, isPhrase: Bool, phrases: Range<Int>) {
            self.letter = letter
            self.isPhrase = isPhrase
            firstPhrase = Int32(phrases.lowerBound)
            endOfPhrases = Int32(phrases.upperBound)
        }

        /// The phrases under the node, a range of `sorted`.
        var phrases: Range<Int> { Int(firstPhrase)..<Int(endOfPhrases) }

        /// The node's children, a range of `nodes`.
        var children: Range<Int> {
            get { Int(firstChild)..<Int(endOfChildren) }
            set { (firstChild, endOfChildren) = (Int32(newValue.lowerBound), Int32(newValue.upperBound)) }
        }
    }

    /// The phrases, sorted by their scalars.
    let sorted: [Phrase]
    /// The trie, its root first, each node's children side by side.
    private let nodes: [Node]
    /// Each node's letter, by node: the search among a node's children reads these alone.
    private let letters: [UInt32]

    /// The phrases `phrases`, in any order.
    init(_ phrases: [Phrase]) {
        sorted = phrases.sorted { $0.scalars.lexicographicallyPrecedes($1.scalars) }
        var nodes = [Node(letter: 0, isPhrase: sorted.first?.scalars.isEmpty ?? false, phrases: sorted.indices)]
        var depths = [0]
        var next = 0
        // Breadth first: the children of each node are made together, so they sit side by side.
        while next < nodes.count {
            let depth = depths[next]
            var start = nodes[next].phrases.lowerBound
            if nodes[next].isPhrase { start += 1 }
            let first = nodes.count
            while start < nodes[next].phrases.upperBound {
                let letter = sorted[start].scalars[depth]
                var end = start + 1
                while end < nodes[next].phrases.upperBound, sorted[end].scalars[depth] == letter { end += 1 }
                nodes.append(
                    Node(letter: letter, isPhrase: sorted[start].scalars.count == depth + 1, phrases: start..<end))
                depths.append(depth + 1)
                start = end
            }
            nodes[next].children = first..<nodes.count
            next += 1
        }
        // A node's blocks: its path's letters' (parents come first) and its subtree's (children
        // come after their parent, so a walk from the end has them ready).
        var pathBlocks = [UInt64](repeating: 0, count: nodes.count)
        for index in nodes.indices {
            for child in nodes[index].children {
                pathBlocks[child] = pathBlocks[index] | Self.block(of: nodes[child].letter)
            }
        }
        for index in nodes.indices.reversed() {
            nodes[index].blocks = nodes[index].children.reduce(pathBlocks[index]) { $0 | nodes[$1].blocks }
        }
        self.nodes = nodes
        letters = nodes.map(\.letter)
    }

    /// The bit of the 128-scalar block of `scalar` (64 bits: blocks that share one fold together):
    /// a phrase within a word's edits shares a letter with it (the word is longer than its
    /// edits), so a branch none of whose letters shares a block with the word's is not walked.
    static func block(of scalar: UInt32) -> UInt64 { 1 << UInt64((scalar >> 7) & 63) }

    /// The phrases that `word` is within its edits of (`word.edits(toScalars:)` of each phrase,
    /// for the phrases where it is not nil), with the edits.
    func matches(of word: FuzzyWord) -> [(phrase: Phrase, edits: Int)] {
        var found: [(phrase: Phrase, edits: Int)] = []
        var rows = EditRows(word: word.scalars)
        // Past this depth only phrases the word starts (with no edit) are within reach, unless
        // it is a prefix.
        let deepest = word.scalars.count + word.maxEdits
        var stack = [(node: 0, depth: 0)]
        // The children of the node at hand to walk, in order.
        var kept: [Int] = []
        // A word no longer than its edits may mean a phrase with no letter of its own.
        let wordBlocks = word.scalars.count > word.maxEdits ? word.scalars.reduce(0) { $0 | Self.block(of: $1) } : ~0
        while let (index, depth) = stack.popLast() {
            let node = nodes[index]
            guard node.blocks & wordBlocks != 0 else { continue }
            if depth > 0 {
                rows.truncate(toDepth: depth - 1)
                rows.push(node.letter)
                if let every = rows.editsOfEveryLongerToken(isPrefix: word.isPrefix) {
                    if every <= word.maxEdits { found += node.phrases.map { (sorted[$0], every) } }
                    continue
                }
                if rows.minimum > word.maxEdits { continue }
            }
            if node.isPhrase {
                let edits = rows.editsOfToken(isPrefix: word.isPrefix)
                if edits <= word.maxEdits { found.append((sorted[node.phrases.lowerBound], edits)) }
            }
            guard word.isPrefix || depth < deepest else { continue }
            kept.removeAll(keepingCapacity: true)
            if rows.minimum == word.maxEdits {
                // Every edit is spent: only the letters that keep a cell within reach
                // (`EditRows.letterKeepingWithin`) lead on, so only their children are walked.
                var next = node.children.lowerBound
                var least: UInt32 = 0
                while next < node.children.upperBound,
                    let letter = rows.letterKeepingWithin(word.maxEdits, atLeast: least)
                {
                    next = firstChild(in: next..<node.children.upperBound, atLeast: letter)
                    guard next < node.children.upperBound else { break }
                    if letters[next] == letter {
                        kept.append(next)
                        next += 1
                        least = letter + 1
                    } else {
                        least = letters[next]
                    }
                }
            } else {
                kept.append(contentsOf: node.children)
            }
            for child in kept.reversed() { stack.append((child, depth + 1)) }
        }
        return found
    }

    /// The first node of `children` (side by side, sorted by letter) whose letter is not below
    /// `letter`; the range's end when none is.
    private func firstChild(in children: Range<Int>, atLeast letter: UInt32) -> Int {
        var (low, high) = (children.lowerBound, children.upperBound)
        while low < high {
            let middle = (low + high) / 2
            if letters[middle] < letter { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
