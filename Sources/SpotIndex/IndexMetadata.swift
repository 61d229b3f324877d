import Foundation

/// What an index records about its build, stored as JSON in the META section.
public struct IndexMetadata: Codable, Equatable, Sendable {
    /// One input file of the build.
    public struct Input: Codable, Equatable, Sendable {
        /// The input as it was named on the command line.
        public var name: String
        /// Its size in bytes as read.
        public var bytes: Int

        /// An input record.
        public init(name: String, bytes: Int) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// The program that wrote the index ("spots 0.1.0").
    public var generator: String
    /// When the data is from, as ISO 8601 UTC: the newest timestamp in the inputs, or
    /// SOURCE_DATE_EPOCH; never the wall clock, so that builds are reproducible. Nil when unknown.
    public var buildTime: String?
    /// The inputs, in the order given.
    public var inputs: [Input]
    /// The extent of the spots as [min lon, min lat, max lon, max lat] in degrees × 10^7; nil when empty.
    public var bboxE7: [Int32]?
    /// Build counters by name (nodes read, spots, skipped coordinates, ...).
    public var statistics: [String: Int]

    /// Metadata with the given fields.
    public init(generator: String, buildTime: String?, inputs: [Input], bboxE7: [Int32]?, statistics: [String: Int]) {
        self.generator = generator
        self.buildTime = buildTime
        self.inputs = inputs
        self.bboxE7 = bboxE7
        self.statistics = statistics
    }

    /// The JSON form: snake_case keys, sorted, so that equal metadata gives equal bytes.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return Array(try! encoder.encode(self))
    }

    /// Reads the JSON form.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> IndexMetadata {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(IndexMetadata.self, from: Data(bytes))
    }
}
