import CIsal
import CZlib

/// Inflates whole zlib streams (RFC 1950) whose inflated size is declared beforehand: PBF's
/// `zlib_data` blobs, the compression every PBF writer uses by default. ISA-L inflates; a
/// stream it cannot is inflated again with zlib, whose verdict and message stand (as for gzip,
/// `IsalGzipInflater`). One per decoding thread, reused from stream to stream: its output
/// buffer grows to the largest stream and is valid until the next call.
public final class ZlibBlockInflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let isal = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
    private var output = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private let ready: Bool

    /// Why a stream could not be inflated to its declared size, in a few words (the caller
    /// names the container: "bad OSMData block: …").
    public struct Failure: Error {
        /// What is wrong.
        public let message: String
    }

    /// An inflater whose zlib and ISA-L states are set up once and reset for each stream.
    public init() {
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

    /// `data` inflated, which must give exactly `declaredSize` bytes; valid until the next call.
    public func inflate(_ data: UnsafeRawBufferPointer, declaredSize: Int) throws(Failure) -> UnsafeRawBufferPointer {
        // One byte more than declared, to tell a stream that inflates to more.
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

    /// `data` inflated by zlib, which says what is wrong with a stream ISA-L could not inflate.
    private func inflateWithZlib(_ data: UnsafeRawBufferPointer, declaredSize: Int) throws(Failure)
        -> UnsafeRawBufferPointer
    {
        guard ready else { throw Failure(message: "zlib could not start") }
        inflateReset(stream)
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: data.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(data.count)
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(declaredSize + 1)
        let status = CZlib.inflate(stream, Z_FINISH)
        let inflated = declaredSize + 1 - Int(stream.pointee.avail_out)
        let tooLong = Failure(message: "a blob that inflates to more than the \(declaredSize) bytes declared")
        switch status {
        case Z_STREAM_END where inflated > declaredSize:
            throw tooLong
        case Z_STREAM_END:
            guard inflated == declaredSize else {
                throw Failure(message: "a blob that inflates to \(inflated) bytes, not the \(declaredSize) declared")
            }
            return UnsafeRawBufferPointer(rebasing: output[..<inflated])
        case Z_BUF_ERROR where stream.pointee.avail_out == 0, Z_OK where stream.pointee.avail_out == 0:
            throw tooLong
        case Z_BUF_ERROR, Z_OK:
            throw Failure(message: "truncated zlib data")
        case Z_MEM_ERROR:
            throw Failure(message: "out of memory in zlib")
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
            throw Failure(message: "corrupt zlib data (\(reason))")
        }
    }
}
