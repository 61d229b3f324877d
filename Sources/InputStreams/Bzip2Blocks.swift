/// The bit-level layout of bzip2, read without decoding: where blocks start and streams end.
///
/// A bzip2 file is one or more streams, each `BZh` and a level digit (the block size in
/// 100 kB), then blocks, each starting with the 48-bit magic 0x314159265359 and its data's
/// CRC-32, then the 48-bit end magic 0x177245385090 and the stream's combined CRC, padded to a
/// byte. Blocks are not byte-aligned, but each decodes on its own: copied out behind a
/// stream header, with an end magic and its own CRC as the combined one, a block is a bzip2
/// stream libbz2 reads (what bzip2recover does). So every bzip2 file, from bzip2, lbzip2 or
/// pbzip2, one stream or many, decodes on every core, block by block.
enum Bzip2Magic: UInt64 {
    /// Starts a block.
    case block = 0x3141_5926_5359
    /// Ends a stream.
    case end = 0x1772_4538_5090

    /// For each value of the second byte of an 8-byte window, the bit shifts (bits 0 to 7:
    /// block magic, 8 to 15: end magic) at which a magic starting in the window's first byte
    /// has that second byte: a quick filter before the full compare.
    static let candidates: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 256)
        for (kind, magic) in [(0, block), (1, end)] {
            for shift in 0..<8 {
                let second = ((magic.rawValue << UInt64(16 - shift)) >> 48) & 0xFF
                table[Int(second)] |= 1 << UInt16(kind * 8 + shift)
            }
        }
        return table
    }()
}

/// A run of bits in a byte array, read big-endian as bzip2 writes them.
struct BitReader {
    let bytes: [UInt8]

    /// The `count` bits (at most 57) from bit `offset`; bits past the end read as 0.
    func bits(at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        let first = offset >> 3
        for index in first..<first + 8 { value = value << 8 | UInt64(index < bytes.count ? bytes[index] : 0) }
        return (value << UInt64(offset & 7)) >> UInt64(64 - count)
    }

    /// The first magic starting at bit `from` or later whose 48 bits lie wholly before bit
    /// `limit`, and where.
    func nextMagic(from: Int, before limit: Int) -> (bit: Int, magic: Bzip2Magic)? {
        var byte = from >> 3
        while byte * 8 + 48 <= limit {
            let mask = Bzip2Magic.candidates[Int(byte + 1 < bytes.count ? bytes[byte + 1] : 0)]
            if mask != 0 {
                for shift in 0..<8 where mask & (1 << shift | 1 << (shift + 8)) != 0 {
                    let bit = byte * 8 + shift
                    guard bit >= from, bit + 48 <= limit else { continue }
                    if let magic = Bzip2Magic(rawValue: bits(at: bit, count: 48)) { return (bit, magic) }
                }
            }
            byte += 1
        }
        return nil
    }
}

/// Bits appended to a byte array, big-endian.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    /// Appends the low `count` bits of `value` (at most 57).
    mutating func append(_ value: UInt64, bits count: Int) {
        var remaining = count
        while remaining > 0 {
            if bitCount & 7 == 0 { bytes.append(0) }
            let room = 8 - bitCount & 7
            let take = min(room, remaining)
            let piece = UInt8(truncatingIfNeeded: value >> UInt64(remaining - take)) & UInt8((1 << take) - 1)
            bytes[bytes.count - 1] |= piece << UInt8(room - take)
            bitCount += take
            remaining -= take
        }
    }

    /// Appends `count` bits of `source` from bit `offset`.
    mutating func append(_ source: BitReader, from offset: Int, count: Int) {
        var done = 0
        while done < count {
            let take = min(56, count - done)
            append(source.bits(at: offset + done, count: take), bits: take)
            done += take
        }
    }

    /// One bzip2 block, bits `start..<end` of `source` (its magic first), as a stream of its
    /// own at `level`.
    static func stream(ofBlock source: BitReader, from start: Int, to end: Int, level: UInt8) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes.reserveCapacity((end - start) / 8 + 16)
        for byte in Array("BZh".utf8) + [level] { writer.append(UInt64(byte), bits: 8) }
        writer.append(source, from: start, count: end - start)
        writer.append(Bzip2Magic.end.rawValue, bits: 48)
        writer.append(source.bits(at: start + 48, count: 32), bits: 32)  // its CRC, as the combined one
        return writer.bytes
    }
}
