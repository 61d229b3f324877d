/// CRC-32 as zlib computes it (the IEEE 802.3 polynomial, reflected), table-driven, so that the
/// index reader needs no zlib where apps embed it. Tests check it against zlib's `crc32`.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { byte in
        var value = UInt32(byte)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
            }
        }
        return ~value
    }
}
