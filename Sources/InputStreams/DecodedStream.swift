// InputStreams: an input's bytes as read and decompressed, apart from any format, as libosmium
// keeps io/compression.hpp, gzip_compression.hpp and bzip2_compression.hpp apart from
// io/detail/xml_input_format.hpp. Design decisions:
// - The name says what the module gives, streams of an input's bytes, not one codec: a plain
//   file passes through it too, and OSMInput's formats see only `InputFile`, `DecodedStream`
//   and `ZlibBlockInflater`; the formats' knowledge (what XML or PBF is) stays out.
// - One error type for reading an input, `OSMInputError`, whose kinds the command line maps
//   to exit codes: the decompressors raise it with byte offsets, the formats with lines.
// - The reading thread's pipeline (`ReadPipeline`) lives here because bzip2 decodes its blocks
//   on it; the XML and PBF readers run their pieces and blobs on the same one.
// - Fast libraries inflate, the reference library judges: ISA-L inflates gzip and zlib, and
//   what it cannot inflate is read again by zlib, whose verdict and message stand; bzip2 is
//   decoded block by block by libbz2 on several threads. Bytes decoded before an error are
//   handed over before it, so that an error reads the same whatever the buffer sizes.

/// Bytes inflated from an input, in order.
protocol InflatedBytes: AnyObject {
    /// Fills `output` with the next bytes; returns 0 at the end. The bytes inflated before an
    /// error are returned first and the error thrown by the next call, so that what comes first
    /// in the input is reported first whatever the size of `output`.
    func read(into output: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int
    /// Raw bytes of the input read, as far as what was handed over goes.
    var rawBytesRead: Int { get }
}

/// How an input is compressed, as its first bytes show (`OSMInput`'s `InputFormat` tells).
public enum Compression: Sendable {
    /// Not compressed: the bytes are passed through.
    case none
    /// Gzip (magic bytes 1F 8B), one or more members.
    case gzip
    /// Bzip2 (`BZh` and a level digit), one or more streams.
    case bzip2
}

/// Which inflater reads gzip.
public enum GzipEngine: Sendable {
    /// ISA-L for regular files (zlib reports its errors), zlib for pipes: the default.
    case fastest
    /// zlib alone: the reference the fuzz target compares ISA-L with.
    case zlib
}

/// The bytes of an input, decompressed: inflated when the input is gzip (every member of a
/// multi-member file in turn) or bzip2 (every stream), passed through when it is not compressed.
public final class DecodedStream {
    private let file: InputFile
    private let inflater: (any InflatedBytes)?

    /// The bytes of `file`, whose first bytes showed it to be compressed by `compression`. A
    /// regular file's gzip is inflated with ISA-L, which can read a failed member again with
    /// zlib; a pipe's, which cannot be read again, with zlib. Bzip2 is decoded on `threads`
    /// threads.
    public init(
        _ file: InputFile, compression: Compression, threads: Int = 1, gzip engine: GzipEngine = .fastest
    ) throws(OSMInputError) {
        self.file = file
        switch compression {
        case .gzip where engine == .fastest && file.size != nil: inflater = try IsalGzipInflater(file)
        case .gzip: inflater = try GzipInflater(file)
        case .bzip2: inflater = Bzip2Stream(file, threads: threads)
        case .none: inflater = nil
        }
    }

    /// Raw bytes of the input read, as far as the bytes handed over go.
    public var rawBytesRead: Int { inflater?.rawBytesRead ?? file.bytesRead }

    /// Fills `buffer` with the next bytes; returns 0 at the end. The bytes decoded before an
    /// error are returned first and the error thrown by the next call.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        if let inflater { return try inflater.read(into: buffer) }
        return try file.read(into: buffer)
    }
}
