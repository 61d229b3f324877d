import Testing

@testable import SpotIndex
@testable import SpotIndexWriting

@Suite("Byte-pair code training")
struct BytePairCodeTests {
    /// The codes training gives when it counts every pair of the coded sample again each round,
    /// as Gage's description does: what the in-place training must equal.
    static func recountingTraining(_ texts: [[UInt8]]) -> [BytePairCode.Pair] {
        var used = [Bool](repeating: false, count: 256)
        for text in texts { for byte in text { used[Int(byte)] = true } }
        var freeCodes = (0...255).filter { !used[$0] }.map(UInt8.init)
        var expansionLength = [Int](repeating: 1, count: 256)
        let step = max(1, texts.reduce(0) { $0 + $1.count } / BytePairCode.sampleBytes)
        var sample = stride(from: 0, to: texts.count, by: step).map { texts[$0] }.filter { $0.count >= 2 }
        var pairs: [BytePairCode.Pair] = []
        while let code = freeCodes.first {
            var counts = [Int32](repeating: 0, count: 1 << 16)
            for text in sample { for i in 1..<text.count { counts[Int(text[i - 1]) << 8 | Int(text[i])] += 1 } }
            let usable = counts.indices.filter {
                counts[$0] >= BytePairCode.minimumUses
                    && expansionLength[$0 >> 8] + expansionLength[$0 & 0xFF] <= BytePairCode.maxExpansion
            }
            guard let best = usable.max(by: { (counts[$0], -$0) < (counts[$1], -$1) }) else { break }
            let (left, right) = (UInt8(best >> 8), UInt8(best & 0xFF))
            freeCodes.removeFirst()
            pairs.append((code, left, right))
            expansionLength[Int(code)] = expansionLength[Int(left)] + expansionLength[Int(right)]
            sample = sample.map { text in
                var coded: [UInt8] = []
                var i = 0
                while i < text.count {
                    let isPair = i + 1 < text.count && text[i] == left && text[i + 1] == right
                    coded.append(isPair ? code : text[i])
                    i += isPair ? 2 : 1
                }
                return coded
            }
        }
        return pairs
    }

    /// Texts from a small alphabet, so that pairs repeat, overlap ("aaaa") and code into each
    /// other until the expansion limit.
    static func texts(count: Int, alphabet: [UInt8], seed: UInt64) -> [[UInt8]] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        return (0..<count).map { _ in (0..<next(40)).map { _ in alphabet[next(alphabet.count)] } }
    }

    /// Named samples: arguments by name, so that a failure prints a name rather than the texts.
    static let samples: [String: [[UInt8]]] = [
        "runs of one byte": [[UInt8]](repeating: Array(repeating: 97, count: 200), count: 30),
        "two letters": texts(count: 3000, alphabet: [97, 98], seed: 1),
        "words": texts(count: 20000, alphabet: Array("aeinorst ".utf8), seed: 2),
        // Over `sampleBytes`, so that training takes every few texts; few free codes keep it short.
        "many texts, sampled": texts(count: 60000, alphabet: (0..<220).map(UInt8.init), seed: 3),
    ]

    @Test(arguments: samples.keys.sorted())
    func trainsAsRecountingEachRound(_ name: String) throws {
        let texts = try #require(Self.samples[name])
        let trained = BytePairCode(training: texts).pairs
        #expect(!trained.isEmpty)
        #expect(
            trained.map { [$0.code, $0.left, $0.right] }
                == Self.recountingTraining(texts).map { [$0.code, $0.left, $0.right] })
    }
}
