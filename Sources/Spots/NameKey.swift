import Foundation

/// The form of a place name that two spellings of one name share, for deduplication and search:
/// Unicode compatibility-normalized (NFKC: full-width and half-width forms folded), lowercased,
/// diacritics removed from Latin letters ("Café" and "CAFE" agree), whitespace and punctuation
/// dropped ("Café  Central", "CAFE-CENTRAL" and "Ｃａｆｅ Ｃｅｎｔｒａｌ" agree).
///
/// Marks on other scripts are kept, because there they make different letters: Japanese kana
/// voicing (ハ, バ, パ) and Cyrillic й and и are not folded together.
public enum NameKey {
    /// The normalized key of `name`; empty when the name has no letters, digits or symbols.
    public static func normalize(_ name: String) -> String {
        let decomposed = name.precomposedStringWithCompatibilityMapping.lowercased().decomposedStringWithCanonicalMapping
        var kept = String.UnicodeScalarView()
        var previousIsLatin = false
        for scalar in decomposed.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                if !previousIsLatin { kept.append(scalar) }
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
                .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation:
                previousIsLatin = false
            default:
                kept.append(scalar)
                previousIsLatin = isLatin(scalar)
            }
        }
        return String(kept).precomposedStringWithCanonicalMapping
    }

    /// Latin letters: Basic Latin, Latin-1 Supplement, Latin Extended-A/B and Additional.
    private static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: true
        default: false
        }
    }
}
