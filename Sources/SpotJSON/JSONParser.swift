/// Reads one JSON value from UTF-8 bytes by RFC 8259's grammar, refusing anything else: no
/// comments, no trailing commas, no raw control characters in strings, no lone surrogates.
/// An error names the byte and the JSON path of the value being read there; the path is put
/// together only on the way out of an error (`JSONSyntaxError.within`), so reading well-formed
/// text keeps no path at all.
struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value of the whole text, surrounded by white space only.
    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        let result = try value()
        skipSpace()
        guard position == bytes.count else { throw failure("text after the value") }
        return result
    }

    private func failure(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, message: message)
    }

    private var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    /// Moves past `character` when it comes next.
    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard next == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(JSONSyntaxError) {
        guard skip(character) else { throw failure("expected '\(character)'") }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        switch next {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case nil: throw failure("expected a value, found the end")
        default: return try number()
        }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        position += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if skip("}") { return .object(members) }
        while true {
            skipSpace()
            guard next == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes") }
            let key = try string()
            skipSpace()
            do throws(JSONSyntaxError) {
                try expect(":")
                members[key] = try value()
            } catch {
                throw error.within("." + key)
            }
            skipSpace()
            if skip("}") { return .object(members) }
            guard skip(",") else { throw failure("expected ',' or '}'") }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        position += 1
        var items: [JSONValue] = []
        skipSpace()
        if skip("]") { return .array(items) }
        while true {
            do throws(JSONSyntaxError) {
                items.append(try value())
            } catch {
                throw error.within("[\(items.count)]")
            }
            skipSpace()
            if skip("]") { return .array(items) }
            guard skip(",") else { throw failure("expected ',' or ']'") }
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        position += 1
        // A String, not a scalar view, so that a string without escapes (most) is one validation.
        var text = ""
        var start = position
        /// Adds the unescaped bytes before `position`, which must be valid UTF-8.
        func flush() throws(JSONSyntaxError) {
            guard start < position else { return }
            guard let piece = String(validating: bytes[start..<position], as: UTF8.self) else {
                throw JSONSyntaxError(offset: start, message: "a string that is not UTF-8")
            }
            text += piece
        }
        while let byte = next {
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                position += 1
                return text
            case UInt8(ascii: "\\"):
                try flush()
                position += 1
                text.unicodeScalars.append(try escape())
                start = position
            case 0..<0x20:
                throw failure("a control character in a string")
            default:
                position += 1
            }
        }
        throw failure("a string without its closing quote")
    }

    /// The character of an escape sequence, after its backslash.
    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let letter = next else { throw failure("an escape sequence cut short") }
        position += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code) {
                try expect("\\")
                try expect("u")
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw failure("a lone surrogate") }
            return scalar
        default:
            position -= 1
            throw failure("an unknown escape sequence")
        }
    }

    /// Four hexadecimal digits.
    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw failure("expected four hexadecimal digits") }
        position += 4
        return value
    }

    /// A number by JSON's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?; a
    /// whole number beyond ±2^53 as its text (`JSONValue.numberText`), which a Double would round.
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        func digits() -> Int {
            let first = position
            while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - first
        }
        let isNegative = skip("-")
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("expected a value") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw JSONSyntaxError(offset: integerStart, message: "a number with a leading zero")
        }
        var fractionDigits = 0
        if skip(".") {
            fractionDigits = digits()
            guard fractionDigits > 0 else { throw failure("expected a digit") }
        }
        var hasExponent = false
        if skip("e") || skip("E") {
            hasExponent = true
            _ = skip("+") || skip("-")
            guard digits() > 0 else { throw failure("expected a digit") }
        }
        // Clinger's fast path, for the coordinates and radii of requests: at most 15 digits and
        // no exponent make a whole number and a power of ten that a Double holds exactly, so
        // their quotient is rounded once, as correctly as the text's own conversion would be.
        if !hasExponent && integerDigits + fractionDigits <= 15 {
            var whole: UInt64 = 0
            for byte in bytes[integerStart..<position] where byte != UInt8(ascii: ".") {
                whole = whole * 10 + UInt64(byte - UInt8(ascii: "0"))
            }
            let magnitude = Double(whole) / Self.powersOfTen[fractionDigits]
            return .number(isNegative ? -magnitude : magnitude)
        }
        let isWhole = fractionDigits == 0 && !hasExponent
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(offset: start, message: "a number too large")
        }
        return isWhole && integerDigits > 15 && abs(value) > 0x1p53 ? .numberText(text) : .number(value)
    }

    /// 10^0 to 10^15, each exact.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[position...].starts(with: text) else { throw failure("expected a value") }
        position += text.count
    }
}
