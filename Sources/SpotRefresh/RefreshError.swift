/// Why a refresh stopped without publishing; the command line maps `kind` to an exit code.
public struct RefreshError: Error, CustomStringConvertible, Sendable {
    /// What kind of stop this is.
    public enum Kind: Sendable {
        /// Another refresh of the same output holds the lock (exit 75).
        case locked
        /// A gate refused the new build (exit 3); it is kept as NAME.rejected.spots.
        case gateRefused
        /// `--rollback` found no previous generation (exit 66).
        case nothingToRollBack
        /// A file beside the output could not be created, renamed or linked (exit 73).
        case cannotPublish
        /// The change folder misses a change file between the published state's and its newest
        /// (a gap in the sequence), or its state.txt cannot be read (exit 66).
        case missingChanges
    }

    /// What kind of stop this is.
    public let kind: Kind
    /// The file concerned.
    public let file: String
    /// What happened.
    public let message: String

    /// A stop of `kind` about `file`.
    public init(_ kind: Kind, file: String, _ message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    /// `FILE: what happened`.
    public var description: String { "\(file): \(message)" }
}
