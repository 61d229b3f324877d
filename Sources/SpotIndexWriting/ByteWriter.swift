import Spots

/// Little-endian encoding into a growing byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends the low `width` bytes of `value`, low first.
    mutating func append(_ value: UInt32, width: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0.prefix(width)) }
    }

    mutating func append(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
    }

    /// Appends `value` as a LEB128 varint: seven bits a byte, low first, high bit "more".
    mutating func appendVarint(_ value: UInt32) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Pads with zeros to a multiple of `alignment`.
    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Overwrites the little-endian value at `offset`.
    mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { source in
            for (i, byte) in source.enumerated() { bytes[offset + i] = byte }
        }
    }
}

extension ByteWriter {
    /// Appends ascending ranks as a rank list (FORMAT.md): the count, then each rank less the
    /// one before and 1 (the first as it is), as varints.
    mutating func appendRankList(_ ranks: [Int]) {
        appendVarint(UInt32(ranks.count))
        var previous = -1
        for rank in ranks {
            precondition(rank > previous, "ranks must ascend")
            appendVarint(UInt32(rank - previous - 1))
            previous = rank
        }
    }
}

extension ByteWriter {
    /// Appends a box as the trees store it: west, south, east, north.
    mutating func append(_ box: GeoBox) {
        for edge in [box.westE7, box.southE7, box.eastE7, box.northE7] { append(edge) }
    }
}
