/// Rows of cells laid out in aligned columns for a terminal: text columns left-aligned,
/// number columns right-aligned, two spaces between columns, each line indented two spaces.
struct TextTable {
    /// How a column is aligned.
    enum Alignment { case left, right }

    /// The column headings; an empty array for a table without them.
    var header: [String] = []
    /// One alignment per column.
    var alignments: [Alignment]
    /// The rows, each with one cell per column.
    var rows: [[String]] = []

    /// The table's lines, without trailing spaces.
    var lines: [String] {
        let all = (header.isEmpty ? [] : [header]) + rows
        let widths = alignments.indices.map { column in all.map { Self.width($0[column]) }.max() ?? 0 }
        return all.map { cells in
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - Self.width(cell))
                return alignments[column] == .left ? cell + padding : padding + cell
            }
            let line = "  " + padded.joined(separator: "  ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The columns `text` takes on a terminal: two for each wide (East Asian) character.
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            if scalar.properties.generalCategory == .nonspacingMark { return sum }
            return sum + (isWide(scalar.value) ? 2 : 1)
        }
    }

    /// Whether a scalar is East Asian wide or full width (the main blocks of Unicode's
    /// EastAsianWidth W and F classes: Hangul Jamo, CJK, kana, Hangul syllables, full-width forms,
    /// the supplementary ideographs).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
