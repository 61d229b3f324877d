/// The edits between a word of at most 64 scalars and a token, worked out a column of the
/// edit-distance table at a time in a few operations on 64-bit words (Myers 1999, in Hyyrö's
/// form with swaps of neighbours, 2003), with no allocation: what `FuzzyWord.edits(toScalars:)`
/// asks of each token of each candidate's names. Bit *i* of a column stands for the word's
/// first *i* + 1 scalars; the table is the one `EditRows` fills row by row (optimal string
/// alignment), its cells told apart only by their differences down a column.
struct BitParallelEdits {
    /// The word's distinct scalars, beside `masks`.
    private let letters: [UInt32]
    /// For each of `letters`, the positions in the word that hold it, as bits.
    private let masks: [UInt64]
    /// The word's length in scalars.
    private let length: Int

    /// The edits of `word`; nil for an empty word or one of more than 64 scalars.
    init?(word: [UInt32]) {
        guard (1...64).contains(word.count) else { return nil }
        var letters: [UInt32] = []
        var masks: [UInt64] = []
        for (position, scalar) in word.enumerated() {
            if let known = letters.firstIndex(of: scalar) {
                masks[known] |= 1 << UInt64(position)
            } else {
                letters.append(scalar)
                masks.append(1 << UInt64(position))
            }
        }
        self.letters = letters
        self.masks = masks
        length = word.count
    }

    /// The positions in the word that hold `scalar`, as bits.
    @inline(__always)
    private func mask(of scalar: UInt32) -> UInt64 {
        for index in letters.indices where letters[index] == scalar { return masks[index] }
        return 0
    }

    /// The edits between the whole word and `token`, and the fewest between the whole word and
    /// a prefix of `token` (the empty one among them).
    func edits(to token: [UInt32]) -> (whole: Int, bestPrefix: Int) {
        let top: UInt64 = 1 << UInt64(length - 1)
        let all: UInt64 = length == 64 ? .max : top << 1 &- 1
        // Where a cell is one more (`up`) or one less (`down`) than the one above it.
        var up = all
        var down: UInt64 = 0
        var diagonalZeros: UInt64 = 0
        var previousMask: UInt64 = 0
        var score = length
        var best = length
        for scalar in token {
            let mask = mask(of: scalar)
            let swapped = ((~diagonalZeros & mask) << 1) & previousMask
            diagonalZeros = ((((mask & up) &+ up) ^ up) | mask | down | swapped) & all
            var right = down | ~(diagonalZeros | up) & all
            var left = up & diagonalZeros
            if right & top != 0 {
                score += 1
            } else if left & top != 0 {
                score -= 1
            }
            // The first row (the empty word) grows by one each scalar.
            right = (right << 1 | 1) & all
            left = (left << 1) & all
            up = left | ~(diagonalZeros | right) & all
            down = right & diagonalZeros
            previousMask = mask
            best = min(best, score)
        }
        return (score, best)
    }
}
