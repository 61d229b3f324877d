// Encodings, written from FORMAT.md independently of the writer.

extension Array where Element == UInt8 {
    /// The little-endian integer at `offset`.
    func load<T: FixedWidthInteger>(_ type: T.Type = T.self, at offset: Int) -> T {
        var value: T = 0
        for i in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(truncatingIfNeeded: self[offset + i]) }
        return value
    }

    /// Writes `value` little-endian at `offset`.
    mutating func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        for i in 0..<MemoryLayout<T>.size { self[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }
}

/// Little-endian 32-bit words.
func le32(_ values: [UInt32]) -> [UInt8] {
    values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}

/// Little-endian 32-bit words.
func le32(_ values: UInt32...) -> [UInt8] { le32(values) }

/// `value` as an unsigned LEB128 varint.
func varint(_ value: Int) -> [UInt8] {
    precondition(value >= 0 && value <= Int(UInt32.max))
    var bytes: [UInt8] = []
    var rest = value
    repeat {
        bytes.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
        rest >>= 7
    } while rest > 0
    return bytes
}

/// Strictly ascending `ranks` as a rank list: the count, the first rank, then each gap less 1.
func rankList(_ ranks: [Int]) -> [UInt8] {
    var previous = -1
    return varint(ranks.count)
        + ranks.flatMap { rank in
            defer { previous = rank }
            return varint(rank - previous - 1)
        }
}

/// A departure from FORMAT.md found by the tests' own decoder.
struct FormatViolation: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads the encodings of FORMAT.md from bytes, never past `end`, throwing `FormatViolation`
/// where they are broken.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], from position: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = position
        self.end = end ?? bytes.count
    }

    var isAtEnd: Bool { position == end }

    /// An unsigned LEB128 varint of at most 32 bits.
    mutating func varint() throws -> Int {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            guard position < end else { throw FormatViolation("a varint at \(position) runs past \(end)") }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 {
                guard value <= UInt64(UInt32.max) else {
                    throw FormatViolation("a varint at \(position) is over 32 bits")
                }
                return Int(value)
            }
        }
        throw FormatViolation("a varint at \(position) is longer than 5 bytes")
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= end - position else {
            throw FormatViolation("\(count) bytes at \(position) run past \(end)")
        }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// A little-endian 32-bit word.
    mutating func word() throws -> UInt32 { try take(4).load(at: 0) }
}

/// Decodes a rank list that fills `bytes` exactly; its ranks ascend strictly by construction.
func decodeRankList(_ bytes: [UInt8]) throws -> [Int] {
    var cursor = ByteCursor(bytes)
    let count = try cursor.varint()
    var ranks: [Int] = []
    var previous = -1
    for _ in 0..<count {
        previous += try cursor.varint() + 1
        ranks.append(previous)
    }
    guard cursor.isAtEnd else {
        throw FormatViolation("a rank list of \(count) ranks has \(bytes.count - cursor.position) bytes left over")
    }
    return ranks
}
