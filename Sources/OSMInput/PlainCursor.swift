/// A position in a piece's bytes, reading the pieces of the plain form (`PlainElement`): literal
/// markup, spaces, attribute names and quoted values, as expat would read them, and counting
/// lines and columns as expat counts them (`TextPosition`).
///
/// Every read either moves on over what it read and reports it, or reports that the bytes
/// there are not of the plain form; a caller that meets that drops the cursor, and expat reads
/// the element instead. Reads go through the piece's checked view (`XMLBytes`) and never look
/// at or past `end`.
struct PlainCursor {
    let bytes: XMLBytes
    /// The first offset the cursor must not read.
    let end: Int
    /// The offset of the next byte to read.
    private(set) var index: Int
    /// Line feeds passed over.
    private(set) var lineFeeds = 0
    /// Where the current line starts: after the last line feed, or where the cursor started.
    private var lineStart: Int
    /// UTF-8 continuation bytes since `lineStart`, which expat does not count as columns.
    private var continuationBytes = 0

    /// A cursor at `start` of `bytes`, reading no further than `end` (nor past the view's end).
    init(_ bytes: XMLBytes, at start: Int, end: Int) {
        self.bytes = bytes
        self.end = min(end, bytes.count)
        index = start
        lineStart = start
    }

    /// Characters from the start of the current line (or from where the cursor started) to the
    /// cursor, as expat counts columns.
    var lineCharacters: Int { index - lineStart - continuationBytes }

    /// Whether `text` is next, moving over it when it is.
    @inline(__always)
    mutating func skip(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= end, bytes.matches(text, at: index) else { return false }
        index += count
        return true
    }

    /// Whether `byte` is next, moving over it when it is.
    @inline(__always)
    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < end, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Moves over spaces (U+0020 only, as between the attributes of a plain tag) and says how
    /// many there were.
    @inline(__always)
    mutating func skipSpaces() -> Int {
        let start = index
        while index < end && bytes[index] == 0x20 { index += 1 }
        return index - start
    }

    /// Moves over spaces, tabs and line feeds, the whitespace allowed between a plain element's
    /// children (a carriage return, which expat counts apart, is not).
    mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09: index += 1
            case 0x0A:
                index += 1
                lineFeeds += 1
                lineStart = index
                continuationBytes = 0
            default: return
            }
        }
    }

    /// Reads a plain tag's attributes, each handed to `attributes` (`AttributeReading`), and
    /// its end: whether children follow (`>` rather than `/>`), or nil when the tag is not plain
    /// or `attributes` refused one (an unknown attribute, or one read before).
    @inline(__always)
    mutating func readAttributes<Attributes: AttributeReading>(into attributes: inout Attributes) -> Bool? {
        while true {
            let spaces = skipSpaces()
            if skip("/>") { return false }
            if skip(UInt8(ascii: ">")) { return true }
            guard spaces > 0, let name = attributeName(), let value = quotedValue(),
                attributes.read(bytes.bytes(name), bytes.bytes(value))
            else { return nil }
        }
    }

    /// The attribute name next, and its `=` right after it: ASCII lowercase letters, which every
    /// attribute of the plain form is named with. Nil for anything else.
    @inline(__always)
    private mutating func attributeName() -> Range<Int>? {
        let start = index
        while index < end && bytes[index] &- UInt8(ascii: "a") < 26 { index += 1 }
        guard index > start, index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        return start..<(index - 1)
    }

    /// The value in quotes next, when every byte of it is one expat keeps as it is, moving past
    /// its closing quote.
    private mutating func quotedValue() -> Range<Int>? {
        guard index < end else { return nil }
        let quote = bytes[index]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let opening = index
        // Eight bytes at a time while they are all kept as they are.
        var index = bytes.keptRun(from: opening + 1, before: end)
        while index < end {
            let byte = bytes[index]
            if byte == quote {
                self.index = index + 1
                return (opening + 1)..<index
            }
            if byte >= 0x80 {
                guard let next = endOfCharacter(at: index) else { return nil }
                continuationBytes += next - index - 1
                index = next
            } else if byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&") {
                index += 1  // the other quote, or a kept byte
            } else {
                return nil
            }
        }
        return nil
    }

    /// The end of the UTF-8 sequence that starts at `index` with a byte of 0x80 or more, when it
    /// encodes an XML character: no overlong form, surrogate, U+FFFE, U+FFFF or code point past
    /// U+10FFFF.
    private func endOfCharacter(at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return nil
        }
        guard index + length <= end, bytes[index + 1] >= low, bytes[index + 1] <= high else { return nil }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        // U+FFFE and U+FFFF are not XML characters.
        if lead == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE { return nil }
        return index + length
    }
}
