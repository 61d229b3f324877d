import InputStreams

/// One blob of an OSM PBF file as the reading thread read it: its place, what it holds and its
/// bytes (a `Blob` message, still compressed).
///
/// A PBF file is a sequence of blocks, each a 4-byte big-endian length, a `BlobHeader` of that
/// length (its `type` and the `datasize` of the blob after it) and a `Blob`
/// (wiki.openstreetmap.org/wiki/PBF_Format).
struct PBFBlob: PipelineWork {
    /// What the blob holds, by its header's `type`.
    enum Kind: Sendable {
        /// A `HeaderBlock`: the features a reader needs.
        case header
        /// A `PrimitiveBlock`: elements.
        case data
    }

    /// Its place among the blobs handed over, from 0.
    var index: Int
    /// The pipeline slot it holds.
    var slot: Int
    /// What it holds.
    var kind: Kind
    /// The offset in the file of its block (the header's length), for errors.
    var offset: Int
    /// The `Blob` message.
    var bytes: [UInt8]
    /// Raw bytes read from the input when it was read, for progress.
    var rawBytesRead: Int
}

/// The format's bounds on a block (PBF_Format: "The BlobHeader should be less than 32 KiB and
/// must be less than 64 KiB. The uncompressed length of a Blob should be less than 16 MiB and
/// must be less than 32 MiB.")
enum PBFLimits {
    /// The largest `BlobHeader`, in bytes.
    static let maxHeaderBytes = 64 << 10
    /// The largest `Blob`, compressed or not, in bytes.
    static let maxBlobBytes = 32 << 20
}

/// The reading thread's work for a PBF input: read each block's header and blob, and hand the
/// blobs over in order; blobs of a type other than `OSMHeader` and `OSMData` are skipped, as
/// the format asks.
struct BlobProducer {
    let input: InputFile
    let pipeline: ReadPipeline<PBFBlob, BlobResult>
    /// Whether the blobs go to decoding threads (else the caller decodes each).
    let parallel: Bool

    func run() {
        var index = 0
        do throws(OSMInputError) {
            while let (kind, offset, bytes) = try nextBlob() {
                guard let kind else { continue }
                guard let slot = pipeline.acquireSlot() else { return }
                let blob = PBFBlob(
                    index: index, slot: slot, kind: kind, offset: offset, bytes: bytes, rawBytesRead: input.bytesRead)
                index += 1
                pipeline.publish(.work(blob), toWorkers: parallel)
            }
            pipeline.publish(.end(inputBytes: input.bytesRead, decodedBytes: 0), toWorkers: false)
        } catch {
            pipeline.publish(.failure(error), toWorkers: false)
        }
    }

    /// The next block's kind (nil for a type that is skipped), offset and blob; nil at the end.
    private func nextBlob() throws(OSMInputError) -> (PBFBlob.Kind?, Int, [UInt8])? {
        let offset = input.bytesRead
        let length = try read(4)
        guard !length.isEmpty else { return nil }
        guard length.count == 4 else { throw error(at: offset, "truncated block length") }
        let headerSize = length.reduce(0) { $0 << 8 | Int($1) }
        guard headerSize <= PBFLimits.maxHeaderBytes else {
            throw error(
                at: offset, "BlobHeader of \(headerSize) bytes, over the format's limit of \(PBFLimits.maxHeaderBytes)")
        }
        let headerBytes = try readWhole(headerSize, at: offset, what: "BlobHeader")
        let header: (type: [UInt8], size: Int)
        switch headerBytes.withUnsafeBytes({ bytes in Result { () throws(PBFError) in try Self.blobHeader(bytes) } }) {
        case .success(let value): header = value
        case .failure(let problem): throw error(at: offset, "bad BlobHeader (\(problem.description))")
        }
        guard header.size >= 0 else { throw error(at: offset, "BlobHeader without a datasize") }
        guard header.size <= PBFLimits.maxBlobBytes else {
            throw error(
                at: offset, "blob of \(header.size) bytes, over the format's limit of \(PBFLimits.maxBlobBytes)")
        }
        let blob = try readWhole(header.size, at: offset, what: "blob")
        let kind: PBFBlob.Kind? =
            switch String(decoding: header.type, as: UTF8.self) {
            case "OSMHeader": .header
            case "OSMData": .data
            default: nil
            }
        return (kind, offset, blob)
    }

    /// The `type` and `datasize` (-1 when absent) of a `BlobHeader`.
    private static func blobHeader(_ bytes: UnsafeRawBufferPointer) throws(PBFError) -> (type: [UInt8], size: Int) {
        var reader = WireReader(bytes)
        var type: [UInt8] = []
        var size = -1
        while let field = try reader.field() {
            switch field.number {
            case 1: type = Array(try reader.bytes(of: field))
            case 3: size = Int(Int32(truncatingIfNeeded: try reader.varint(of: field)))
            default: try reader.skip(field)
            }
        }
        return (type, size)
    }

    /// The next `count` bytes of the input, fewer only at its end.
    private func read(_ count: Int) throws(OSMInputError) -> [UInt8] {
        var failure: OSMInputError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(OSMInputError) {
                initialized = try input.readFully(into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// The next `count` bytes of the block at `offset`: all of them, or an error naming `what`.
    private func readWhole(_ count: Int, at offset: Int, what: String) throws(OSMInputError) -> [UInt8] {
        let bytes = try read(count)
        guard bytes.count == count else {
            throw error(at: offset, "truncated \(what): \(bytes.count) of \(count) bytes")
        }
        return bytes
    }

    private func error(at offset: Int, _ message: String) -> OSMInputError {
        OSMInputError(.malformed, file: input.name, at: .byte(offset), message)
    }
}
