import CZlib
import SeededRandom
import SpotIndex
import Testing

@Suite("CRC32")
struct CRC32Tests {
    static func ours(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { CRC32.checksum($0, continuing: crc) }
    }

    @Test("the checksum of no bytes is 0, as zlib gives")
    func empty() {
        #expect(Self.ours([]) == 0)
        #expect(Self.ours([]) == zlibCRC32([UInt8]()))
        #expect(CRC32.checksum(UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
        #expect(Self.ours([], continuing: 0xDEAD_BEEF) == 0xDEAD_BEEF)
    }

    @Test("the checksum of \"123456789\" is the standard check value 0xCBF43926")
    func checkValue() {
        let bytes = Array("123456789".utf8)
        #expect(Self.ours(bytes) == 0xCBF4_3926)
        #expect(zlibCRC32(bytes) == 0xCBF4_3926)
    }

    @Test("known vectors: one zero byte, all-ones bytes, a sentence")
    func knownVectors() {
        #expect(Self.ours([0]) == 0xD202_EF8D)
        #expect(Self.ours([0xFF, 0xFF, 0xFF, 0xFF]) == 0xFFFF_FFFF)
        #expect(Self.ours(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test(
        "random buffers of assorted sizes give zlib's checksum",
        arguments: [1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 63, 64, 255, 256, 1000, 4096, 65_537])
    func matchesZlib(size: Int) {
        var random = SplitMix64(seed: 0xC3C3_0000 &+ UInt64(size))
        for _ in 0..<8 {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(Self.ours(bytes) == zlibCRC32(bytes), "size \(size)")
        }
    }

    @Test("continuing from a previous checksum equals the checksum of the joined bytes, as with zlib")
    func continuing() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            let split = Int.random(in: 0...bytes.count, using: &random)
            let head = Array(bytes[..<split])
            let tail = Array(bytes[split...])
            let whole = zlibCRC32(bytes)
            #expect(Self.ours(tail, continuing: Self.ours(head)) == whole)
            #expect(zlibCRC32(tail, continuing: zlibCRC32(head)) == whole)
            let seed = UInt32.random(in: 0...UInt32.max, using: &random)
            #expect(Self.ours(bytes, continuing: seed) == zlibCRC32(bytes, continuing: seed))
        }
    }

    @Test("a checksum over a slice of a larger buffer reads only that slice")
    func slice() {
        let bytes = Array(0...255).map(UInt8.init)
        let expected = zlibCRC32(bytes[10..<20])
        let got = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[10..<20])) }
        #expect(got == expected)
    }
}
