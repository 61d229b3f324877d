import SpotJSON

/// What a state says of itself (section META, JSON): the program that wrote it, whether the
/// build read areas (ways and relations: without, the state holds no node locations or ways),
/// and the replication sequence and timestamp of the newest change applied, when known.
public struct StateMetadata: Equatable, Sendable {
    /// "spots 1.2.3".
    public var generator: String
    /// Whether ways and multipolygon relations were read (not `--no-areas`).
    public var areas: Bool
    /// The replication sequence number of the last change file applied (its `.state.txt`).
    public var sequence: Int?
    /// The data's timestamp: the newest of the inputs, then of the changes applied (ISO 8601).
    public var timestamp: String?

    /// Metadata with these values.
    public init(generator: String, areas: Bool, sequence: Int? = nil, timestamp: String? = nil) {
        self.generator = generator
        self.areas = areas
        self.sequence = sequence
        self.timestamp = timestamp
    }

    /// The metadata of `file`.
    public init(_ file: StateFile) throws(StateError) {
        let section = try file.section("META")
        guard case .object(let object)? = try? JSONValue(parsing: try section.whole()),
            case .string(let generator)? = object["generator"], case .bool(let areas)? = object["areas"]
        else { throw section.damage("not the JSON object of a state's metadata") }
        self.generator = generator
        self.areas = areas
        sequence = object["sequence"]?.double.map { Int($0) }
        if case .string(let timestamp)? = object["timestamp"] { self.timestamp = timestamp }
    }

    /// Writes section META.
    public func write(to writer: StateWriter) throws {
        var object: [String: JSONValue] = ["generator": .string(generator), "areas": .bool(areas)]
        if let sequence { object["sequence"] = .integer(sequence) }
        if let timestamp { object["timestamp"] = .string(timestamp) }
        try writer.beginSection("META")
        try writer.write(Array(JSONValue.object(object).text(.compact).utf8))
        try writer.endSection()
    }
}
