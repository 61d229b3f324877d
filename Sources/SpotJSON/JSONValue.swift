/// A JSON value as RFC 8259 defines it: what a batch request line, a pipeline file, a word
/// file, a refresh status file or an index's metadata holds, and what reports, status files
/// and metadata are written from (`text(_:escaping:)`).
///
/// SpotJSON is JSON done one way for the whole package: bytes are read by one strict parser
/// (`init(parsing:)`, errors naming the byte and the JSON path); files people write are checked
/// by one validator (`JSONField`, errors `FILE: PATH: what is wrong`); everything is written by
/// one writer (`JSONText` for values appended in a fixed order, `text(_:escaping:)` for a tree
/// with sorted keys). Pipeline files are read by the same parser (SpotPipeline's
/// `PipelineJSON`, which turns the byte into a line and column); no Foundation JSON is left.
///
/// Numbers are `Double`s (`.number`), but for two kinds kept as their text (`.numberText`): a
/// number to be written with a fixed number of decimals ("0.1240", which a `Double` cannot
/// keep), and a whole number beyond ±2^53, where a `Double` would round it (the parser keeps
/// such an integer's digits, so that an index's counts read back exactly). `double` reads
/// either as a `Double`. An object's members are unordered and a repeated key keeps its last
/// value.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A finite number.
    case number(Double)
    /// A number already written as JSON text ("0.1240", "-12.50", "1234"), written as it is.
    case numberText(String)
    /// A string.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object: values by key.
    case object([String: JSONValue])

    /// The one value UTF-8 `bytes` hold, surrounded by white space only, read by RFC 8259's
    /// grammar and nothing else (`JSONParser`); without Foundation's bridging to Objective-C
    /// types, which costs more than a search.
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes: Array(bytes))
        self = try parser.document()
    }

    /// The number, either kind, as a `Double`; nil for a value that is not a number.
    public var double: Double? {
        switch self {
        case .number(let number): number
        case .numberText(let text): Double(text)
        default: nil
        }
    }

    /// A whole number, written exactly (as `.numberText`).
    public static func integer<Integer: BinaryInteger>(_ value: Integer) -> JSONValue { .numberText(String(value)) }
}

/// Why bytes are not one JSON value: where reading stopped (the byte, and the JSON path of the
/// value being read there) and what was expected there.
public struct JSONSyntaxError: Error, CustomStringConvertible, Sendable {
    /// The offset of the byte where reading stopped, from 0.
    public let offset: Int
    /// The JSON path of the value being read where reading stopped (`.dedupe.radius`,
    /// `.inputs[2]`); "" at the top level.
    public let path: String
    /// What is wrong there.
    public let message: String

    /// The error `message` says of byte `offset`, inside the value at `path`.
    init(offset: Int, path: String = "", message: String) {
        self.offset = offset
        self.path = path
        self.message = message
    }

    /// The same error seen from the enclosing value: `component` (".key", "[2]") goes before
    /// the path.
    func within(_ component: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, path: component + path, message: message)
    }

    /// `PATH, byte N: what is wrong` (`byte N: what is wrong` at the top level).
    public var description: String { (path.isEmpty ? "" : path + ", ") + "byte \(offset): \(message)" }
}
