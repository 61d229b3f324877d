/// A JSON value as RFC 8259 defines it: what a batch request line or a pipeline file holds.
/// Numbers are `Double`s; an object's members are unordered and a repeated key keeps its last
/// value.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A finite number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object: values by key.
    case object([String: JSONValue])

    /// The one value UTF-8 `bytes` hold, surrounded by white space only; read strictly, without
    /// Foundation's bridging to Objective-C types (which costs more than a search).
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes: Array(bytes))
        self = try parser.document()
    }
}

/// Why bytes are not one JSON value: where reading stopped and what was expected there.
public struct JSONSyntaxError: Error, CustomStringConvertible, Sendable {
    /// The offset of the byte where reading stopped, from 0.
    public let offset: Int
    /// What is wrong there.
    public let message: String

    /// `byte N: what is wrong`.
    public var description: String { "byte \(offset): \(message)" }
}
