import InputStreams

/// What an input is, told from its first bytes whatever its name: OSM XML (plain, gzip or bzip2),
/// OSM PBF, or a format Spots does not read.
enum InputFormat: Equatable {
    /// OSM XML: plain (anything not recognised as another format; expat judges it), in one or
    /// more gzip members (magic bytes 1F 8B) or in one or more bzip2 streams (`BZh` and a level
    /// digit), decompressed by `DecodedStream`.
    case xml(Compression)
    /// OSM PBF: the file starts with a BlobHeader of type `OSMHeader`.
    case pbf
    /// A known format that is not read, by name (xz, zstd).
    case unsupported(String)

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
        } else {
            self = .xml(.none)
        }
    }

    /// The inputs Spots reads, as error messages name them.
    static let supported = "OSM XML (plain, gzip or bzip2) or OSM PBF"
}
