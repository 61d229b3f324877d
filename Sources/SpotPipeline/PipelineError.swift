import SpotJSON

/// Why a pipeline or category file is refused: the file, the JSON path of the offending field
/// (`.dedupe.radius`), and what is wrong. Exit 78.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    /// Whether the file could not be read (exit 66) or is invalid (exit 78).
    public var isUnreadable: Bool
    /// The file as the user named it.
    public let file: String
    /// The JSON path of the field, or nil when the file as a whole is wrong.
    public let path: String?
    /// What is wrong.
    public let message: String

    /// The error that `message` says of the field at `path` of `file` (nil: the file as a whole).
    public init(isUnreadable: Bool = false, file: String, path: String?, message: String) {
        self.isUnreadable = isUnreadable
        self.file = file
        self.path = path
        self.message = message
    }

    /// The error of a field of a pipeline file, category table or word file: invalid (exit 78).
    public init(_ error: JSONFieldError) {
        self.init(file: error.document, path: error.path, message: error.message)
    }

    /// `FILE: PATH: what is wrong`.
    public var description: String { [file, path, message].compactMap { $0 }.joined(separator: ": ") }
}
