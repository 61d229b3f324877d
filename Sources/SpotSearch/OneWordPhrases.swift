/// The category phrases of one word (`QueryParser`), kept so that the phrases a misspelt term
/// may mean are found without working out the edits of each (which cost more than the rest of
/// a typo search): within its edits a phrase's length differs from the word's by at most the
/// edits, so only the phrases of those lengths are read, each length's walked as a trie (as
/// `FuzzyWord.tokenMatches` walks the index's tokens: phrases that share a prefix share its
/// rows of the edit-distance table, `EditRows`, and once a prefix is out of reach every phrase
/// that starts with it is passed over); the longer phrases the word starts are one range of
/// the phrases sorted.
struct OneWordPhrases {
    /// A phrase of one word: its folded word's scalars and what it names.
    struct Phrase {
        let scalars: [UInt32]
        let targets: PhraseTargets
    }

    /// The phrases, sorted by their scalars.
    let sorted: [Phrase]
    /// The phrases of each length (in scalars, the array's index), sorted by their scalars.
    private let byLength: [[Phrase]]

    /// The phrases `phrases`, in any order.
    init(_ phrases: [Phrase]) {
        sorted = phrases.sorted { $0.scalars.lexicographicallyPrecedes($1.scalars) }
        var byLength: [[Phrase]] = []
        for phrase in sorted {
            while byLength.count <= phrase.scalars.count { byLength.append([]) }
            byLength[phrase.scalars.count].append(phrase)
        }
        self.byLength = byLength
    }

    /// The phrases that `word`, read as a whole word, is within its edits of or starts (then
    /// with 0 edits), with the edits: `word.edits(toScalars:)` of each phrase, for the phrases
    /// where it is not nil.
    func matches(of word: FuzzyWord) -> [(phrase: Phrase, edits: Int)] {
        let length = word.scalars.count
        var found: [(phrase: Phrase, edits: Int)] = []
        for near in max(1, length - word.maxEdits)...(length + word.maxEdits) {
            found += Self.matches(of: word, among: near < byLength.count ? byLength[near] : [])
        }
        let start = Self.firstPhrase(of: sorted, notBefore: word.scalars, from: 0)
        let end = Self.firstPhrase(of: sorted, notBefore: word.scalars + [.max], from: start)
        found += sorted[start..<end].filter { $0.scalars.count > length + word.maxEdits }.map { ($0, 0) }
        return found
    }

    /// The matches of `word` among `phrases` (sorted by their scalars), walked as a trie.
    private static func matches(of word: FuzzyWord, among phrases: [Phrase]) -> [(phrase: Phrase, edits: Int)] {
        var found: [(phrase: Phrase, edits: Int)] = []
        var rows = EditRows(word: word.scalars)
        var path: [UInt32] = []
        var next = 0
        walk: while next < phrases.count {
            let scalars = phrases[next].scalars
            var depth = 0
            while depth < path.count && depth < scalars.count && path[depth] == scalars[depth] { depth += 1 }
            rows.truncate(toDepth: depth)
            path.removeSubrange(depth...)
            while depth < scalars.count {
                if rows.minimum == word.maxEdits {
                    // The prefix has spent every edit: only some letters of the word keep it in
                    // reach. Jump to the next, past the phrases that go on otherwise.
                    let letter = rows.letterKeepingWithin(word.maxEdits, atLeast: scalars[depth])
                    if letter != scalars[depth] {
                        next = firstPhrase(of: phrases, notBefore: path + [letter ?? .max], from: next)
                        continue walk
                    }
                }
                rows.push(scalars[depth])
                path.append(scalars[depth])
                depth += 1
                let everyLonger = rows.editsOfEveryLongerToken(isPrefix: word.isPrefix)
                if rows.minimum > word.maxEdits || everyLonger.map({ $0 <= word.maxEdits }) == true {
                    // Every phrase that starts with the path matches alike, or none does.
                    let end = firstPhrase(of: phrases, notBefore: path + [.max], from: next)
                    if let everyLonger, everyLonger <= word.maxEdits {
                        found += phrases[next..<end].map { ($0, everyLonger) }
                    }
                    next = end
                    continue walk
                }
            }
            let edits = rows.editsOfToken(isPrefix: word.isPrefix)
            if edits <= word.maxEdits { found.append((phrases[next], edits)) }
            next += 1
        }
        return found
    }

    /// The first of `phrases` (sorted by their scalars) from `start` on whose scalars do not
    /// sort before `key`: a binary search.
    private static func firstPhrase(of phrases: [Phrase], notBefore key: [UInt32], from start: Int) -> Int {
        var (low, high) = (start, phrases.count)
        while low < high {
            let middle = (low + high) / 2
            if phrases[middle].scalars.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
