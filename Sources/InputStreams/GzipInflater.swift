import CZlib

/// Streams the members of a gzip file through zlib's inflate, one after another, in bounded memory.
final class GzipInflater: InflatedBytes {
    private static let inputCapacity = 256 * 1024
    private let file: InputFile
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: inputCapacity, alignment: 16)
    /// Offset in the file of `input`'s first byte, and how many bytes `input` holds.
    private var inputOffset = 0
    private var inputCount = 0
    private var fileEnded = false
    private var memberOpen = true
    private var finished = false
    /// An error met after some bytes of a read: thrown by the next read, once they are handled.
    private var pendingError: OSMInputError?

    /// Starts inflating `file` from its first byte.
    init(_ file: InputFile) throws(OSMInputError) {
        self.file = file
        inputOffset = file.position
        stream.initialize(to: z_stream())
        stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = 0
        // 15 + 16: the largest window, gzip framing only.
        guard inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw OSMInputError(.io, file: file.name, "cannot start zlib")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    var rawBytesRead: Int { file.bytesRead }

    /// Fills `output` with inflated bytes; returns 0 after the last member (`InflatedBytes`).
    func read(into output: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        if let pendingError { throw pendingError }
        let capacity = UInt32(min(output.count, Int(UInt32.max)))
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = capacity
        do throws(OSMInputError) {
            try inflateSome(capacity: capacity)
        } catch {
            guard stream.pointee.avail_out < capacity else { throw error }
            pendingError = error
        }
        return Int(capacity - stream.pointee.avail_out)
    }

    /// Inflates into the output set up in `stream` until some bytes are there or the input ends.
    private func inflateSome(capacity: UInt32) throws(OSMInputError) {
        while !finished && stream.pointee.avail_out == capacity {
            if stream.pointee.avail_in == 0 && !fileEnded { try refill() }
            if !memberOpen {
                if stream.pointee.avail_in == 0 {  // the input ended after a whole member
                    finished = true
                    break
                }
                inflateReset(stream)
                memberOpen = true
            }
            // Called even when the input has ended: zlib may still hold output, or an error, for
            // input it has taken in (a small `output` leaves them there).
            switch inflate(stream, Z_NO_FLUSH) {
            case Z_STREAM_END: memberOpen = false
            case Z_OK: break
            case Z_BUF_ERROR:  // no progress: zlib needs more input
                if stream.pointee.avail_in == 0 && fileEnded {
                    throw OSMInputError(.malformed, file: file.name, at: .byte(file.bytesRead), "truncated gzip stream")
                }
            case Z_MEM_ERROR: throw OSMInputError(.io, file: file.name, "out of memory in zlib")
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                let offset = inputOffset + inputCount - Int(stream.pointee.avail_in)
                throw OSMInputError(.malformed, file: file.name, at: .byte(offset), "corrupt gzip data (\(reason))")
            }
        }
    }

    private func refill() throws(OSMInputError) {
        inputOffset += inputCount
        inputCount = try file.read(into: input)
        fileEnded = inputCount == 0
        stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(inputCount)
    }
}
