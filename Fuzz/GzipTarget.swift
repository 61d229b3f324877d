// The gzip layer: `DecodedStream` over arbitrary bytes (gzip when they start with its magic),
// read three times: by ISA-L (zlib reading a failed member again) with a small output buffer
// whose size the input picks and with a large one, and by zlib alone with the large one. All
// must give the same bytes (compared by CRC-32 and count) before the same error, at the same
// offset.
// Scripts/fuzz compiles this file with Fuzz/DecodedBytes.swift and Sources/OSMInput into one
// module.

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
