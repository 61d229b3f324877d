/// Receives the elements an `OSMReader` parses, in document order.
public protocol OSMElementHandler {
    /// Handles one element; the element and its bytes are valid only during the call.
    mutating func handle(_ element: OSMElement)
}

/// How far a read has come: raw bytes read of the input's size (nil for a pipe).
public struct OSMReadProgress: Sendable {
    /// Raw (compressed) bytes read so far.
    public var bytesRead: Int
    /// The input's size in bytes, when it is a regular file.
    public var totalBytes: Int?
}

/// Reads one OSM XML input, a path or "-" for standard input, plain or gzip (every member),
/// and hands its elements to a handler in document order.
///
/// The stages are separate, as in libosmium: raw bytes (`InputFile`), XML bytes
/// (`DecodedStream`, inflating gzip), element batches (`ElementParser`, one expat parser), and
/// the handler. Memory is bounded by the chunk size whatever the input's size. Each stage hands
/// over plain buffers, so that the XML can be cut at top-level elements and parsed on several
/// cores without changing the handlers.
public struct OSMReader {
    /// XML bytes handed to expat at a time.
    public static let chunkSize = 1 << 20

    /// The input as the user named it.
    public let file: String
    /// What to hand to the handler.
    public let filter: OSMElementFilter

    /// A reader of `file` ("-" is standard input) keeping what `filter` asks for.
    public init(file: String, filter: OSMElementFilter) {
        self.file = file
        self.filter = filter
    }

    /// Reads the whole input, calling `handler` for each element the filter keeps, `progress`
    /// after each chunk, and `rawBytes` with the input's bytes as read (before inflating);
    /// returns what the input held.
    public func read<Handler: OSMElementHandler>(
        into handler: inout Handler, progress: ((OSMReadProgress) -> Void)? = nil,
        rawBytes: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) throws(OSMInputError) -> OSMReadSummary {
        let input = try InputFile(file)
        input.observer = rawBytes
        let stream = try DecodedStream(input)
        let parser = ElementParser(file: file, filter: filter)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        var xmlBytes = 0
        while true {
            let count = try stream.read(into: chunk)
            if count == 0 && xmlBytes == 0 {
                throw OSMInputError(.malformed, file: file, "empty input: no XML")
            }
            xmlBytes += count
            try parser.parse(UnsafeRawBufferPointer(rebasing: chunk[..<count]), isFinal: count == 0)
            parser.batch.forEach { handler.handle($0) }
            parser.clearBatch()
            progress?(OSMReadProgress(bytesRead: input.bytesRead, totalBytes: input.size))
            if count == 0 { break }
        }
        var summary = parser.summary
        summary.inputBytes = input.bytesRead
        summary.xmlBytes = xmlBytes
        return summary
    }
}
