/// A JSON value as written, keeping the order of object members and the text of numbers, which
/// Foundation's parser does not: enough to check the exporter's key order and number format.
indirect enum OrderedJSON: Equatable {
    case object([(key: String, value: OrderedJSON)])
    case array([OrderedJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): Array(a.unicodeScalars) == Array(b.unicodeScalars)
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    var keys: [String] { if case .object(let members) = self { members.map(\.key) } else { [] } }

    subscript(key: String) -> OrderedJSON? {
        if case .object(let members) = self { members.first { $0.key == key }?.value } else { nil }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: String? { if case .number(let value) = self { value } else { nil } }
    var array: [OrderedJSON]? { if case .array(let value) = self { value } else { nil } }

    struct ParseError: Error {
        var message: String
        var offset: Int
    }

    /// Parses one JSON text (RFC 8259), strictly: no trailing garbage, no raw control characters in strings.
    static func parse(_ text: String) throws -> OrderedJSON {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.position == parser.bytes.count else {
            throw ParseError(message: "trailing text", offset: parser.position)
        }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        func fail(_ message: String) -> ParseError { ParseError(message: message, offset: position) }

        mutating func expect(_ literal: String) throws {
            let literal = Array(literal.utf8)
            guard position + literal.count <= bytes.count, Array(bytes[position..<position + literal.count]) == literal
            else {
                throw fail("expected \(String(decoding: literal, as: UTF8.self))")
            }
            position += literal.count
        }

        mutating func value() throws -> OrderedJSON {
            guard position < bytes.count else { throw fail("unexpected end") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [(key: String, value: OrderedJSON)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((key, try value()))
                    skipSpace()
                    if position < bytes.count, bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [OrderedJSON] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                while true {
                    skipSpace()
                    elements.append(try value())
                    skipSpace()
                    if position < bytes.count, bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default:
                let start = position
                while position < bytes.count, "-+.eE0123456789".utf8.contains(bytes[position]) { position += 1 }
                guard position > start else { throw fail("unexpected character") }
                return .number(String(decoding: bytes[start..<position], as: UTF8.self))
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard position + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
            else {
                throw fail("bad \\u escape")
            }
            position += 4
            return value
        }

        mutating func string() throws -> String {
            try expect("\"")
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll()
            }
            while true {
                guard position < bytes.count else { throw fail("unterminated string") }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard position < bytes.count else { throw fail("unterminated escape") }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            try expect("\\u")
                            let low = try hex4()
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("bad scalar") }
                        scalars.append(scalar)
                    default: throw fail("bad escape")
                    }
                case 0..<0x20: throw fail("raw control character in string")
                default: run.append(byte)
                }
            }
        }
    }
}
