import SpotBuiltInWords
import SpotText
import Spots

/// "Did you mean …?" for a name that is not one of those known: a subcommand, an option, a
/// category. One measure everywhere, leading dashes aside: the fewest edits (a letter added,
/// removed, replaced, or two neighbours swapped) that turn the name into the beginning of a known
/// one, so that an abbreviation (`--out` of `--output`) costs none; a name is suggested when that
/// is at most a third of the given name's letters, rounded down (`zom`, `serch`, `cofee` and
/// `restaurnt` are near, `x` is not), the fewest edits to the whole name and then the order
/// given breaking ties.
public enum Suggestions {
    /// The name of `candidates` nearest `word`, or nil when none is near enough (or `word` is
    /// only dashes).
    public static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
        let letters = Array(undashed(word))
        guard !letters.isEmpty else { return nil }
        let allowed = letters.count / 3
        var best: (name: String, edits: Edits)?
        for candidate in candidates {
            let edits = Edits(letters, Array(undashed(candidate)))
            if edits.toBeginning <= allowed, best.map({ edits < $0.edits }) ?? true { best = (candidate, edits) }
        }
        return best?.name
    }

    /// The categories `name` probably means: those that the category name or built-in search
    /// word (in any language) nearest its folded words names (`coffee`, `カフェ`, `Cafe`, `cofee`:
    /// `cafe`), in name order; none when nothing is near.
    public static func categories(near name: String) -> [Category] {
        let folded = SearchText.words(name).joined(separator: " ")
        guard let nearest = nearest(to: folded, among: categoryWordList) else { return [] }
        return (categoryWords[nearest] ?? []).sorted { $0.rawValue < $1.rawValue }
    }

    /// The categories each folded category name and built-in search word names.
    private static let categoryWords: [String: Set<Category>] = {
        var words = SearchWords.builtIn.categories.mapValues(Set.init)
        for category in Category.allCases {
            words[SearchText.words(category.rawValue).joined(separator: " "), default: []].insert(category)
        }
        return words
    }()

    /// The keys of `categoryWords`, in order, so that a tie goes the same way every time.
    private static let categoryWordList = categoryWords.keys.sorted()

    /// Why `name` is refused as a category, with the categories it probably means: "unknown
    /// category 'coffee'; did you mean cafe?".
    public static func unknownCategory(_ name: String) -> String {
        let meant = categories(near: name).map(\.rawValue)
        let hint = meant.isEmpty ? "" : "; did you mean \(meant.joined(separator: " or "))?"
        return "unknown category '\(name)'\(hint)"
    }

    /// `name` without its leading dashes.
    private static func undashed(_ name: String) -> Substring {
        name.drop { $0 == "-" }
    }

    /// The edits from a given name to a known one, as optimal string alignment counts them
    /// (insertions, deletions, substitutions and swaps of neighbours).
    struct Edits: Comparable {
        /// The fewest that turn the given name into a beginning of the known one.
        let toBeginning: Int
        /// The fewest that turn it into the whole known one.
        let toWhole: Int

        /// The edits from `a` to `b`.
        init(_ a: [Character], _ b: [Character]) {
            // Row i holds the edits from a's first i letters to each beginning of b.
            var before = [Int](repeating: 0, count: b.count + 1)
            var previous = Array(0...b.count)
            var current = [Int](repeating: 0, count: b.count + 1)
            for i in a.indices.map({ $0 + 1 }) {
                current[0] = i
                for j in b.indices.map({ $0 + 1 }) {
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        current[j] = min(current[j], before[j - 2] + 1)
                    }
                }
                (before, previous, current) = (previous, current, before)
            }
            toBeginning = previous.min() ?? 0
            toWhole = previous[b.count]
        }

        static func < (a: Edits, b: Edits) -> Bool {
            (a.toBeginning, a.toWhole) < (b.toBeginning, b.toWhole)
        }
    }
}
