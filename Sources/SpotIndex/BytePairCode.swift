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
    static let maxExpansion = 64
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
        var sample = stride(from: 0, to: texts.count, by: step).map { texts[$0] }.filter { $0.count >= 2 }
        while !freeCodes.isEmpty, let (left, right) = mostFrequentPair(in: sample) {
            let code = freeCodes.removeFirst()
            add((code, left, right))
            sample = sample.map { Self.replace(left, right, with: code, in: $0) }
        }
    }

    /// The most frequent adjacent pair whose expansion is short enough, used at least
    /// `minimumUses` times; ties go to the smallest pair.
    private func mostFrequentPair(in sample: [[UInt8]]) -> (UInt8, UInt8)? {
        var counts = [Int32](repeating: 0, count: 1 << 16)
        for text in sample {
            for i in 1..<text.count { counts[Int(text[i - 1]) << 8 | Int(text[i])] += 1 }
        }
        var best: Int?
        var bestCount = Self.minimumUses - 1
        for pair in counts.indices where counts[pair] > bestCount {
            guard expansions[pair >> 8].count + expansions[pair & 0xFF].count <= Self.maxExpansion else { continue }
            best = pair
            bestCount = counts[pair]
        }
        return best.map { (UInt8($0 >> 8), UInt8($0 & 0xFF)) }
    }

    private static func replace(_ left: UInt8, _ right: UInt8, with code: UInt8, in text: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            if i + 1 < text.count && text[i] == left && text[i + 1] == right {
                result.append(code)
                i += 2
            } else {
                result.append(text[i])
                i += 1
            }
        }
        return result
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
