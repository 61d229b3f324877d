import SpotIndex
import SpotText
import Spots

/// A folded query word and the typos it forgives (docs/search.md, "Typos"): a word of 4 to 7 letters
/// one edit, of 8 or more two (Elasticsearch's fuzziness AUTO:4,8); an edit is a scalar
/// inserted, deleted, replaced, or two neighbours swapped (Damerau–Levenshtein distance, in its
/// optimal-string-alignment form). A word with Chinese, Japanese or Korean characters or with
/// digits forgives nothing.
///
/// Every word matches a token that starts with it, with no edit (as the exact levels take
/// words); otherwise a word matches a token within its edits of it, and the last word of a
/// query, which may be unfinished, a token that *starts* with something within its edits.
struct FuzzyWord {
    /// The folded word.
    let text: String
    /// Its Unicode scalars.
    let scalars: [UInt32]
    /// The most edits it forgives.
    let maxEdits: Int
    /// Whether it may match the start of a token (the last word of a query).
    let isPrefix: Bool
    /// Its edits against a token, bit-parallel; nil for a word of more than 64 scalars.
    private let bitParallel: BitParallelEdits?

    /// The folded `word`; `isLast` when it ends the query, `forgiving` unless it must be met
    /// as written (a word of a category phrase). It forgives the edits of its length, fewer by
    /// `spent` (those a respelling took, `Respelling`).
    init(_ word: String, isLast: Bool, forgiving: Bool = true, spent: Int = 0) {
        text = word
        scalars = word.unicodeScalars.map(\.value)
        let forgives = forgiving && Self.mayForgive(word)
        maxEdits = forgives ? max(0, Self.maxEdits(forLength: scalars.count) - spent) : 0
        isPrefix = isLast
        bitParallel = BitParallelEdits(word: scalars)
    }

    /// The edits a word of `length` letters forgives.
    static func maxEdits(forLength length: Int) -> Int {
        length >= 8 ? 2 : length >= 4 ? 1 : 0
    }

    /// Whether `word` (folded) is of the letters that forgive typos: alphabetic, in a script
    /// written with spaces.
    static func mayForgive(_ word: String) -> Bool {
        word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && !SearchText.isUnspaced($0) }
    }

    /// The edits between the word and `token` (folded), or nil beyond `maxEdits`: 0 when the
    /// token starts with the word.
    func edits(to token: String) -> Int? {
        edits(toScalars: token.unicodeScalars.map(\.value))
    }

    /// `edits(to:)` of a token given as its Unicode scalars' values.
    func edits(toScalars token: [UInt32]) -> Int? {
        // Within `maxEdits` edits, some letter among the word's first `maxEdits` + 1 is kept, at
        // most `maxEdits` places from where it stood: a token none of whose first 2 × `maxEdits`
        // + 1 letters is one of them is out of reach.
        let kept = scalars.prefix(maxEdits + 1)
        guard token.prefix(2 * maxEdits + 1).contains(where: kept.contains) else { return nil }
        if let bitParallel {
            let (whole, bestPrefix) = bitParallel.edits(to: token)
            let edits = isPrefix || bestPrefix == 0 ? bestPrefix : whole
            return edits <= maxEdits ? edits : nil
        }
        var rows = EditRows(word: scalars, maxEdits: maxEdits, depth: token.count)
        for scalar in token {
            rows.push(scalar)
            if let edits = rows.editsOfEveryLongerToken(isPrefix: isPrefix), edits <= maxEdits { return edits }
            if rows.minimum > maxEdits { return nil }
        }
        let edits = rows.editsOfToken(isPrefix: isPrefix)
        return edits <= maxEdits ? edits : nil
    }

    /// The tokens of `index` the word matches, as ranges of token numbers in order, each with
    /// its edits: a walk of the tokens' trie (`matches(in:)`), or, for a word that forgives
    /// nothing, the tokens that start with it.
    func tokenMatches(in index: SpotIndexReader) throws(IndexError) -> [TokenMatch] {
        guard maxEdits > 0 else {
            let tokens = try index.tokens(withPrefix: Array(text.utf8))
            return tokens.isEmpty ? [] : [TokenMatch(tokens: tokens, edits: 0)]
        }
        return matches(in: try index.tokenTrie())
    }

    /// The items of `trie` the word matches, as ranges of item numbers in order, each with its
    /// edits.
    ///
    /// A walk down the trie keeps one row of the edit-distance table a letter of the path
    /// (`EditRows`), so items that share a prefix share its rows. It leaves a branch once its
    /// prefix is out of reach (every cell of its row above `maxEdits`), or when no letter of its
    /// path and items shares a block of scripts with the word's (`ScalarTrie.block(of:)`: other
    /// scripts' thousands of first letters are passed over), and takes a whole branch once every
    /// item in it matches alike. A prefix that has spent every edit can go on only with a letter
    /// of the word, so only the children of those letters are walked.
    func matches(in trie: ScalarTrie) -> [TokenMatch] {
        var matches: [TokenMatch] = []
        func add(_ items: Range<Int>, edits: Int) {
            if let last = matches.last, last.edits == edits, last.tokens.upperBound == items.lowerBound {
                matches[matches.count - 1] = TokenMatch(tokens: last.tokens.lowerBound..<items.upperBound, edits: edits)
            } else if !items.isEmpty {
                matches.append(TokenMatch(tokens: items, edits: edits))
            }
        }
        var rows = EditRows(word: scalars, maxEdits: maxEdits)
        if trie.isItem(ScalarTrie.root), case let edits = rows.editsOfToken(isPrefix: isPrefix), edits <= maxEdits {
            add(trie.items(ScalarTrie.root).prefix(1), edits: edits)
        }
        // A word no longer than its edits may match an item with no letter of its own.
        let wordBlocks = scalars.count > maxEdits ? scalars.reduce(0) { $0 | ScalarTrie.block(of: $1) } : ~0
        // The subtree ends of the nodes on the path, deepest last (the path's depth is their
        // count), and whether the path up to each shares a block with the word.
        var open: [Int] = []
        var pathShares = [false]
        var node = ScalarTrie.root + 1
        while node < trie.nodeCount {
            while let end = open.last, node >= end {
                open.removeLast()
                pathShares.removeLast()
            }
            let siblingsEnd = open.last ?? trie.nodeCount
            guard pathShares[pathShares.count - 1] || trie.blocks(node) & wordBlocks != 0 else {
                node = trie.subtreeEnd(node)
                continue
            }
            rows.truncate(toDepth: open.count)
            let letter = trie.letter(node)
            if rows.minimum == maxEdits {
                // The parent's path has spent every edit: only some letters of the word keep it
                // in reach. Pass over the siblings before the next of them.
                guard let keeping = rows.letterKeepingWithin(atLeast: letter) else {
                    node = siblingsEnd
                    continue
                }
                if keeping != letter {
                    node = trie.subtreeEnd(node)
                    while node < siblingsEnd && trie.letter(node) < keeping { node = trie.subtreeEnd(node) }
                    continue
                }
            }
            rows.push(letter)
            let everyLonger = rows.editsOfEveryLongerToken(isPrefix: isPrefix)
            if rows.minimum > maxEdits || everyLonger.map({ $0 <= maxEdits }) == true {
                if let everyLonger, everyLonger <= maxEdits { add(trie.items(node), edits: everyLonger) }
                node = trie.subtreeEnd(node)
                continue
            }
            if trie.isItem(node) {
                let edits = rows.editsOfToken(isPrefix: isPrefix)
                if edits <= maxEdits { add(trie.items(node).prefix(1), edits: edits) }
            }
            open.append(trie.subtreeEnd(node))
            pathShares.append(pathShares[pathShares.count - 1] || ScalarTrie.block(of: letter) & wordBlocks != 0)
            node += 1
        }
        return matches
    }
}

/// Tokens a query word matches: a range of token numbers, and the edits it takes.
struct TokenMatch: Equatable {
    let tokens: Range<Int>
    let edits: Int
}

/// The rows of the edit-distance table of a word against a token read one scalar at a time, so
/// that tokens which share a prefix share its rows. Row *d* holds, for each *j*, the edits
/// between the token's first *d* scalars and the word's first *j*, counted only up to `maxEdits`
/// + 1 (a cell past `maxEdits` says only that it is out of reach) and only within `maxEdits` of
/// the diagonal (Ukkonen's band: a cell farther from it takes more edits than that), so a row
/// costs 2 × `maxEdits` + 1 cells whatever the word's length.
struct EditRows {
    private let word: [UInt32]
    /// The most edits that count; every cell above it holds `beyond`.
    private let maxEdits: Int
    /// `maxEdits` + 1: a cell out of reach.
    private let beyond: Int
    /// 2 × `maxEdits` + 1: the cells a row keeps, cell *i* of row *d* standing for *j* = *d* −
    /// `maxEdits` + *i* (`beyond` where *j* is below 0 or past the word).
    private let width: Int
    /// `width` + 3: a row's slots in `rows`.
    private let stride: Int
    /// The path's length: rows 0 through `depth` are the table's.
    private var depth = 0
    /// The rows, `stride` slots each, one after the other: the path's scalar that ends the row
    /// (0 for row 0), the fewest of its cells (`minimum`), the fewest edits between the whole
    /// word and a prefix of the path up to it, then its `width` cells. The storage past row
    /// `depth` is spare (rows are written over, not appended, so moving along the sorted tokens
    /// costs no allocation: `truncate` only lowers `depth`).
    private var rows: [Int]

    /// Where a row's slots begin, past its start.
    private enum Slot {
        static let scalar = 0
        static let minimum = 1
        static let bestPrefixEdits = 2
        static let cells = 3
    }

    /// The table of `word` against the empty token, counted up to `maxEdits`, with room for the
    /// rows of `depth` scalars (more grow it).
    init(word: [UInt32], maxEdits: Int, depth: Int = 16) {
        self.word = word
        self.maxEdits = maxEdits
        beyond = maxEdits + 1
        width = 2 * maxEdits + 1
        stride = width + Slot.cells
        let cells = (0..<width).map { cell in
            let j = cell - maxEdits
            return j < 0 || j > word.count ? maxEdits + 1 : Swift.min(j, maxEdits + 1)
        }
        rows = [0, 0, Swift.min(word.count, maxEdits + 1)] + cells + [Int](repeating: 0, count: depth * stride)
    }

    /// Drops the rows past the path's first `depth` scalars.
    mutating func truncate(toDepth depth: Int) {
        self.depth = Swift.min(self.depth, depth)
    }

    /// Adds the row of the token's next scalar. Cell *i* of a row and cell *i* of the row above
    /// lie on one diagonal, so the cell above is *i* + 1 and the one two rows up across a swap
    /// of neighbours is *i* again.
    mutating func push(_ scalar: UInt32) {
        if (depth + 2) * stride > rows.count { rows += [Int](repeating: 0, count: Swift.max(depth, 8) * stride) }
        depth += 1
        let (depth, maxEdits, width, stride, beyond) = (depth, maxEdits, width, stride, beyond)
        let wholeWord = wholeWordCell(ofRow: depth)
        word.withUnsafeBufferPointer { word in
            rows.withUnsafeMutableBufferPointer { rows in
                // In bounds: `rows` holds rows 0 through `depth` (grown above), a word letter is
                // read only for a j from 1 through the word's length, and two rows up only past
                // row 1.
                let row = depth * stride
                let above = row - stride
                let cells = row + Slot.cells
                let cellsAbove = above + Slot.cells
                let previous = depth > 1 ? UInt32(truncatingIfNeeded: rows[above + Slot.scalar]) : 0
                var minimum = beyond
                for cell in 0..<width {
                    let j = depth - maxEdits + cell
                    var value = beyond
                    if j == 0 {
                        value = Swift.min(depth, beyond)
                    } else if j > 0 && j <= word.count {
                        let letter = word[j - 1]
                        value = rows[cellsAbove + cell] + (letter == scalar ? 0 : 1)
                        if cell + 1 < width { value = Swift.min(value, rows[cellsAbove + cell + 1] + 1) }
                        if cell > 0 { value = Swift.min(value, rows[cells + cell - 1] + 1) }
                        if depth > 1, j > 1, letter == previous, word[j - 2] == scalar {
                            value = Swift.min(value, rows[cellsAbove - stride + cell] + 1)
                        }
                        value = Swift.min(value, beyond)
                    }
                    rows[cells + cell] = value
                    minimum = Swift.min(minimum, value)
                }
                rows[row + Slot.scalar] = Int(scalar)
                rows[row + Slot.minimum] = minimum
                let whole = wholeWord.map { rows[cells + $0] } ?? beyond
                rows[row + Slot.bestPrefixEdits] = Swift.min(rows[above + Slot.bestPrefixEdits], whole)
            }
        }
    }

    /// The cell of row `row` that stands for the whole word; nil when it lies outside the band.
    private func wholeWordCell(ofRow row: Int) -> Int? {
        let cell = word.count - row + maxEdits
        return (0..<width).contains(cell) ? cell : nil
    }

    /// Cell `cell` of row `row`.
    private func cell(_ cell: Int, ofRow row: Int) -> Int { rows[row * stride + Slot.cells + cell] }

    /// The fewest cells of the last row: no token that starts with the path is nearer the word
    /// (`maxEdits` + 1 when none is within reach).
    var minimum: Int { rows[depth * stride + Slot.minimum] }

    /// The least scalar from `least` on after which some cell of the next row is at most
    /// `maxEdits`, when every cell of this one is at least `maxEdits`; nil when none is. A cell
    /// keeps its value only along a diagonal, from a cell of `maxEdits` whose word letter is the
    /// next scalar, or by swapping the word's letter back with the path's last.
    func letterKeepingWithin(atLeast least: UInt32) -> UInt32? {
        var best = UInt32.max
        // Cell i of this row stands for the word's first j letters; the next letter keeps it.
        for cell in 0..<width where self.cell(cell, ofRow: depth) <= maxEdits {
            let j = depth - maxEdits + cell
            if j >= 0 && j < word.count && word[j] >= least { best = Swift.min(best, word[j]) }
        }
        if depth > 0 {
            // Cell i of the row above, within one edit fewer, crossed with a swap: the path's last
            // scalar is the word's letter after next.
            let last = UInt32(truncatingIfNeeded: rows[depth * stride + Slot.scalar])
            for cell in 0..<width where self.cell(cell, ofRow: depth - 1) < maxEdits {
                let j = depth - 1 - maxEdits + cell
                if j >= 0 && j + 1 < word.count && word[j + 1] == last && word[j] >= least {
                    best = Swift.min(best, word[j])
                }
            }
        }
        return best == .max ? nil : best
    }

    /// The edits between the word and the path read as a whole token: with `isPrefix`, the
    /// fewest between it and a prefix of the path; 0 once the path starts with the word
    /// (`maxEdits` + 1 when out of reach).
    func editsOfToken(isPrefix: Bool) -> Int {
        let best = rows[depth * stride + Slot.bestPrefixEdits]
        guard !isPrefix && best != 0 else { return best }
        return wholeWordCell(ofRow: depth).map { cell($0, ofRow: depth) } ?? beyond
    }

    /// The edits of every token that starts with the path, when it is the same for all of them:
    /// when a prefix of the path already matches the word (as a prefix, or with no edit) and no
    /// longer token can come nearer.
    func editsOfEveryLongerToken(isPrefix: Bool) -> Int? {
        let best = rows[depth * stride + Slot.bestPrefixEdits]
        return (isPrefix || best == 0) && minimum >= best ? best : nil
    }
}
