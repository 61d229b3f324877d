/// JSON text built as UTF-8 bytes, with a fixed key order (which Foundation's encoders do not
/// give) and without a String per value: exports and search answers write many small values.
struct JSONObject {
    /// The members so far, from the opening brace; empty before the first.
    private(set) var bytes: [UInt8]

    /// An empty object.
    init() {
        bytes = []
    }

    /// Adds `"key": value`, where `value` is already JSON text.
    mutating func add(_ key: StaticString, raw value: String) {
        addKey(key)
        bytes.append(contentsOf: value.utf8)
    }

    /// Adds `"key": value`, where `value` is already JSON text as bytes.
    mutating func add(_ key: StaticString, raw value: [UInt8]) {
        addKey(key)
        bytes.append(contentsOf: value)
    }

    /// Adds a string member, or null.
    mutating func add(_ key: StaticString, _ value: String?) {
        addKey(key)
        if let value { JSONText.appendString(value, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// Adds a whole number.
    mutating func add(_ key: StaticString, integer value: Int64) {
        addKey(key)
        JSONText.appendInteger(value, to: &bytes)
    }

    /// Adds a fixed-point coordinate with seven decimals.
    mutating func add(_ key: StaticString, fixedPoint value: Int32) {
        addKey(key)
        JSONText.appendFixedPoint(value, to: &bytes)
    }

    /// Adds a member whose key is not a static string (keys of `names` and `address`).
    mutating func add(dynamicKey key: String, _ value: String) {
        bytes.append(bytes.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
        JSONText.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        JSONText.appendString(value, to: &bytes)
    }

    /// The object's bytes, closed.
    var closed: [UInt8] {
        bytes.isEmpty ? Array("{}".utf8) : bytes + [UInt8(ascii: "}")]
    }

    private mutating func addKey(_ key: StaticString) {
        JSONText.appendKey(key, first: bytes.isEmpty, to: &bytes)
    }
}

/// JSON text for scalar values, appended as UTF-8 bytes.
public enum JSONText {
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

    /// Appends `value` as a JSON string: quotes, backslashes and control characters escaped,
    /// the rest as UTF-8.
    public static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let plain = value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20: bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number as JSON: the shortest decimal that reads back to the same Double, or null for
    /// none (or one that is not finite). Distances are written so.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    /// Appends a fixed-point value (degrees × 10^7) with exactly seven decimals.
    public static func appendFixedPoint(_ value: Int32, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = Int64(value).magnitude
        appendDigits(magnitude / 10_000_000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(magnitude % 10_000_000, width: 7, to: &bytes)
    }

    /// Appends a whole number.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, to: &bytes)
    }

    /// Appends the decimal digits of `value`, with leading zeros up to `width` (at most 20) digits.
    private static func appendDigits(_ value: UInt64, width: Int = 1, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
            var rest = value
            var start = text.count
            repeat {
                start -= 1
                text[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0 || text.count - start < width
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        }
    }

    /// A string-to-string map as a JSON object with sorted keys.
    static func object(_ map: [String: String]) -> [UInt8] {
        var object = JSONObject()
        for (key, value) in map.sorted(by: { $0.key < $1.key }) { object.add(dynamicKey: key, value) }
        return object.closed
    }
}
