import CIsal
import CZlib

/// The block bytes inside `Blob` messages: passed through when raw, inflated when `zlib_data`
/// (the compression every PBF writer uses by default); lzma, lz4, zstd and the obsolete bzip2
/// are refused by name. ISA-L inflates; a blob it cannot is inflated again with zlib, whose
/// verdict and message stand (as for gzip, `IsalGzipInflater`). One per decoding thread,
/// reused from blob to blob.
final class BlobInflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let isal = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
    private var output = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private let ready: Bool

    /// An inflater whose zlib and ISA-L states are set up once and reset for each blob.
    init() {
        stream.initialize(to: z_stream())
        // 15: the largest window, zlib framing (PBF's zlib_data is a zlib stream, not gzip).
        ready = inflateInit_(stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        isal.initialize(to: inflate_state())
    }

    deinit {
        if ready { inflateEnd(stream) }
        stream.deallocate()
        isal.deallocate()
        output.deallocate()
    }

    /// The block in `blob` (a `Blob` message), valid until the next call.
    func block(in blob: UnsafeRawBufferPointer) throws(PBFError) -> UnsafeRawBufferPointer {
        var reader = WireReader(blob)
        var rawSize: Int?
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        while let field = try reader.field() {
            switch field.number {
            case 1: raw = try reader.bytes(of: field)
            case 2: rawSize = Int(Int32(truncatingIfNeeded: try reader.varint(of: field)))
            case 3: zlib = try reader.bytes(of: field)
            case 4: throw Self.unsupported("lzma")
            case 5: throw Self.unsupported("bzip2")
            case 6: throw Self.unsupported("lz4")
            case 7: throw Self.unsupported("zstd")
            default: try reader.skip(field)
            }
        }
        if let raw { return raw }
        guard let zlib else { throw .invalid("a blob with no data") }
        guard let rawSize else { throw .invalid("a zlib blob without its raw_size") }
        guard (0...PBFLimits.maxBlobBytes).contains(rawSize) else {
            throw .invalid("a blob of \(rawSize) bytes inflated, over the format's limit of \(PBFLimits.maxBlobBytes)")
        }
        return try inflate(zlib, declaredSize: rawSize)
    }

    private static func unsupported(_ compression: String) -> PBFError {
        .invalid(
            "a blob compressed with \(compression), which Spots does not read (it reads zlib and uncompressed blobs)")
    }

    /// `data` inflated, which must give exactly `declaredSize` bytes.
    private func inflate(_ data: UnsafeRawBufferPointer, declaredSize: Int) throws(PBFError) -> UnsafeRawBufferPointer {
        // One byte more than declared, to tell a blob that inflates to more.
        if output.count < declaredSize + 1 {
            output.deallocate()
            output = .allocate(byteCount: declaredSize + 1, alignment: 16)
        }
        isal_inflate_init(isal)
        isal.pointee.crc_flag = UInt32(ISAL_ZLIB)
        isal.pointee.next_in = UnsafeMutablePointer(mutating: data.baseAddress?.assumingMemoryBound(to: UInt8.self))
        isal.pointee.avail_in = UInt32(data.count)
        isal.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        isal.pointee.avail_out = UInt32(declaredSize + 1)
        if isal_inflate(isal) == ISAL_DECOMP_OK && isal.pointee.block_state == ISAL_BLOCK_FINISH
            && Int(isal.pointee.avail_out) == 1
        {
            return UnsafeRawBufferPointer(rebasing: output[..<declaredSize])
        }
        return try inflateWithZlib(data, declaredSize: declaredSize)
    }

    /// `data` inflated by zlib, which says what is wrong with a blob ISA-L could not inflate.
    private func inflateWithZlib(_ data: UnsafeRawBufferPointer, declaredSize: Int) throws(PBFError)
        -> UnsafeRawBufferPointer
    {
        guard ready else { throw .invalid("zlib could not start") }
        inflateReset(stream)
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: data.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(data.count)
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(declaredSize + 1)
        let status = CZlib.inflate(stream, Z_FINISH)
        let inflated = declaredSize + 1 - Int(stream.pointee.avail_out)
        switch status {
        case Z_STREAM_END where inflated > declaredSize:
            throw .invalid("a blob that inflates to more than the \(declaredSize) bytes declared")
        case Z_STREAM_END:
            guard inflated == declaredSize else {
                throw .invalid("a blob that inflates to \(inflated) bytes, not the \(declaredSize) declared")
            }
            return UnsafeRawBufferPointer(rebasing: output[..<inflated])
        case Z_BUF_ERROR where stream.pointee.avail_out == 0, Z_OK where stream.pointee.avail_out == 0:
            throw .invalid("a blob that inflates to more than the \(declaredSize) bytes declared")
        case Z_BUF_ERROR, Z_OK:
            throw .invalid("truncated zlib data")
        case Z_MEM_ERROR:
            throw .invalid("out of memory in zlib")
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
            throw .invalid("corrupt zlib data (\(reason))")
        }
    }
}
