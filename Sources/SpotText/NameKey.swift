/// The form of a place name that two spellings of one name share, for deduplication: the
/// name's folded words (`SearchText`) run together, so that "Café  Central", "CAFE-CENTRAL" and
/// "Ｃａｆｅ Ｃｅｎｔｒａｌ" agree.
public enum NameKey {
    /// The normalized key of `name`; empty when the name has no letters, digits or symbols.
    public static func normalize(_ name: String) -> String {
        SearchText.words(name).joined()
    }
}
