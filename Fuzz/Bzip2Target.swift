import CZlib

// The bzip2 layer: `DecodedStream` over arbitrary bytes (bzip2 when they start with its
// header), its blocks found at their magics and decoded apart, read on the caller's thread and
// on three decoding threads, with a small output buffer whose size the input picks. Both reads
// must give the same bytes (compared by CRC-32 and count) before the same error; neither may
// crash, hang or read out of bounds on a damaged stream or a magic that is not a block's.
// Scripts/fuzz compiles this file with Sources/OSMInput into one module.

/// The bytes decoded by one read, and how it ended.
private struct Decoded: Equatable {
    var count = 0
    var crc: UInt = 0
    var error: String?
}

/// The most decoded bytes compared: a tiny input can decode to megabytes.
private let decodedLimit = 1 << 20

private func decode(_ path: String, threads: Int, bufferSize: Int) -> Decoded {
    var result = Decoded()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    do throws(OSMInputError) {
        let input = try InputFile(path)
        let stream = try DecodedStream(
            input, format: InputFormat(head: try input.peek(InputFormat.headLength)), threads: threads)
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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBzip2(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let small = size > 0 ? 1 + Int(data![size - 1]) % 61 : 1
    withTemporaryFile(data, size) { path in
        let inOrder = decode(path, threads: 1, bufferSize: 1 << 16)
        let parallel = decode(path, threads: 3, bufferSize: small)
        if inOrder != parallel {
            fatalError("1 and 3 threads differ: \(inOrder) \(parallel)")
        }
    }
    return 0
}
