/// Why an input could not be read, with where: one line, as `spots: ` prints it.
public struct OSMInputError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; the command line maps it to an exit code.
    public enum Kind: Sendable {
        /// The input does not exist, or is not a file that can be opened for reading.
        case unreadable
        /// The bytes are not an OSM XML document: bad gzip, bad XML, wrong root, not UTF-8.
        case malformed
        /// Reading failed part way (an I/O error from the system).
        case io
    }

    /// Where in the input the problem is.
    public enum Location: Sendable, Equatable {
        /// A position in the XML, both counted from 1 as an editor shows them (column in characters).
        case line(Int, column: Int)
        /// A byte offset (from 0) in the compressed input.
        case byte(Int)
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The input as the user named it; "-" for standard input.
    public let file: String
    /// Where in the input, when that is known.
    public let location: Location?
    /// What is wrong, in a few words.
    public let message: String

    /// An error about `file`.
    public init(_ kind: Kind, file: String, at location: Location? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.location = location
        self.message = message
    }

    /// `FILE: WHERE: what is wrong`.
    public var description: String {
        switch location {
        case .line(let line, let column)?: "\(file): line \(line), column \(column): \(message)"
        case .byte(let offset)?: "\(file): byte \(offset): \(message)"
        case nil: "\(file): \(message)"
        }
    }
}
