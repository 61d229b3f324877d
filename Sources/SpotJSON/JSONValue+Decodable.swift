/// Any JSON a `Decoder` holds, so that a file read with Foundation's `JSONDecoder` gives the
/// values the strict parser gives (but numbers always as `.number`, which `JSONField`'s readers
/// take alike). Its one use is SpotPipeline's fallback for pipeline files, category tables and
/// word files, whose grammar has been Foundation's more lenient one (a trailing comma).
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
