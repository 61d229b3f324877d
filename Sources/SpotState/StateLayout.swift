// SpotState: the state file an index keeps beside it for updates from change files (NAME.state
// beside NAME.spots). Design decisions:
// - Sections streamed, table at the end. The state is written in one pass while its largest
//   parts (every node's location, every way's node list) are walked; their sizes are known only
//   after, so the section table and a fixed trailer follow the sections, as zip's directory
//   follows its entries. A reader finds the trailer at the end of the file.
// - Checked blocks, not one checksum. Each section carries a CRC-32 per 4 KiB block, checked
//   the first time a read touches the block (`CheckedSection`): an update reads a few thousand
//   node locations out of hundreds of megabytes, and must not read (or make resident) the rest
//   to trust them.
// - Fixed-width tables where a reader looks things up (`SparseNodeLayout`'s entries, way ids,
//   record headers): mapped and binary-searched in place, never decoded whole.
// - The pair. A state belongs to one index: its trailer holds the first 32 bytes of that index
//   (magic, version, size, header checksum over the section table and its CRCs), compared when
//   it is opened. `StatePair` publishes the two in an order that a crash cannot turn into a
//   mismatched pair that is used (docs/update.md).

/// NAME.state's layout: a FORMAT.md-like description lives in docs/update.md ("The state file").
enum StateLayout {
    /// The first and last 8 bytes' magic: "SPOTSSTA".
    static let magic: [UInt8] = Array("SPOTSSTA".utf8)
    /// The layout version this code reads and writes.
    static let version: UInt32 = 1
    /// The trailer: magic (8), version (4), section count (4), table offset (8), file size (8),
    /// table CRC-32 (4), block size (4), the index's first 32 bytes (32).
    static let trailerSize = 72
    /// Bytes of the index's header that pair it with its state.
    static let identitySize = 32
    /// One section table entry: tag (4), reserved (4), offset (8), length (8), CRC table offset (8).
    static let entrySize = 32
    /// Bytes covered by one CRC-32: a page, so that a lookup checks (and makes resident) only
    /// the pages it reads.
    static let blockSize = 1 << 12
    /// Sections start at multiples of this.
    static let alignment = 8
    /// The most sections a state may have.
    static let maxSections = 64

    /// A four-letter tag as the table stores it (little-endian ASCII).
    static func tag(_ name: String) -> UInt32 {
        name.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The four letters of `tag`.
    static func name(ofTag tag: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }, as: UTF8.self)
    }
}

/// Why a state file cannot be used.
public struct StateError: Error, CustomStringConvertible, Sendable {
    /// What went wrong: the file is missing or unreadable (exit 66), damaged (a checksum, a
    /// bound, a version: exit 65), or not the index's (exit 65).
    public enum Kind: Sendable { case unreadable, damaged, mismatched }
    /// What kind of failure.
    public let kind: Kind
    /// The state file.
    public let file: String
    /// What is wrong.
    public let message: String

    /// An error about `file`.
    public init(_ kind: Kind, file: String, _ message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    /// `FILE: what is wrong`.
    public var description: String { "\(file): \(message)" }
}
