import CZlib
import InputStreams

// What the gzip and bzip2 targets share: a `DecodedStream` read to its end (or its error),
// summed up by CRC-32 and count, for reads with different engines, threads and buffer sizes to
// be compared. Scripts/fuzz compiles this file into those two targets.

/// The bytes decoded by one read, and how it ended.
struct Decoded: Equatable {
    var count = 0
    var crc: UInt = 0
    var error: String?
}

/// The most decoded bytes compared: a tiny input can decode to megabytes.
let decodedLimit = 1 << 20

/// `path` read through a `DecodedStream` in reads of `bufferSize` bytes.
func decode(_ path: String, bufferSize: Int, threads: Int = 1, engine: GzipEngine = .fastest) -> Decoded {
    var result = Decoded()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    do throws(OSMInputError) {
        let input = try InputFile(path)
        let format = InputFormat(head: try input.peek(InputFormat.headLength))
        let compression: Compression = if case .xml(let compression) = format { compression } else { .none }
        let stream = try DecodedStream(input, compression: compression, threads: threads, gzip: engine)
        while result.count < decodedLimit {
            let wanted = min(bufferSize, decodedLimit - result.count)
            let count = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
            if count == 0 { break }
            result.crc = crc32(result.crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), UInt32(count))
            result.count += count
        }
    } catch {
        result.error = error.description
    }
    return result
}
