import SpotJSON

/// What a state says of itself (section META, JSON): the program that wrote it, whether the
/// build read areas (ways and relations: without, the base holds no node locations or ways),
/// its base file, and the replication sequence and timestamp of the newest change applied,
/// when known.
public struct StateMetadata: Equatable, Sendable {
    /// "spots 1.2.3".
    public var generator: String
    /// Whether ways and multipolygon relations were read (not `--no-areas`).
    public var areas: Bool
    /// The replication sequence number of the last change file applied (its `.state.txt`).
    public var sequence: Int?
    /// The data's timestamp: the newest of the inputs, then of the changes applied (ISO 8601).
    public var timestamp: String?
    /// The base file beside the state (`StatePair`), set when the state is written.
    public var base: BaseReference?

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
        let bytes = try section.whole()
        guard case .object(let object)? = try? JSONValue(parsing: bytes),
            case .string(let generator)? = object["generator"], case .bool(let areas)? = object["areas"],
            case .string(let base)? = object["base"], case .string(let token)? = object["base_token"],
            let reference = BaseReference(name: base, hex: token)
        else { throw section.damage("not the JSON object of a state's metadata") }
        self.generator = generator
        self.areas = areas
        self.base = reference
        sequence = object["sequence"]?.double.flatMap { Int(exactly: $0) }
        if case .string(let timestamp)? = object["timestamp"] { self.timestamp = timestamp }
    }

    /// Writes section META; the base must be set.
    public func write(to writer: StateWriter) throws {
        let base = base!
        var object: [String: JSONValue] = [
            "generator": .string(generator), "areas": .bool(areas), "base": .string(base.name),
            "base_token": .string(base.token.map { String($0, radix: 16).leftPadded(to: 2) }.joined()),
        ]
        if let sequence { object["sequence"] = .integer(sequence) }
        if let timestamp { object["timestamp"] = .string(timestamp) }
        try writer.writeSection("META", Array(JSONValue.object(object).text(.compact).utf8))
    }
}

/// A state's base file: its name beside the state (NAME.base-G.state) and the random token in its
/// trailer that pairs it with the states written over it.
public struct BaseReference: Equatable, Sendable {
    /// The file's name, in the state's folder.
    public let name: String
    /// 32 random bytes, the base file's identity.
    public let token: [UInt8]

    init(name: String, token: [UInt8]) {
        self.name = name
        self.token = token
    }

    /// The reference of `name` with the token written as 64 hex digits; nil for other text.
    init?(name: String, hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 2 * StateLayout.identitySize, !name.contains("/") else { return nil }
        var token: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            token.append(byte)
        }
        self.init(name: name, token: token)
    }
}

extension String {
    /// The string with zeros before it up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
