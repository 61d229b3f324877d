// The bzip2 layer: `DecodedStream` over arbitrary bytes (bzip2 when they start with its
// header), its blocks found at their magics and decoded apart, read on the caller's thread and
// on three decoding threads, with a small output buffer whose size the input picks. Both reads
// must give the same bytes (compared by CRC-32 and count) before the same error; neither may
// crash, hang or read out of bounds on a damaged stream or a magic that is not a block's.
// Scripts/fuzz compiles this file with Fuzz/DecodedBytes.swift and Sources/OSMInput into one
// module.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBzip2(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let small = size > 0 ? 1 + Int(data![size - 1]) % 61 : 1
    withTemporaryFile(data, size) { path in
        let inOrder = decode(path, bufferSize: 1 << 16, threads: 1)
        let parallel = decode(path, bufferSize: small, threads: 3)
        if inOrder != parallel {
            fatalError("1 and 3 threads differ: \(inOrder) \(parallel)")
        }
    }
    return 0
}
