/// The abbreviations street names are written with, as equals of their words: a street word is
/// searchable by each word of its group ("Ave" by "avenue", "Boulevard" by "bd") and, for the
/// compound endings of German and Dutch, "Hauptstr." by "Hauptstraße" and "Hauptstraat".
///
/// Only the equals a query could not reach by prefix are added: "street" needs no "st", since
/// "st" starts it. Every word here is folded (`SearchText`): lower case, no diacritics, ß as ss.
///
/// Single letters for directions ("E" for east) are left out: folded, "Mary's" has a word "s".
/// The English street suffixes are those of USPS Publication 28, Appendix C
/// (a work of the United States government, in the public domain); the others are the common
/// abbreviations of each language's postal and street-sign usage, written down here.
public enum StreetWords {
    /// Groups of words that mean the same in a street name, the full word first.
    static let groups: [[String]] = [
        // English
        ["avenue", "ave", "av"], ["boulevard", "blvd", "bd", "bvd", "boul"], ["street", "st"],
        ["road", "rd"], ["drive", "dr"], ["lane", "ln"], ["court", "ct"], ["place", "pl"], ["square", "sq"],
        ["terrace", "ter", "terr"], ["highway", "hwy"], ["parkway", "pkwy"], ["crescent", "cres"],
        ["circle", "cir"], ["close", "cl"], ["mount", "mt"], ["mountain", "mtn"], ["fort", "ft"],
        ["point", "pt"], ["heights", "hts"], ["expressway", "expy"], ["freeway", "fwy"],
        ["saint", "st"], ["sainte", "ste"],
        // French
        ["chemin", "ch", "chem"], ["route", "rte"], ["impasse", "imp"], ["faubourg", "fbg"],
        ["residence", "res"],
        // German and Dutch
        ["strasse", "str"], ["sankt", "st"], ["doktor", "dr"], ["professor", "prof"], ["straat", "str"],
        ["laan", "ln"], ["sint", "st"],
        // Spanish, Catalan, Portuguese, Italian
        ["avenida", "av", "avda"], ["calle", "c", "cl"], ["carrer", "c"], ["carretera", "ctra", "crta"],
        ["plaza", "pl", "pza", "plza"], ["placa", "pl", "pca"], ["paseo", "po", "pso"], ["passeig", "pg"],
        ["rua", "r"], ["praca", "pca", "pc"], ["largo", "lgo"], ["santa", "sta"], ["santo", "sto"],
        ["doctor", "dr"],
        // Polish, Turkish
        ["ulica", "ul"], ["aleja", "al"], ["plac", "pl"], ["osiedle", "os"], ["cadde", "cad", "cd"],
        ["caddesi", "cad", "cd"], ["sokak", "sk", "sok"], ["sokagi", "sk", "sok"], ["bulvar", "blv", "bulv"],
        // Russian, Ukrainian, Bulgarian
        ["улица", "ул"], ["проспект", "пр", "просп"], ["переулок", "пер"], ["площадь", "пл"],
        ["бульвар", "бул"], ["шоссе", "ш"], ["набережная", "наб"], ["вулиця", "вул"], ["булевард", "бул"],
    ]

    /// Compound endings written short, with their full forms: "hauptstr" is "hauptstrasse"
    /// (German) and "hauptstraat" (Dutch).
    static let endings: [(short: String, full: [String])] = [("str", ["strasse", "straat"])]

    /// Each word's equals, from `groups`.
    private static let equals: [String: [String]] = {
        var equals: [String: [String]] = [:]
        for group in groups {
            for word in group { equals[word, default: []] += group.filter { $0 != word } }
        }
        return equals
    }()

    /// The words under which a folded street word is also found: its group's other words and,
    /// for a compound written with a short ending, the word with each full one; never one that
    /// the word starts with, which a query reaches by prefix.
    public static func equals(of word: String) -> [String] {
        var found = equals[word] ?? []
        for ending in endings where word.count > ending.short.count && word.hasSuffix(ending.short) {
            found += ending.full.map { word.dropLast(ending.short.count) + $0 }
        }
        var seen: Set<String> = [word]
        return found.filter { !word.hasPrefix($0) && seen.insert($0).inserted }
    }
}
