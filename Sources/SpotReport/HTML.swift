/// Small helpers for writing HTML (and inline SVG) as text, well-formed as XML too: every
/// element closed, every attribute quoted, and all text from the data escaped.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, safe in content and in quoted attributes.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `<name attributes>content</name>`, with the attribute values escaped; `content` is HTML
    /// already (escape text with `escape` or use `text`).
    static func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], _ content: String = "")
        -> String
    {
        "<\(name)\(attributeText(attributes))>\(content)</\(name)>"
    }

    /// `<name attributes/>`: an element without content (SVG shapes, `meta`).
    static func empty(_ name: String, _ attributes: KeyValuePairs<String, String>) -> String {
        "<\(name)\(attributeText(attributes))/>"
    }

    /// An element holding `text`, escaped.
    static func text(_ name: String, _ attributes: KeyValuePairs<String, String>, _ text: String) -> String {
        element(name, attributes, escape(text))
    }

    /// An element without attributes holding `text`, escaped.
    static func text(_ name: String, _ text: String) -> String {
        element(name, [:], escape(text))
    }

    /// A table row of `cells` (already HTML: `td` or `th` elements).
    static func row(_ attributes: KeyValuePairs<String, String> = [:], _ cells: [String]) -> String {
        element("tr", attributes, cells.joined())
    }

    /// A table in a horizontally scrolling box, so that wide tables fit a phone: a header row of
    /// `headings` (the first left-aligned, as its column), then `rows`.
    static func table(id: String, headings: [String], rows: [String], footer: [String] = []) -> String {
        let head = headings.isEmpty ? "" : element("thead", [:], row([:], headings.map { text("th", [:], $0) }))
        let foot = footer.isEmpty ? "" : element("tfoot", [:], footer.joined())
        return element(
            "div", ["class": "scroll"], element("table", ["id": id], head + element("tbody", [:], rows.joined()) + foot)
        )
    }

    private static func attributeText(_ attributes: KeyValuePairs<String, String>) -> String {
        attributes.map { " \($0.key)=\"\(escape($0.value))\"" }.joined()
    }
}
