import SpotJSON

/// A JSON object built member by member as UTF-8 bytes by the one writer (`JSONText`), in the
/// order the members are added: exports and search answers write many small objects.
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

    /// A string-to-string map as a JSON object with sorted keys.
    static func closed(_ map: [String: String]) -> [UInt8] {
        var object = JSONObject()
        for (key, value) in map.sorted(by: { $0.key < $1.key }) { object.add(dynamicKey: key, value) }
        return object.closed
    }
}
