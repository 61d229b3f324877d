import Foundation

/// The values an OSM attribute lists, as mappers write lists: separated by `;` (the wiki's
/// way) or `,`, and within one an `&` or "and" list ("Pizza & Kebab": pizza and kebab). What
/// a value word is matched against (`cuisine=pizza` by "italian,pizza" and by "Pizza & Kebab").
public enum ValueList {
    /// Each `;`- or `,`-separated item of `value`, trimmed and lowercased, and after an item
    /// that is an `&` or "and" list, its members: "Pizza & Kebab;Burger" gives "pizza & kebab",
    /// "pizza", "kebab", "burger". Empty items are left out.
    public static func items(of value: String) -> [String] {
        var items: [String] = []
        for item in value.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let folded = trimmed(item.lowercased())
            guard !folded.isEmpty else { continue }
            items.append(folded)
            let members = folded.split(whereSeparator: { $0.unicodeScalars.allSatisfy(AndWords.ampersands.contains) })
                .flatMap { $0.components(separatedBy: " and ") }.map(trimmed).filter { !$0.isEmpty }
            if members.count > 1 { items += members }
        }
        return items
    }

    private static func trimmed(_ text: some StringProtocol) -> String {
        text.trimmingCharacters(in: .whitespaces)
    }
}
