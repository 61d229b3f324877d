/// The word for "and", which names also write as "&": deduplication takes "Fish & Chips",
/// "Fish and Chips" and "Fish und Chips" for one name.
public enum AndWords {
    /// "and" in the languages of the search words (Pipelines/value-words.json), folded: en and,
    /// de und, fr et, es y/e, it e/ed, pt e, nl en, pl i/oraz, cs a/i, sv och, nb/da og, fi ja,
    /// ru и, uk і/й/та, tr ve, ar و, zh 和/与, ja と, ko 및/와/과; and of the languages added
    /// since (most share one of those): br hag, cy ac, el και, eo kaj, eu eta, kk және, lt ir,
    /// th และ. Not those that fold into words of names in other languages: hu és ("es"), ro și
    /// ("si"), vi và ("va"), id dan, lv un, sl in, br ha.
    public static let words: Set<String> = [
        "and", "und", "et", "y", "e", "ed", "en", "i", "oraz", "a", "och", "og", "ja", "и", "і", "й", "та", "ve",
        "و", "和", "与", "と", "및", "와", "과",
        "hag", "ac", "και", "kaj", "eta", "және", "ir", "และ",
    ]
    /// "&" and its full-width and small forms, which NFKC folds to it. Folding splits words at
    /// it, so it is looked for in a name as written.
    public static let ampersands: Set<Unicode.Scalar> = ["&", "\u{FF06}", "\u{FE60}"]
}
