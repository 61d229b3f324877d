import InputStreams

/// Reading OSM PBF: the same elements, filter, limits and order as XML, from blobs decoded on
/// every core.
///
/// As for XML, the stages run on separate threads: the reading thread reads each block's
/// header and blob (`BlobProducer`), `threads` decoding threads each inflate a blob and decode
/// its elements into a batch (`BlobDecoder`), and the caller's thread hands the batches to the
/// handler in input order. With one thread the caller's thread decodes. The handler sees the
/// same elements in the same order whatever the thread count, and the first damaged blob in
/// input order is the error reported.
extension OSMReader {
    /// Reads `input`, a PBF file; `read(into:progress:rawBytes:)` says what the callbacks get.
    func readPBF<Handler: OSMElementHandler>(
        _ input: InputFile, into handler: inout Handler, progress: ((OSMReadProgress) -> Void)?
    ) throws(OSMInputError) -> OSMReadSummary {
        let parallel = threads > 1
        let pipeline = ReadPipeline<PBFBlob, BlobResult>(slots: Self.ringSlots(threads: threads))
        // The reading thread owns the input from here on.
        let producer = Handover(value: BlobProducer(input: input, pipeline: pipeline, parallel: parallel))
        let totalBytes = input.size
        pipeline.spawn { producer.value.run() }
        if parallel {
            for _ in 0..<threads {
                pipeline.spawn { [file, filter, limits] in
                    let decoder = BlobDecoder(file: file, filter: filter, limits: limits)
                    while let blob = pipeline.nextWork() { pipeline.finish(blob, result: decoder.decode(blob)) }
                }
            }
        }
        defer { pipeline.stop() }

        let decoder = parallel ? nil : BlobDecoder(file: file, filter: filter, limits: limits)
        var summary = OSMReadSummary()
        var decodedBytes = 0
        while true {
            switch pipeline.nextItem() {
            case .failure(let error):
                throw error
            case .end(let inputBytes, _):
                summary.inputBytes = inputBytes
                summary.xmlBytes = decodedBytes
                return summary
            case .work(let blob):
                let result = decoder?.decode(blob) ?? pipeline.result(of: blob)
                pipeline.release(blob)
                if let error = result.error { throw error }
                result.batch.forEachElement { handler.handle($0) }
                summary.addElements(of: result.summary)
                if blob.kind == .data { summary.pbfBlocks += 1 }
                decodedBytes += result.decodedBytes
                progress?(OSMReadProgress(bytesRead: blob.rawBytesRead, totalBytes: totalBytes))
            }
        }
    }
}

/// What decoding one blob gave: its elements, or the error that stopped it.
struct BlobResult {
    /// The elements the filter keeps, in order.
    var batch = ElementBatch()
    /// What the blob held.
    var summary = OSMReadSummary()
    /// Bytes of the block after inflating.
    var decodedBytes = 0
    /// Why the blob could not be decoded.
    var error: OSMInputError?
}

/// A decoding thread's tools: a zlib inflater and a block decoder, reused from blob to blob.
final class BlobDecoder {
    private let file: String
    private let inflater = BlobInflater()
    private var decoder: PrimitiveBlockDecoder

    /// A decoder of `file`'s blobs keeping what `filter` asks for, within `limits`.
    init(file: String, filter: OSMElementFilter, limits: OSMReadLimits) {
        self.file = file
        decoder = PrimitiveBlockDecoder(filter: filter, limits: limits)
    }

    /// `blob` decoded: a header is checked for the features it requires and gives the time its
    /// data was current; a data blob gives its elements.
    func decode(_ blob: PBFBlob) -> BlobResult {
        var result = BlobResult()
        blob.bytes.withUnsafeBytes { bytes in
            do throws(PBFError) {
                let block = try inflater.block(in: bytes)
                result.decodedBytes = block.count
                switch blob.kind {
                case .header:
                    let header = try PBFHeader(block)
                    try header.checkFeatures()
                    result.summary.newestTimestamp = header.replicationTimestamp.flatMap { iso8601(seconds: $0) }
                case .data:
                    try decoder.decode(block)
                    result.summary = decoder.summary
                    swap(&result.batch, &decoder.batch)
                }
            } catch {
                let name = blob.kind == .header ? "OSMHeader" : "OSMData"
                result.error = OSMInputError(
                    .malformed, file: file, at: .byte(blob.offset), "bad \(name) block: \(error.description)")
            }
        }
        return result
    }
}
