import CZlib

// The gzip layer: `DecodedStream` over arbitrary bytes (gzip when they start with its magic),
// read three times: by ISA-L (zlib reading a failed member again) with a small output buffer
// whose size the input picks and with a large one, and by zlib alone with the large one. All
// must give the same bytes (compared by CRC-32 and count) before the same error, at the same
// offset.
// Scripts/fuzz compiles this file with Sources/OSMInput into one module.

/// The bytes inflated from one read, and how it ended.
private struct Decoded: Equatable {
    var count = 0
    var crc: UInt = 0
    var error: String?
}

/// The most inflated bytes compared: a tiny input can inflate to megabytes.
private let inflatedLimit = 1 << 20

private func decode(_ path: String, bufferSize: Int, engine: GzipEngine = .fastest) -> Decoded {
    var result = Decoded()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    do throws(OSMInputError) {
        let input = try InputFile(path)
        let stream = try DecodedStream(
            input, format: InputFormat(head: try input.peek(InputFormat.headLength)), gzip: engine)
        while result.count < inflatedLimit {
            let wanted = min(bufferSize, inflatedLimit - result.count)
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
public func fuzzGzip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let small = size > 0 ? 1 + Int(data![size - 1]) % 61 : 1
    withTemporaryFile(data, size) { path in
        let bySmallReads = decode(path, bufferSize: small)
        let byLargeReads = decode(path, bufferSize: 1 << 16)
        let byZlib = decode(path, bufferSize: 1 << 16, engine: .zlib)
        if bySmallReads != byLargeReads || byLargeReads != byZlib {
            fatalError("reads differ: \(small) bytes \(bySmallReads), 65536 \(byLargeReads), zlib \(byZlib)")
        }
    }
    return 0
}
