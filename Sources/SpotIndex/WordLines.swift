import Foundation
import SpotWords
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
        targets = words.phrasesByTarget.map(\.target)
        self.words = words
    }

    /// WORD: the words as lines.
    func encoded() -> [UInt8] { Array(words.lines.utf8) }

    /// WLST's lists: for each target, the reference ranks of the spots of `ordered` (ranked by
    /// `rankOfSpot`) that meet it otherwise than by their kind (its category or selecting tag),
    /// the targets that no spot meets so left out:
    /// - a value line `key=value` is met by an attribute `key` that lists the value (one of its
    ///   `;`-separated values, trimmed, case folded) or a value of which it is a `_`-separated
    ///   part: `cuisine=pizza` by "italian;Pizza" and by "italian_pizza";
    /// - any line is met by a name whose folded word ends with, and is longer than, one of the
    ///   target's compound words: "taidemuseo" ends with "museo".
    func spotLists(_ ordered: [Spot], rankOfSpot: [Int]) -> [(name: String, ranks: [Int])] {
        let lineOf = Dictionary(uniqueKeysWithValues: targets.enumerated().map { ($1, $0) })
        let compoundLines = words.compounds.mapValues { $0.compactMap { lineOf[$0] } }
        let compoundLengths = Set(words.compounds.keys.map(\.unicodeScalars.count))
        var lists = [[Int]](repeating: [], count: targets.count)
        for (position, spot) in ordered.enumerated() {
            var met = Set<Int>()
            for (key, value) in spot.attributeTags {
                for item in value.split(separator: ";") {
                    let folded = item.trimmingCharacters(in: .whitespaces).lowercased()
                    for part in [Substring(folded)] + folded.split(separator: "_") {
                        if let line = lineOf[key + "=" + part] { met.insert(line) }
                    }
                }
            }
            if !compoundLines.isEmpty {
                for (_, name) in spot.namesByKey {
                    for word in SearchText.words(name) {
                        let scalars = Array(word.unicodeScalars)
                        for length in compoundLengths where length < scalars.count {
                            let ending = String(String.UnicodeScalarView(scalars[(scalars.count - length)...]))
                            met.formUnion(compoundLines[ending] ?? [])
                        }
                    }
                }
            }
            let byKind = [spot.category?.rawValue, spot.tag].compactMap { $0.flatMap { lineOf[$0] } }
            for line in met.subtracting(byKind) { lists[line].append(rankOfSpot[position]) }
        }
        return zip(targets, lists).filter { !$1.isEmpty }.map { ($0, $1.sorted()) }
    }
}
