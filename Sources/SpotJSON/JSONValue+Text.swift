extension JSONValue {
    /// How `text(_:escaping:)` lays a value out. Keys are sorted by their UTF-8 bytes in every
    /// layout (as Foundation's `.sortedKeys` sorts them), so that equal values give equal bytes;
    /// numbers are written by `JSONText.appendNumber`. Each layout is one output's, kept byte
    /// for byte as Foundation's encoder or the report's own writer made it.
    public enum Layout: Sendable {
        /// No white space at all: `{"a":[1,2],"b":"c"}` (index metadata).
        case compact
        /// Foundation's `.prettyPrinted`: one member or item a line, indented by two spaces,
        /// `"key" : value`, an empty array or object as its brackets two lines apart (refresh
        /// status files).
        case pretty
        /// An object or array holding no object or array on one line, `{"a": 1, "b": [2, 3]}`;
        /// others one member or item a line, indented by two spaces (coverage reports).
        case report
    }

    /// The value as JSON text laid out as `layout` says, its strings escaped as `escaping`
    /// says, without a final newline.
    public func text(_ layout: Layout, escaping: JSONText.Escaping = .short) -> String {
        var bytes: [UInt8] = []
        append(to: &bytes, layout: Format(layout: layout, escaping: escaping), indent: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A layout with its escaping, handed down the tree.
    private struct Format {
        let layout: Layout
        let escaping: JSONText.Escaping
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        default: true
        }
    }

    private func append(to bytes: inout [UInt8], layout: Format, indent: Int) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): JSONText.appendNumber(number, to: &bytes)
        case .numberText(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): JSONText.appendString(text, escaping: layout.escaping, to: &bytes)
        case .array(let items):
            Self.appendContainer(
                items.map { (nil, $0) }, brackets: ("[", "]"), to: &bytes, layout: layout, indent: indent)
        case .object(let members):
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            Self.appendContainer(
                sorted.map { ($0.key, $0.value) }, brackets: ("{", "}"), to: &bytes, layout: layout, indent: indent)
        }
    }

    /// Appends an array's items or an object's members (with their keys) between `brackets`.
    private static func appendContainer(
        _ entries: [(key: String?, value: JSONValue)], brackets: (open: Unicode.Scalar, close: Unicode.Scalar),
        to bytes: inout [UInt8], layout: Format, indent: Int
    ) {
        let oneLine =
            layout.layout == .compact || (layout.layout == .report && entries.allSatisfy { $0.value.isScalar })
        let separator = oneLine ? (layout.layout == .compact ? "," : ", ") : ",\n"
        let colon = layout.layout == .compact ? ":" : layout.layout == .pretty ? " : " : ": "
        let inner = oneLine ? indent : indent + 2
        bytes.append(UInt8(ascii: brackets.open))
        if !oneLine { bytes.append(UInt8(ascii: "\n")) }
        for (number, entry) in entries.enumerated() {
            if number > 0 { bytes.append(contentsOf: separator.utf8) }
            if !oneLine { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: inner)) }
            if let key = entry.key {
                JSONText.appendString(key, escaping: layout.escaping, to: &bytes)
                bytes.append(contentsOf: colon.utf8)
            }
            entry.value.append(to: &bytes, layout: layout, indent: inner)
        }
        if !oneLine {
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        }
        bytes.append(UInt8(ascii: brackets.close))
    }
}
