/// A position in a piece's bytes, reading the pieces of the plain form (`PlainElement`): literal
/// markup, spaces, attribute names and quoted values, as expat would read them, and counting
/// lines and columns as expat counts them (`TextPosition`).
///
/// Every read either moves on over what it read and reports it, or reports that the bytes
/// there are not of the plain form; a caller that meets that drops the cursor, and expat reads
/// the element instead. Reads never look at or past `end`.
struct PlainCursor {
    let base: UnsafePointer<UInt8>
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

    /// A cursor at `start` of the bytes at `base`, reading no further than `end`.
    init(_ base: UnsafePointer<UInt8>, at start: Int, end: Int) {
        self.base = base
        self.end = end
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
        guard index + count <= end else { return false }
        let bytes = text.utf8Start
        for offset in 0..<count where base[index + offset] != bytes[offset] { return false }
        index += count
        return true
    }

    /// Whether `byte` is next, moving over it when it is.
    @inline(__always)
    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < end, base[index] == byte else { return false }
        index += 1
        return true
    }

    /// Moves over spaces (U+0020 only, as between the attributes of a plain tag) and says how
    /// many there were.
    @inline(__always)
    mutating func skipSpaces() -> Int {
        let start = index
        while index < end && base[index] == 0x20 { index += 1 }
        return index - start
    }

    /// Moves over spaces, tabs and line feeds, the whitespace allowed between a plain element's
    /// children (a carriage return, which expat counts apart, is not).
    mutating func skipWhitespace() {
        while index < end {
            switch base[index] {
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

    /// The attribute name next, and its `=` right after it: ASCII lowercase letters, which every
    /// attribute of the plain form is named with. Nil for anything else.
    @inline(__always)
    mutating func attributeName() -> Range<Int>? {
        let start = index
        while index < end && base[index] &- UInt8(ascii: "a") < 26 { index += 1 }
        guard index > start, index < end, base[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        return start..<(index - 1)
    }

    /// Whether the bytes of `range` are `text`.
    @inline(__always)
    func bytes(_ range: Range<Int>, are text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let bytes = text.utf8Start
        for offset in 0..<range.count where base[range.lowerBound + offset] != bytes[offset] { return false }
        return true
    }

    /// `range` as a whole number, as `OSMBytes.int64` reads it; plain runs of up to 18 digits
    /// (every id and version) without overflow checks.
    func integer(_ range: Range<Int>) -> Int64? {
        if range.count > 0 && range.count <= 18 {
            var value: Int64 = 0
            for index in range {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return OSMBytes(base, range).int64 }
                value = value &* 10 &+ Int64(digit)
            }
            return value
        }
        return OSMBytes(base, range).int64
    }

    /// The value in quotes next, when every byte of it is one expat keeps as it is, moving past
    /// its closing quote.
    mutating func quotedValue() -> Range<Int>? {
        guard index < end else { return nil }
        let quote = base[index]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let opening = index
        var index = opening + 1
        // Eight bytes at a time while they are all kept as they are.
        let raw = UnsafeRawPointer(base)
        while index + 8 <= end && Self.isKept(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        while index < end {
            let byte = base[index]
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

    /// Whether each byte of `word` is printable ASCII but `<`, `&` and the two quotes: kept as it
    /// is in any value, and not its end.
    @inline(__always)
    private static func isKept(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bits where `x` has a zero byte (exact as to whether there is one).
        func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        func bytes(_ byte: Unicode.Scalar) -> UInt64 { UInt64(byte.value) &* ones }
        let below20 = (word &- bytes("\u{20}")) & ~word & highs
        let special =
            zeroBytes(word ^ bytes("\u{7F}")) | zeroBytes(word ^ bytes("<")) | zeroBytes(word ^ bytes("&"))
            | zeroBytes(word ^ bytes("\"")) | zeroBytes(word ^ bytes("'"))
        return (word & highs) | below20 | special == 0
    }

    /// The end of the UTF-8 sequence that starts at `index` with a byte of 0x80 or more, when it
    /// encodes an XML character: no overlong form, surrogate, U+FFFE, U+FFFF or code point past
    /// U+10FFFF.
    private func endOfCharacter(at index: Int) -> Int? {
        let lead = base[index]
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
        guard index + length <= end, base[index + 1] >= low, base[index + 1] <= high else { return nil }
        for offset in 2..<max(2, length) where base[index + offset] & 0xC0 != 0x80 { return nil }
        // U+FFFE and U+FFFF are not XML characters.
        if lead == 0xEF && base[index + 1] == 0xBF && base[index + 2] >= 0xBE { return nil }
        return index + length
    }
}

extension OSMBytes {
    /// The bytes of `range` at `base`.
    init(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) {
        self.init(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }
}
