import InputStreams

/// What an input is, told from its first bytes whatever its name: OSM XML (plain, gzip or bzip2),
/// OSM PBF, a format Spots does not read, or one that holds no OSM data (an index, an archive,
/// an image, a database, JSON).
enum InputFormat: Equatable {
    /// OSM XML: plain (anything not recognised as another format; expat judges it), in one or
    /// more gzip members (magic bytes 1F 8B) or in one or more bzip2 streams (`BZh` and a level
    /// digit), decompressed by `DecodedStream`.
    case xml(Compression)
    /// OSM PBF: the file starts with a BlobHeader of type `OSMHeader`.
    case pbf
    /// A known format that is not read, by name (xz, zstd).
    case unsupported(String)
    /// A known format that holds no OSM data, as people call it ("a spots index").
    case notOSM(String)

    /// How many first bytes `init(head:)` looks at.
    static let headLength = 16

    /// The format that the input's first bytes show.
    init(head: [UInt8]) {
        if head.starts(with: [0x1F, 0x8B]) {
            self = .xml(.gzip)
        } else if head.count > 4, head[4...].starts(with: [0x0A, 0x09] + Array("OSMHeader".utf8)) {
            // A 4-byte header length, then field 1 (the type) of 9 bytes: "OSMHeader".
            self = .pbf
        } else if head.count >= 4, head.starts(with: Array("BZh".utf8)), (0x31...0x39).contains(head[3]) {
            self = .xml(.bzip2)
        } else if head.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            self = .unsupported("xz")
        } else if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) {
            self = .unsupported("zstd")
        } else if let name = Self.notOSM.first(where: { head.starts(with: $0.magic) })?.name {
            self = .notOSM(name)
        } else if let first = head.dropFirst(head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
            .drop(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }).first,
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        {
            // JSON: its first character after a byte order mark and white space.
            self = .notOSM("JSON text (GeoJSON, perhaps)")
        } else {
            self = .xml(.none)
        }
    }

    /// The first bytes of formats people give by mistake, and their names.
    static let notOSM: [(magic: [UInt8], name: String)] = [
        // SpotIndex's IndexLayout.magic, "\x89SPOT\r\n\x1A".
        ([0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A], "a spots index"),
        (Array("PK\u{3}\u{4}".utf8), "a zip archive"), (Array("PK\u{5}\u{6}".utf8), "a zip archive"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
        (Array("SQLite format 3\u{0}".utf8), "an SQLite database (a GeoPackage, perhaps)"),
    ]

    /// The inputs Spots reads, as error messages name them.
    static let supported = "OSM XML (plain, gzip or bzip2) or OSM PBF"
}
