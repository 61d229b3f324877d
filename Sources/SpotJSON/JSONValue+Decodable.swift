/// Any JSON a `Decoder` holds, so that a file read with Foundation's `JSONDecoder` (pipeline
/// files and category tables, whose lenient grammar accepts a trailing comma) gives the same
/// values as the strict parser.
extension JSONValue: Decodable {
    /// The value `decoder` holds.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
