import Foundation
import SpotText
import Spots

/// The search words as the writer lays them out (WORD and WLST; FORMAT.md): one line per
/// category or OSM value (its target), sorted by its name, with the folded phrases that name it
/// (`SearchWords.lines`), and for each target the spots that meet it otherwise than by their
/// kind.
struct WordLines {
    /// Each line's name, sorted: a category, or a value as `key=value`.
    let targets: [String]
    /// The words.
    private let words: SearchWords

    /// The lines of `words`.
    init(_ words: SearchWords) {
        // The targets of `words.phrasesByTarget`, without sorting every phrase of each.
        let categories = Set(words.categories.values.joined().map(\.rawValue))
        targets = categories.union(words.values.values.joined()).sorted()
        self.words = words
    }

    /// WORD: the words as lines.
    func encoded() -> [UInt8] { Array(words.lines.utf8) }

    /// WLST's lists: for each target, the reference ranks of the spots of `ordered` (ranked by
    /// `rankOfSpot`, their attributes flattened in `attributeTags`) that meet it otherwise than
    /// by their kind (its category or selecting tag), the targets that no spot meets so left out:
    /// - a value line `key=value` is met by an attribute `key` that lists the value (one of its
    ///   items, `ValueList`: `;`- or `,`-separated, or members of an `&` or "and" list, trimmed,
    ///   case folded) or a value of which it is a `_`-separated part: `cuisine=pizza` by
    ///   "italian;Pizza", "italian,pizza", "Pizza & Kebab" and "italian_pizza";
    /// - any line is met by a name (not an address) that has a word (a token of `text`) that
    ///   names it by a compound ending (`CompoundEndings`): "taidemuseo" ends with "museo". Each
    ///   distinct token is looked at once, not each name, and its spots only when it names one.
    func spotLists(
        _ ordered: [Spot], attributeTags: [[(key: String, value: String)]], rankOfSpot: [Int], text: TextIndexBuilder
    ) -> [(name: String, ranks: [Int])] {
        let lineOf = Dictionary(uniqueKeysWithValues: targets.enumerated().map { ($1, $0) })
        var met = [Set<Int>](repeating: [], count: targets.count)
        let valueKeys = Set(targets.compactMap { target in target.firstIndex(of: "=").map { String(target[..<$0]) } })
        for spot in ordered.indices {
            for (key, value) in attributeTags[spot] where valueKeys.contains(key) {
                for item in ValueList.items(of: value) {
                    for part in [Substring(item)] + item.split(separator: "_") {
                        if let line = lineOf[key + "=" + part] { met[line].insert(rankOfSpot[spot]) }
                    }
                }
            }
        }
        let endings = CompoundEndings(words)
        if !endings.isEmpty {
            for (number, token) in text.tokensByNumber.enumerated() {
                let lines = endings.targets(ofNameWord: token).compactMap { lineOf[$0] }
                guard !lines.isEmpty else { continue }
                let ranks = text.nameRanks(ofToken: number)
                for line in lines { met[line].formUnion(ranks) }
            }
        }
        var spotOfRank = [Int](repeating: 0, count: rankOfSpot.count)
        for (spot, rank) in rankOfSpot.enumerated() { spotOfRank[rank] = spot }
        return zip(targets, met).compactMap { target, ranks in
            let others = ranks.filter {
                let spot = ordered[spotOfRank[$0]]
                return spot.category?.rawValue != target && spot.tag != target
            }
            return others.isEmpty ? nil : (target, others.sorted())
        }
    }
}
