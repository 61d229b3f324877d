/// Minimal JSON text building with a fixed key order, which Foundation's encoders do not give.
struct JSONObject {
    private(set) var text = "{"

    /// Adds `"key": value`, where `value` is already JSON text.
    mutating func add(_ key: String, raw value: String) {
        if text.count > 1 { text += "," }
        text += JSONText.string(key) + ":" + value
    }

    /// Adds a string member, or null.
    mutating func add(_ key: String, _ value: String?) {
        add(key, raw: value.map(JSONText.string) ?? "null")
    }

    /// The object's text.
    var closed: String { text + "}" }
}

/// JSON text for scalar values.
enum JSONText {
    /// `value` as a JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func string(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A string-to-string map as a JSON object with sorted keys.
    static func object(_ map: [String: String]) -> String {
        var object = JSONObject()
        for key in map.keys.sorted() { object.add(key, map[key]) }
        return object.closed
    }
}
