// OSMInput: OSM XML and OSM PBF to elements, read from InputStreams' bytes. Design decisions:
// - Formats only: files, gzip, bzip2 and zlib blobs are InputStreams' (as libosmium keeps its
//   compression apart from its formats); this module knows what XML and PBF say.
// - XML is read two ways, by expat and, for the plain form of nearly every element, by the
//   plain reader (`PlainElement`), expat remaining the fallback for everything else. Both hand
//   each attribute to one interpreter (`OSMAttribute`, `ElementAttributes`, `ChildAttributes`)
//   and read integers one way (`OSMBytes.int64`), so they agree by construction; the reader
//   fuzz target compares them on arbitrary input.
// - The XML tokenizers (`PieceCutter`, `PieceScanner`, `PlainCursor`) read text only through
//   `XMLBytes`, one checked view with its unchecked fast paths named; PBF's protobuf only
//   through `WireReader`, which checks every read against its end.
// - An osmChange file (`OSMReadForm.changes`) is read by the same parser, its action blocks one
//   more level of structure (`ParseState+Changes.swift`), and only by the sequential parser: the
//   cutter's proofs assume top-level elements directly inside the root. Change files are small.

import Foundation
import InputStreams

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

/// Reads one OSM input, a path or "-" for standard input: XML, plain, gzip (every member) or
/// bzip2 (every stream), or PBF (`OSMReader+PBF.swift`), told by content; hands its elements
/// to a handler in document order, parsing on several cores.
///
/// As in libosmium, the stages are separate and run on separate threads:
/// - the reading thread reads raw bytes (`InputFile`), inflates them (`DecodedStream`) into a
///   ring of reusable buffers, and cuts the text into pieces between top-level elements where
///   it can prove a boundary (`PieceCutter`);
/// - `threads` parsing threads each parse a piece apart with a fresh expat parser, reading its
///   plain elements without expat (`ElementParser.parsePiece`, `PlainElement`);
/// - the caller's thread takes the pieces in input order, parses those that cannot be parsed
///   apart with one sequential parser, and hands every batch to the handler.
///
/// OSM XML is a flat list of top-level elements, so the batches of pieces cut between them,
/// handed over in input order, are exactly what one parser would have produced: the handler
/// sees the same elements in the same order, and an error reads the same, whatever the thread
/// count (`read(into:progress:rawBytes:)` says which pieces are parsed in order, and why).
/// Memory stays bounded whatever the input's size (`ringBudget`).
///
/// In the `.changes` form the reader reads an osmChange file instead (XML only, plain, gzip or
/// bzip2): the elements of its `<create>`, `<modify>` and `<delete>` blocks, read as an
/// extract's top-level elements are, each with its block's action (`OSMElement.action`), and
/// deletions delivered (bare when no wanted key is present) rather than skipped. Its pieces all
/// go to the sequential parser, in order.
public struct OSMReader {
    /// XML bytes handed to expat at a time: each parser's own buffer holds about this much.
    public static let chunkSize = 1 << 18
    /// Bytes of XML text in a piece (the size of each ring buffer) while the ring fits in
    /// `ringBudget`: 4 MiB, as pieces of 4 to 16 MiB parse alike.
    public static let defaultPieceSize = 4 << 20
    /// The most bytes the ring's buffers take, whatever the thread count. A read's memory is
    /// bounded by the ring, `2 × threads + 2` buffers of the piece size (which shrinks with more
    /// threads so that the ring keeps fitting), plus expat's own buffers of about `chunkSize`
    /// bytes per parser, whatever the input's size.
    public static let ringBudget = 64 << 20
    /// The most parsing threads a reader runs, whatever it is asked for: the one reading thread
    /// inflates and cuts several times faster than a parser parses, but not arbitrarily faster,
    /// so more parsers would only wait for it and hold memory.
    public static let maxThreads = 16

    /// The input as the user named it.
    public let file: String
    /// What to hand to the handler.
    public let filter: OSMElementFilter
    /// Bounds on one element; an input over them is refused as malformed.
    public let limits: OSMReadLimits
    /// An extract, or an osmChange file.
    public let form: OSMReadForm
    /// Parsing threads; with 1, none runs: the caller's thread parses every piece, in order,
    /// those that can be parsed apart as a parsing thread would.
    public let threads: Int
    /// Bytes of XML text in a piece.
    let pieceSize: Int
    /// Whether pieces that can be parsed apart are (with plain elements read directly); false
    /// parses every piece with the one sequential parser, expat alone, for the tests' reference.
    let parsesApart: Bool

    /// A reader of `file` ("-" is standard input), an extract or, with `form` `.changes`, an
    /// osmChange file, keeping what `filter` asks for, within `limits`, parsing on `threads`
    /// threads (1 to `maxThreads`; by default one per active core).
    public init(
        file: String, filter: OSMElementFilter, limits: OSMReadLimits = .standard,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount, form: OSMReadForm = .extract
    ) {
        let threads = Self.parsingThreads(threads)
        let pieceSize = min(Self.defaultPieceSize, Self.ringBudget / Self.ringSlots(threads: threads))
        self.init(file: file, filter: filter, limits: limits, threads: threads, pieceSize: pieceSize, form: form)
    }

    /// A reader that cuts pieces of `pieceSize` bytes (at least 64): small pieces put cuts
    /// everywhere, for tests and the fuzz targets; without `parsesApart`, expat alone parses.
    init(
        file: String, filter: OSMElementFilter, limits: OSMReadLimits = .standard, threads: Int, pieceSize: Int,
        parsesApart: Bool = true, form: OSMReadForm = .extract
    ) {
        self.file = file
        self.filter = filter
        self.limits = limits
        self.form = form
        self.threads = Self.parsingThreads(threads)
        self.pieceSize = max(64, pieceSize)
        self.parsesApart = parsesApart
    }

    /// The parsing threads a reader runs when asked for `threads`.
    public static func parsingThreads(_ threads: Int) -> Int {
        min(max(1, threads), maxThreads)
    }

    /// Buffers in the ring: one per thread being parsed, one per piece parsed and waiting to be
    /// handed over, and two for the reading thread and the caller.
    static func ringSlots(threads: Int) -> Int {
        2 * threads + 2
    }

    /// Reads the whole input, calling `handler` for each element the filter keeps, `progress`
    /// after each piece, and `rawBytes` with the input's bytes as read (before inflating);
    /// returns what the input held and how it was parsed.
    ///
    /// `handler` and `progress` are called on the caller's thread. `rawBytes` is called on the
    /// reading thread once the first bytes are read, one call at a time, in input order, and
    /// never after `read` returns: it must not share unguarded state with the handler.
    ///
    /// The pieces that `PieceCutter` proves can be are parsed apart, by the parsing threads or,
    /// with one thread, on the caller's thread: the same pieces whatever the thread count. Every
    /// other piece goes, in order, to the sequential parser: the first (the XML declaration and
    /// the root's start tag), the last (the root's end), a piece inside an element larger than a
    /// piece or holding a comment, CDATA section or processing instruction, and the whole rest
    /// of a document after a DOCTYPE (which may declare entities and attribute defaults).
    ///
    /// A sequential piece ends at its first proven cut, so that what follows may be parsed apart
    /// again once the sequential parser is seen to stand between top-level elements there. The
    /// cutter's proof holds for well-formed text; where it misjudged malformed text (a value
    /// with no closing quote, say), every later piece is parsed in order, so that the error is
    /// the one a sequential read reports. A piece parsed apart checks itself: its closing
    /// `</osm>` meets what the next piece would. Positions in errors and element lines are
    /// positions in the whole input (`TextPosition`, `PositionOrigin`); when several pieces are
    /// malformed, the first in input order is reported, with the message one thread gives.
    public func read<Handler: OSMElementHandler>(
        into handler: inout Handler, progress: ((OSMReadProgress) -> Void)? = nil,
        rawBytes: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) throws(OSMInputError) -> OSMReadSummary {
        let input = try InputFile(file)
        input.observer = rawBytes
        switch InputFormat(head: try input.peek(InputFormat.headLength)) {
        case .pbf:
            guard form == .extract else {
                throw OSMInputError(.malformed, file: file, "osmChange files are XML; this is OSM PBF")
            }
            return try readPBF(input, into: &handler, progress: progress)
        case .unsupported(let name):
            throw OSMInputError(.malformed, file: file, "\(name) input is not supported; give \(InputFormat.supported)")
        case .notOSM(let name):
            throw OSMInputError(.malformed, file: file, "this is \(name), not OSM data; give \(InputFormat.supported)")
        case .xml(let compression):
            return try readXML(input, compression: compression, into: &handler, progress: progress)
        }
    }

    /// Reads `input`, OSM XML plain, gzip or bzip2 (`compression`), as `read(into:progress:rawBytes:)` says.
    private func readXML<Handler: OSMElementHandler>(
        _ input: InputFile, compression: Compression, into handler: inout Handler,
        progress: ((OSMReadProgress) -> Void)?
    ) throws(OSMInputError) -> OSMReadSummary {
        let stream = try DecodedStream(input, compression: compression, threads: threads)
        let totalBytes = input.size
        // An osmChange file's elements are not directly inside its root: no cut is proven there.
        let parsesApart = parsesApart && form == .extract
        let parallel = threads > 1 && parsesApart
        let slots = Self.ringSlots(threads: threads)
        let pipeline = ReadPipeline<Piece, PieceResult>(slots: slots)
        let ring = PieceRing(pieceSize: pieceSize, slots: slots)
        // The reading thread owns the input from here on.
        let producer = Handover(
            value: PieceProducer(input: input, stream: stream, pipeline: pipeline, ring: ring, parallel: parallel))
        pipeline.spawn { producer.value.run() }
        if parallel {
            for _ in 0..<threads {
                pipeline.spawn { [file, filter, limits] in
                    while let piece = pipeline.nextWork() {
                        let result = ElementParser.parsePiece(
                            ring.bytes(of: piece), file: file, filter: filter, limits: limits, step: Self.chunkSize)
                        pipeline.finish(piece, result: result)
                    }
                }
            }
        }
        defer { pipeline.stop() }

        let sequential = ElementParser(file: file, filter: filter, limits: limits, form: form)
        var summary = OSMReadSummary()
        // With parsing threads: where the next piece starts in the input; the piece that would
        // directly follow the sequential parser's input, and where the first piece parsed apart
        // after that input starts.
        var position = TextPosition()
        var nextSequentialIndex = 0
        var sequentialEnd = TextPosition()
        // Set when the sequential parser does not stand where a cut it ended at should leave
        // it: the text there is malformed, and every piece from then on is parsed in order, so
        // that the error is the one a sequential read reports.
        var inOrder = false
        while true {
            switch pipeline.nextItem() {
            case .failure(let error):
                throw error
            case .end(let inputBytes, let xmlBytes):
                summary.addElements(of: sequential.summary)
                summary.inputBytes = inputBytes
                summary.xmlBytes = xmlBytes
                return summary
            case .work(let piece):
                let bytes = ring.bytes(of: piece)
                if parsesApart && piece.parallel && !inOrder && piece.index == nextSequentialIndex {
                    inOrder = !sequential.standsBetweenTopLevelElements
                }
                if parsesApart && piece.parallel && !inOrder {
                    if piece.index == nextSequentialIndex { sequentialEnd = position }
                    let result =
                        parallel
                        ? pipeline.result(of: piece)
                        : ElementParser.parsePiece(
                            bytes, file: file, filter: filter, limits: limits, step: Self.chunkSize)
                    if let error = result.error { throw error.placed(in: position) }
                    result.batch.forEachElement(lineOffset: position.line - 1) { handler.handle($0) }
                    summary.addElements(of: result.summary)
                    summary.parallelPieces += 1
                    position = result.end.placed(in: position)
                } else {
                    // A parsing thread may still read the piece's buffer.
                    if parallel && piece.parallel { _ = pipeline.result(of: piece) }
                    if piece.index != nextSequentialIndex {
                        // Pieces parsed apart came between: this parser's text skips them.
                        sequential.origin = PositionOrigin(
                            parser: sequential.origin.parserPosition(at: sequentialEnd), input: position)
                    }
                    try sequential.parse(bytes, step: Self.chunkSize)
                    if piece.isFinal {
                        try sequential.parse(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true)
                    }
                    sequential.batch.forEachElement { handler.handle($0) }
                    sequential.clearBatch()
                    summary.sequentialPieces += 1
                    nextSequentialIndex = piece.index + 1
                    if parsesApart { position.advance(over: bytes) }
                }
                pipeline.release(piece)
                progress?(OSMReadProgress(bytesRead: piece.rawBytesRead, totalBytes: totalBytes))
            }
        }
    }
}
