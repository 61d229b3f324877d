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
        var rows = EditRows(word: scalars, depth: token.count)
        for scalar in token {
            rows.push(scalar)
            if let edits = rows.editsOfEveryLongerToken(isPrefix: isPrefix), edits <= maxEdits { return edits }
            if rows.minimum > maxEdits { return nil }
        }
        let edits = rows.editsOfToken(isPrefix: isPrefix)
        return edits <= maxEdits ? edits : nil
    }

    /// The tokens of `index` the word matches, as ranges of token numbers in order, each with
    /// its edits.
    ///
    /// The tokens are sorted, so they are walked as a trie is: a token keeps the table rows of
    /// the scalars it shares with the one before, and once a prefix is out of reach (every cell
    /// of its row above `maxEdits`), or every token after it matches alike, the cursor passes
    /// over all the tokens that start with it (`TokenCursor.skip(sharing:)`). A prefix that has
    /// spent every edit can go on only with a letter of the word, so the cursor jumps from one
    /// such letter to the next (`TokenCursor.advance(toAtLeast:)`) over the others.
    func tokenMatches(in index: SpotIndexReader) throws(IndexError) -> [TokenMatch] {
        var matches: [TokenMatch] = []
        func add(_ tokens: Range<Int>, edits: Int) {
            if let last = matches.last, last.edits == edits, last.tokens.upperBound == tokens.lowerBound {
                matches[matches.count - 1] = TokenMatch(
                    tokens: last.tokens.lowerBound..<tokens.upperBound, edits: edits)
            } else if !tokens.isEmpty {
                matches.append(TokenMatch(tokens: tokens, edits: edits))
            }
        }
        guard maxEdits > 0 else {
            let tokens = try index.tokens(withPrefix: Array(text.utf8))
            return tokens.isEmpty ? [] : [TokenMatch(tokens: tokens, edits: 0)]
        }
        var rows = EditRows(word: scalars)
        // The current token's bytes, copied (so that moving the cursor copies nothing), where
        // the scalars the rows hold end in them at each depth, and a scratch key to jump to.
        var path: [UInt8] = []
        var ends = [0]
        var key: [UInt8] = []
        var cursor = try index.tokenCursor()
        walk: while !cursor.isAtEnd {
            let shared = Self.copy(cursor.bytes, over: &path)
            while ends[ends.count - 1] > shared { ends.removeLast() }
            rows.truncate(toDepth: ends.count - 1)
            var position = ends[ends.count - 1]
            while position < path.count {
                let (scalar, length) = UTF8Scalar.decode(path, at: position)
                if rows.minimum == maxEdits {
                    // The prefix has spent every edit: only some letters of the word keep it in
                    // reach. Jump to the next, past the tokens that go on otherwise.
                    let letter = rows.letterKeepingWithin(maxEdits, atLeast: scalar)
                    if letter == nil {
                        cursor.skip(sharing: position)
                        continue walk
                    }
                    if let letter, letter != scalar {
                        key.removeAll(keepingCapacity: true)
                        key.append(contentsOf: path[..<position])
                        if let letter = Unicode.Scalar(letter) { UTF8.encode(letter) { key.append($0) } }
                        cursor.advance(toAtLeast: key)
                        continue walk
                    }
                }
                rows.push(scalar)
                position += length
                ends.append(position)
                let everyLonger = rows.editsOfEveryLongerToken(isPrefix: isPrefix)
                if rows.minimum > maxEdits || everyLonger.map({ $0 <= maxEdits }) == true {
                    let start = cursor.token
                    cursor.skip(sharing: position)
                    if let everyLonger, everyLonger <= maxEdits { add(start..<cursor.token, edits: everyLonger) }
                    continue walk
                }
            }
            let edits = rows.editsOfToken(isPrefix: isPrefix)
            if edits <= maxEdits { add(cursor.token..<cursor.token + 1, edits: edits) }
            cursor.advance()
        }
        return matches
    }
}

extension FuzzyWord {
    /// Copies `bytes` over `path` past the prefix they share, and returns its length.
    fileprivate static func copy(_ bytes: [UInt8], over path: inout [UInt8]) -> Int {
        var shared = 0
        while shared < bytes.count && shared < path.count && bytes[shared] == path[shared] { shared += 1 }
        path.removeSubrange(shared...)
        path.append(contentsOf: bytes[shared...])
        return shared
    }
}

/// Tokens a query word matches: a range of token numbers, and the edits it takes.
struct TokenMatch: Equatable {
    let tokens: Range<Int>
    let edits: Int
}

/// The rows of the edit-distance table of a word against a token read one scalar at a time, so
/// that tokens which share a prefix share its rows. Row *d* holds, for each *j*, the edits
/// between the token's first *d* scalars and the word's first *j*.
struct EditRows {
    private let word: [UInt32]
    /// `word.count + 1`: the cells of a row.
    private let width: Int
    /// The path's length: rows 0 through `depth` are the table's.
    private var depth = 0
    /// The rows, each `width` cells, one after the other; the storage past row `depth` is
    /// spare (rows are written over, not appended, so moving along the sorted tokens costs no
    /// allocation: `truncate` only lowers `depth`).
    private var cells: [Int]
    /// The token's scalars read so far: the first `depth`.
    private var path: [UInt32]
    /// Per depth up to `depth`, the fewest edits between the whole word and a prefix of the
    /// path up to it.
    private var bestPrefixEdits: [Int]
    /// Per depth up to `depth`, the fewest cells of its row (`minimum`).
    private var rowMinimums: [Int]

    /// The table of `word` against the empty token, with room for the rows of `depth` scalars
    /// (more grow it).
    init(word: [UInt32], depth: Int = 16) {
        self.word = word
        width = word.count + 1
        cells = Array(0...word.count) + [Int](repeating: 0, count: depth * (word.count + 1))
        path = [UInt32](repeating: 0, count: depth)
        bestPrefixEdits = [word.count] + [Int](repeating: 0, count: depth)
        rowMinimums = [Int](repeating: 0, count: depth + 1)
    }

    /// Drops the rows past the path's first `depth` scalars.
    mutating func truncate(toDepth depth: Int) {
        self.depth = Swift.min(self.depth, depth)
    }

    /// Adds the row of the token's next scalar.
    mutating func push(_ scalar: UInt32) {
        if depth == path.count { grow() }
        depth += 1
        path[depth - 1] = scalar
        let row = depth * width
        let above = row - width
        let previous = depth > 1 ? path[depth - 2] : 0
        cells[row] = depth
        var rowMinimum = depth
        for j in 1..<width {
            let letter = word[j - 1]
            var cell = Swift.min(
                cells[above + j] + 1, cells[row + j - 1] + 1, cells[above + j - 1] + (letter == scalar ? 0 : 1))
            if depth > 1, j > 1, letter == previous, word[j - 2] == scalar {
                cell = Swift.min(cell, cells[above - width + j - 2] + 1)
            }
            cells[row + j] = cell
            rowMinimum = Swift.min(rowMinimum, cell)
        }
        rowMinimums[depth] = rowMinimum
        bestPrefixEdits[depth] = Swift.min(bestPrefixEdits[depth - 1], cells[row + width - 1])
    }

    /// Doubles the room for rows.
    private mutating func grow() {
        let more = Swift.max(path.count, 8)
        cells += [Int](repeating: 0, count: more * width)
        path += [UInt32](repeating: 0, count: more)
        bestPrefixEdits += [Int](repeating: 0, count: more)
        rowMinimums += [Int](repeating: 0, count: more)
    }

    /// The fewest cells of the last row: no token that starts with the path is nearer the word.
    var minimum: Int { rowMinimums[depth] }

    /// The least scalar from `least` on after which some cell of the next row is at most
    /// `maxEdits`, when every cell of this one is at least `maxEdits`; nil when none is. A cell
    /// keeps its value only along a diagonal, from a cell of `maxEdits` whose word letter is the
    /// next scalar, or by swapping the word's letter back with the path's last.
    func letterKeepingWithin(_ maxEdits: Int, atLeast least: UInt32) -> UInt32? {
        let row = depth * width
        var best: UInt32?
        func consider(_ letter: UInt32) {
            if letter >= least && best.map({ letter < $0 }) ?? true { best = letter }
        }
        for j in 1..<width where cells[row + j - 1] <= maxEdits { consider(word[j - 1]) }
        if depth > 0 {
            let last = path[depth - 1]
            for j in stride(from: 2, to: width, by: 1)
            where word[j - 1] == last && cells[row - width + j - 2] + 1 <= maxEdits {
                consider(word[j - 2])
            }
        }
        return best
    }

    /// The edits between the word and the path read as a whole token: with `isPrefix`, the
    /// fewest between it and a prefix of the path; 0 once the path starts with the word.
    func editsOfToken(isPrefix: Bool) -> Int {
        let best = bestPrefixEdits[depth]
        return isPrefix || best == 0 ? best : cells[depth * width + width - 1]
    }

    /// The edits of every token that starts with the path, when it is the same for all of them:
    /// when a prefix of the path already matches the word (as a prefix, or with no edit) and no
    /// longer token can come nearer.
    func editsOfEveryLongerToken(isPrefix: Bool) -> Int? {
        let best = bestPrefixEdits[depth]
        return (isPrefix || best == 0) && minimum >= best ? best : nil
    }
}

/// Decoding UTF-8 one scalar at a time, without trusting the bytes: a byte that does not start
/// a well-formed scalar (a stray continuation byte, a lead byte no scalar has, a sequence cut
/// short, an overlong form, a surrogate or a value past U+10FFFF) stands for itself, as a value
/// above every scalar. So a decoded scalar's bytes are its one encoding, and a jump to a larger
/// scalar at the same place is a jump forward in byte order (`FuzzyWord.tokenMatches`).
enum UTF8Scalar {
    /// The scalar at `position` of `bytes` and its length in bytes.
    static func decode(_ bytes: [UInt8], at position: Int) -> (value: UInt32, length: Int) {
        let lead = bytes[position]
        guard lead >= 0x80 else { return (UInt32(lead), 1) }
        let invalid = (value: 0x11_0000 + UInt32(lead), length: 1)
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        let continuation = position + 1..<position + length
        guard length > 1, continuation.upperBound <= bytes.count,
            bytes[continuation].allSatisfy({ $0 & 0xC0 == 0x80 })
        else { return invalid }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for byte in bytes[continuation] { value = value << 6 | UInt32(byte & 0x3F) }
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x1_0000
        guard value >= least, value <= 0x10_FFFF, !(0xD800...0xDFFF).contains(value) else { return invalid }
        return (value, length)
    }
}
