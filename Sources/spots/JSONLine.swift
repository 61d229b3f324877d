/// A small JSON reader for batch request lines: one value from UTF-8 bytes, strictly (RFC 8259),
/// without Foundation's bridging to Objective-C types, which costs more than a search.
enum JSONLine {
    /// A JSON value.
    enum Value: Equatable {
        case null, bool(Bool), number(Double), string(String), array([Value]), object([String: Value])
    }

    struct Failure: Error {}

    /// The one value `bytes` hold, surrounded by white space only.
    static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws -> Value {
        var reader = Reader(bytes: Array(bytes))
        let value = try reader.value()
        reader.skipSpace()
        guard reader.position == reader.bytes.count else { throw Failure() }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func value() throws -> Value {
            skipSpace()
            guard position < bytes.count else { throw Failure() }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func object() throws -> Value {
            position += 1
            var members: [String: Value] = [:]
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw Failure() }
                let key = try string()
                skipSpace()
                try expect(":")
                members[key] = try value()
                skipSpace()
                guard position < bytes.count else { throw Failure() }
                position += 1
                if bytes[position - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[position - 1] == UInt8(ascii: ",") else { throw Failure() }
            }
        }

        mutating func array() throws -> Value {
            position += 1
            var items: [Value] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                items.append(try value())
                skipSpace()
                guard position < bytes.count else { throw Failure() }
                position += 1
                if bytes[position - 1] == UInt8(ascii: "]") { return .array(items) }
                guard bytes[position - 1] == UInt8(ascii: ",") else { throw Failure() }
            }
        }

        mutating func string() throws -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() throws {
                guard !raw.isEmpty else { return }
                guard let text = String(validating: raw, as: UTF8.self) else { throw Failure() }
                scalars.append(contentsOf: text.unicodeScalars)
                raw.removeAll()
            }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    guard position < bytes.count else { throw Failure() }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            try expect("\\")
                            try expect("u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw Failure() }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw Failure() }
                        scalars.append(scalar)
                    default: throw Failure()
                    }
                case 0..<0x20: throw Failure()
                default: raw.append(byte)
                }
            }
            throw Failure()
        }

        mutating func hex4() throws -> UInt32 {
            guard position + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw Failure()
            }
            position += 4
            return value
        }

        /// A number by JSON's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        mutating func number() throws -> Double {
            let start = position
            func digits() -> Int {
                let first = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
                return position - first
            }
            func skip(_ character: UInt8) -> Bool {
                guard position < bytes.count, bytes[position] == character else { return false }
                position += 1
                return true
            }
            _ = skip(UInt8(ascii: "-"))
            let integerStart = position
            let integerDigits = digits()
            guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw Failure() }
            if skip(UInt8(ascii: ".")) { guard digits() > 0 else { throw Failure() } }
            if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
                _ = skip(UInt8(ascii: "+")) || skip(UInt8(ascii: "-"))
                guard digits() > 0 else { throw Failure() }
            }
            guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else { throw Failure() }
            return value
        }

        mutating func literal(_ word: String) throws {
            guard bytes[position...].starts(with: word.utf8) else { throw Failure() }
            position += word.utf8.count
        }

        mutating func expect(_ character: Character) throws {
            guard position < bytes.count, bytes[position] == character.asciiValue else { throw Failure() }
            position += 1
        }
    }
}
