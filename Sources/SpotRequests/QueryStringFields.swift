import Foundation
import SpotJSON

/// A request's query string as the object of a batch line: each parameter a batch key, its text
/// read as the key's JSON type (`BatchValueType`): numbers and strings as written, lists
/// comma-separated (`near=60.17,24.94`, `categories=cafe,museum`), `true` or `false`. The batch
/// parser then reads the object, so a parameter means what its key means in a batch line and is
/// refused with the same words.
public enum QueryStringFields {
    /// The object that `parameters` (decoded names and values, in order) give for a request of
    /// `keys`; `aliases` names other spellings of a key (`q` for `query`). A parameter that is
    /// no key, is given twice or does not read as its type is refused, naming it.
    public static func object(
        _ parameters: [(name: String, value: String)], keys: [String: BatchValueType], aliases: [String: String] = [:]
    ) throws(BatchRequestError) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for (given, text) in parameters {
            let name = aliases[given] ?? given
            guard let type = keys[name] else { throw BatchRequestError("unknown parameter \"\(given)\"") }
            guard object[name] == nil else { throw BatchRequestError("\(given): given more than once") }
            object[name] = try value(text, as: type, name: given)
        }
        return object
    }

    private static func value(_ text: String, as type: BatchValueType, name: String) throws(BatchRequestError)
        -> JSONValue
    {
        switch type {
        case .string:
            return .string(text)
        case .strings:
            return .array(
                text.isEmpty
                    ? []
                    : text.split(separator: ",", omittingEmptySubsequences: false).map {
                        .string(String($0))
                    })
        case .number:
            guard let number = number(text) else { throw BatchRequestError("\(name): expected a number") }
            return .number(number)
        case .numbers:
            var numbers: [JSONValue] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = number(String(part)) else {
                    throw BatchRequestError("\(name): expected numbers separated by commas")
                }
                numbers.append(.number(number))
            }
            return .array(numbers)
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw BatchRequestError("\(name): expected true or false")
            }
        }
    }

    /// A finite decimal number as JSON writes one (no "nan", "inf" or hexadecimal).
    private static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || "+-.eE".utf8.contains($0) }),
            let number = Double(text), number.isFinite
        else { return nil }
        return number
    }
}
