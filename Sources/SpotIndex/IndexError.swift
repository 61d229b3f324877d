/// Why an index file cannot be used: one line, as `spots: ` prints it.
public struct IndexError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; the command line maps it to an exit code.
    public enum Kind: Sendable {
        /// The file does not exist or cannot be opened.
        case unreadable
        /// The bytes are not a valid index: wrong magic, truncated, a bad offset or checksum.
        case corrupt
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The index as the user named it.
    public let file: String
    /// The part of the file that is wrong: "header", "section table", a section's tag.
    public let section: String?
    /// What is wrong.
    public let message: String

    /// An error about `file`, in `section` when it is about one.
    public init(_ kind: Kind, file: String, section: String? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.section = section
        self.message = message
    }

    /// `FILE: SECTION: what is wrong`.
    public var description: String {
        [file, section, message].compactMap { $0 }.joined(separator: ": ")
    }
}
