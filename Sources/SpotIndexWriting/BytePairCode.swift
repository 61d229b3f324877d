import SpotIndex

/// Byte-pair coding of a string table's text (FORMAT.md, "String tables"), as in Gage's byte
/// pair encoding: byte values that never occur in the text stand for a pair of bytes or of
/// other codes. Decoding needs only the small pair table, so a reader needs no compression
/// library, and every string still decodes on its own.
///
/// Training counts adjacent pairs in a sample of the text and gives the most frequent pair the
/// next free byte value, until no pair is worth a code. Encoding is a greedy longest match over
/// the codes' expansions, one pass over the text whatever the number of codes.
struct BytePairCode {
    /// A code and the two symbols (bytes or earlier codes) it stands for.
    typealias Pair = (code: UInt8, left: UInt8, right: UInt8)

    /// The longest text one code may stand for; a reader refuses longer ones.
    static let maxExpansion = IndexLayout.maxCodeExpansion
    /// A pair must occur this often in the sample to get a code (a code costs 3 bytes).
    static let minimumUses: Int32 = 4
    /// About how many bytes of text training looks at: enough to find the frequent pairs,
    /// few enough that training costs the same for a city and a continent.
    static let sampleBytes = 1 << 19

    /// The codes in the order they were made; a pair names only bytes and earlier codes.
    private(set) var pairs: [Pair] = []
    /// What each byte value stands for: itself, or a code's expansion.
    private var expansions: [[UInt8]] = (0...255).map { [UInt8($0)] }
    /// Trie of the codes' expansions for encoding: `children[node * 256 + byte]` is a node, 0 none.
    private var children = [Int32](repeating: 0, count: 256)
    /// The code that ends at each trie node, or -1.
    private var codeAtNode: [Int16] = [-1]

    /// Codes for `texts`, using only byte values that occur in none of them.
    init(training texts: [[UInt8]]) {
        var used = [Bool](repeating: false, count: 256)
        for text in texts { for byte in text { used[Int(byte)] = true } }
        var freeCodes = (0...255).filter { !used[$0] }.map(UInt8.init)
        let total = texts.reduce(0) { $0 + $1.count }
        let step = max(1, total / Self.sampleBytes)
        var sample = TrainingSample(
            stride(from: 0, to: texts.count, by: step).map { texts[$0] }, frequent: Self.minimumUses)
        while !freeCodes.isEmpty, let pair = mostFrequentPair(in: sample) {
            let code = freeCodes.removeFirst()
            add((code, UInt8(pair >> 8), UInt8(pair & 0xFF)))
            sample.replace(pair, with: code)
        }
    }

    /// The most frequent adjacent pair (`left << 8 | right`) whose expansion is short enough,
    /// used at least `minimumUses` times; ties go to the smallest pair.
    private func mostFrequentPair(in sample: TrainingSample) -> Int? {
        var best: Int?
        var bestCount = Self.minimumUses - 1
        for pair in sample.frequentPairs {
            let count = sample.counts[pair]
            guard count > bestCount || (count == bestCount && best.map { pair < $0 } == true) else { continue }
            guard expansions[pair >> 8].count + expansions[pair & 0xFF].count <= Self.maxExpansion else { continue }
            best = pair
            bestCount = count
        }
        return best
    }

    private mutating func add(_ pair: Pair) {
        pairs.append(pair)
        expansions[Int(pair.code)] = expansions[Int(pair.left)] + expansions[Int(pair.right)]
        var node = 0
        for byte in expansions[Int(pair.code)] {
            let slot = node * 256 + Int(byte)
            if children[slot] == 0 {
                children[slot] = Int32(codeAtNode.count)
                codeAtNode.append(-1)
                children.append(contentsOf: repeatElement(0, count: 256))
            }
            node = Int(children[slot])
        }
        codeAtNode[node] = Int16(pair.code)
    }

    /// `text` coded: at each position the code with the longest expansion that matches, or the
    /// byte itself.
    func encode(_ text: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var start = 0
        while start < text.count {
            var node = 0
            var position = start
            var symbol = text[start]
            var length = 1
            while position < text.count {
                let child = Int(children[node * 256 + Int(text[position])])
                if child == 0 { break }
                node = child
                position += 1
                if codeAtNode[node] >= 0 {
                    symbol = UInt8(codeAtNode[node])
                    length = position - start
                }
            }
            result.append(symbol)
            start += length
        }
        return result
    }
}

/// Training's sample: its texts in one buffer, each coded in place as codes are made, with the
/// count of every adjacent pair (`left << 8 | right`) and the texts each pair occurs in.
///
/// A round touches only the texts that hold its pair, so training costs about the sample's
/// size once rather than once per code. The counts are always those a count over the coded
/// sample would give: a text's pairs are taken out before it is coded and put back after.
private struct TrainingSample {
    /// The texts, one after another; text `k` starts at `starts[k]` and is `lengths[k]` long,
    /// shorter as it is coded.
    private var symbols: [UInt8] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
    /// How many times each pair occurs in the sample.
    private(set) var counts = [Int32](repeating: 0, count: 1 << 16)
    /// The pairs that have occurred `frequent` times or more, each once, in no order: the only
    /// ones a round need look at (a pair may have fallen below since).
    private(set) var frequentPairs: [Int] = []
    private var isListed = [Bool](repeating: false, count: 1 << 16)
    private let frequent: Int32
    /// The texts where each pair occurs, or once occurred (a pair can be coded away by another).
    private var textsWithPair = [[Int32]](repeating: [], count: 1 << 16)

    /// The sample of `texts`, listing the pairs met `frequent` times.
    init(_ texts: [[UInt8]], frequent: Int32) {
        self.frequent = frequent
        for text in texts where text.count >= 2 {
            starts.append(symbols.count)
            lengths.append(text.count)
            symbols.append(contentsOf: text)
        }
        for text in starts.indices { count(text, by: 1) { _ in true } }
    }

    /// Codes every occurrence of `pair` as `code`, left to right, and updates the counts.
    mutating func replace(_ pair: Int, with code: UInt8) {
        let (left, right) = (UInt8(pair >> 8), UInt8(pair & 0xFF))
        for text in textsWithPair[pair].map(Int.init) where holds(text, left, right) {
            count(text, by: -1) { _ in false }
            let start = starts[text]
            var written = start
            var read = start
            let end = start + lengths[text]
            while read < end {
                if read + 1 < end && symbols[read] == left && symbols[read + 1] == right {
                    symbols[written] = code
                    read += 2
                } else {
                    symbols[written] = symbols[read]
                    read += 1
                }
                written += 1
            }
            lengths[text] = written - start
            // Pairs without the code were in the text before, which is listed under them.
            count(text, by: 1) { $0 >> 8 == Int(code) || $0 & 0xFF == Int(code) }
        }
        textsWithPair[pair] = []  // coded away for good: no text can hold it again
    }

    private func holds(_ text: Int, _ left: UInt8, _ right: UInt8) -> Bool {
        let start = starts[text]
        for i in start..<start + lengths[text] - 1 where symbols[i] == left && symbols[i + 1] == right {
            return true
        }
        return false
    }

    /// Adds `change` to the count of each of `text`'s pairs, listing the text under the pairs
    /// `listed` picks.
    private mutating func count(_ text: Int, by change: Int32, listing listed: (Int) -> Bool) {
        let start = starts[text]
        for i in start..<start + lengths[text] - 1 {
            let pair = Int(symbols[i]) << 8 | Int(symbols[i + 1])
            counts[pair] += change
            if counts[pair] >= frequent && !isListed[pair] {
                isListed[pair] = true
                frequentPairs.append(pair)
            }
            if listed(pair) && textsWithPair[pair].last != Int32(text) { textsWithPair[pair].append(Int32(text)) }
        }
    }
}
