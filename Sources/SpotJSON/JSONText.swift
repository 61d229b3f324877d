/// The one JSON writer's scalars: keys, strings, numbers, appended to UTF-8 bytes without a
/// String per value (exports and search answers write many small values). Objects are written
/// member by member by the caller in a fixed order (exports, answers, log lines), or from a
/// `JSONValue` with sorted keys (`JSONValue.text(_:)`: reports, metadata, status files).
///
/// What every output has in common: UTF-8 as it is (no `\u` for non-ASCII), `"` and `\`
/// escaped, and each control character escaped. Three choices differ between outputs and are
/// kept so that every output stays byte for byte what it was:
/// - backspace and form feed: `\u0008` and `\u000c` in exports and answers, `\b` and `\f`
///   in reports, log lines, status files and metadata, which Foundation's encoders wrote
///   (`Escaping`);
/// - the slash: `\/` in index metadata only, which Foundation's encoder wrote with its
///   default options (`Escaping.shortWithSlash`);
/// - fractional numbers: Swift's shortest text that reads back to the same `Double`, "25.0"
///   for a whole one in exports and answers (`number(_:)`), "25" in metadata and status files,
///   as Foundation's encoder wrote (`appendNumber(_:to:)`).
public enum JSONText {
    /// How a string's backspace, form feed and slash are escaped; `"`, `\`, line feed, carriage
    /// return and tab are `\"`, `\\`, `\n`, `\r`, `\t`, other control characters `\u00XX`
    /// (lowercase hex), in every output.
    public struct Escaping: Sendable, Equatable {
        /// Backspace and form feed as `\b` and `\f` rather than `\u0008` and `\u000c`.
        let shortControls: Bool
        /// `/` as `\/`.
        let slash: Bool

        /// `\u0008`, `\u000c`, `/`: exports and search and cluster answers.
        public static let unicode = Escaping(shortControls: false, slash: false)
        /// `\b`, `\f`, `/`: reports, refresh logs and status files.
        public static let short = Escaping(shortControls: true, slash: false)
        /// `\b`, `\f`, `\/`: index metadata.
        public static let shortWithSlash = Escaping(shortControls: true, slash: true)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"key":`, after `{` when `first`, else after a comma.
    public static func appendKey(_ key: StaticString, first: Bool = false, to bytes: inout [UInt8]) {
        let count = key.utf8CodeUnitCount
        appendInPlace(count + 4, to: &bytes) { text in
            text[0] = first ? UInt8(ascii: "{") : UInt8(ascii: ",")
            text[1] = UInt8(ascii: "\"")
            let name = UnsafeBufferPointer(start: key.utf8Start, count: count)
            _ = UnsafeMutableBufferPointer(rebasing: text[2..<2 + count]).initialize(from: name)
            text[count + 2] = UInt8(ascii: "\"")
            text[count + 3] = UInt8(ascii: ":")
        }
    }

    /// Appends `count` bytes that `write` fills in on the stack, in one copy.
    private static func appendInPlace(
        _ count: Int, to bytes: inout [UInt8], _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { text in
            write(text)
            bytes.append(contentsOf: text)
        }
    }

    /// Appends `value` as a JSON string, or null.
    public static func appendString(_ value: String?, to bytes: inout [UInt8]) {
        guard let value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        appendString(value, to: &bytes)
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters escaped
    /// (backspace, form feed and slash as `escaping` says), the rest as UTF-8.
    public static func appendString(_ value: String, escaping: Escaping = .unicode, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(value, escaping: escaping, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends as one JSON string the texts that `write` gives its function, one after another
    /// (`appendString`'s escaping): a string made of pieces, written without joining them.
    public static func appendString(to bytes: inout [UInt8], joining write: ((String) -> Void) -> Void) {
        bytes.append(UInt8(ascii: "\""))
        write { appendEscaped($0, escaping: .unicode, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value` escaped as inside a JSON string, without its quotes.
    private static func appendEscaped(_ value: String, escaping: Escaping, to bytes: inout [UInt8]) {
        // The slash is special only where it is escaped; elsewhere this is the quote again.
        let special = escaping.slash ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        let plain = value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for byte in utf8
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == special {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true { return }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "/") where escaping.slash:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08 where escaping.shortControls: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C where escaping.shortControls: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
    }

    /// `value` as a JSON string (`appendString`).
    public static func string(_ value: String, escaping: Escaping = .unicode) -> String {
        var bytes: [UInt8] = []
        appendString(value, escaping: escaping, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An object of `members` on one line, in the order given, each value already JSON text;
    /// keys escaped as `escaping` says (refresh log lines and summaries).
    public static func object(_ members: [(key: String, value: String)], escaping: Escaping) -> String {
        "{" + members.map { string($0.key, escaping: escaping) + ":" + $0.value }.joined(separator: ",") + "}"
    }

    /// Appends `value` rounded to the nearest tenth, with exactly one decimal ("138.3", "0.0"),
    /// or null for none (or one that is not finite or beyond 10^17): how answers write
    /// distances in metres, since the index stores coordinates to 10^-7 degrees, about 1 cm.
    public static func appendTenths(_ value: Double?, to bytes: inout [UInt8]) {
        guard let value, value.isFinite, abs(value) < 1e17 else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        appendDigits(Int64((value * 10).rounded()), decimals: 1, to: &bytes)
    }

    /// Appends a finite number as Foundation's encoder wrote one: the shortest decimal that
    /// reads back to the same Double, without the ".0" of a whole one ("25", "0.1", "1e-07").
    public static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    /// Appends a fixed-point value (degrees × 10^7) with exactly seven decimals.
    public static func appendFixedPoint(_ value: Int32, to bytes: inout [UInt8]) {
        appendDigits(Int64(value), decimals: 7, to: &bytes)
    }

    /// Appends a whole number.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        appendDigits(value, decimals: 0, to: &bytes)
    }

    /// Appends `value` / 10^`decimals` with exactly `decimals` decimals (none: no point), written
    /// backwards on the stack and appended in one copy.
    private static func appendDigits(_ value: Int64, decimals: Int, to bytes: inout [UInt8]) {
        // A sign, 19 digits, a point and the leading zeros of a value below 1.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 22 + decimals) { text in
            var rest = value.magnitude
            var start = text.count
            func write(_ byte: UInt8) {
                start -= 1
                text[start] = byte
            }
            for _ in 0..<decimals {
                write(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            }
            if decimals > 0 { write(UInt8(ascii: ".")) }
            repeat {
                write(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            if value < 0 { write(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        }
    }
}
