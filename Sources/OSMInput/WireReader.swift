/// Why PBF bytes could not be decoded: the protobuf wire format broken, or a value that OSM PBF
/// does not allow.
enum PBFError: Error, Equatable {
    /// A value runs past the end of its message.
    case truncated
    /// A varint longer than ten bytes, or over 64 bits.
    case badVarint
    /// A field of a wire type that protobuf no longer uses (groups) or does not define.
    case badWireType(UInt64)
    /// A known field with the wrong wire type (a varint where bytes belong, say).
    case unexpectedWireType(field: Int)
    /// Well-formed protobuf that breaks a rule of OSM PBF or a reader limit, in a few words.
    case invalid(String)

    /// A few words for an error message.
    var description: String {
        switch self {
        case .truncated: "truncated data"
        case .badVarint: "bad varint"
        case .badWireType(let type): "unknown wire type \(type)"
        case .unexpectedWireType(let field): "field \(field) has the wrong wire type"
        case .invalid(let message): message
        }
    }
}

/// A protobuf wire type: how a field's value is laid out.
enum WireType: UInt64 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// One field's key: its number and wire type.
struct WireField {
    /// The field number of the .proto message.
    var number: Int
    /// How its value is laid out.
    var type: WireType
}

/// A cursor over protobuf wire-format bytes (protobuf.dev, "Encoding"): varints, field keys and
/// length-delimited values. OSM PBF's messages are few and fixed, so the reader decodes them
/// directly with this, no generated code.
///
/// The unsafe reads of the PBF reader live here. Invariant: `next <= end`, both in the one
/// buffer the reader was made over, which outlives it; every read checks that it stays within
/// `end` and throws `PBFError` if not, so damaged bytes are refused where a read would leave
/// the buffer, never read past it.
struct WireReader {
    private var next: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>

    /// A reader of `bytes`, which must outlive it.
    init(_ bytes: UnsafeRawBufferPointer) {
        // An empty buffer may have no address; any non-null pointer then stands for it, never read.
        let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
        next = start
        end = start + bytes.count
    }

    /// A reader of nothing: every read of a value throws `.truncated`.
    static var empty: WireReader { WireReader(UnsafeRawBufferPointer(start: nil, count: 0)) }

    /// Whether every byte has been read.
    var isAtEnd: Bool { next == end }

    /// Bytes left to read.
    var remaining: Int { end - next }

    /// The next varint.
    @inline(__always)
    mutating func varint() throws(PBFError) -> UInt64 {
        guard next < end else { throw .truncated }
        let first = next.pointee
        if first < 0x80 {
            next += 1
            return UInt64(first)
        }
        return end - next >= 10 ? try longVarint() : try varintNearEnd()
    }

    /// A varint of two bytes or more with at least ten bytes left, the most a varint takes:
    /// read without checking the end at each byte.
    private mutating func longVarint() throws(PBFError) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<10 {
            let byte = next[index]
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte < 0x80 {
                // The tenth byte holds the 64th bit alone.
                guard index < 9 || byte <= 1 else { throw .badVarint }
                next += index + 1
                return value
            }
        }
        throw .badVarint
    }

    /// A varint within ten bytes of the end, each byte checked against it.
    private mutating func varintNearEnd() throws(PBFError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard next < end else { throw .truncated }
            let byte = next.pointee
            next += 1
            guard shift < 63 || byte <= 1 else { throw .badVarint }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// Reads a varint 0 if it comes next (a dense node without tags ends its `keys_vals` so);
    /// returns whether it did.
    @inline(__always)
    mutating func skipZero() -> Bool {
        guard next < end && next.pointee == 0 else { return false }
        next += 1
        return true
    }

    /// The next varint as a zigzag-encoded signed number (`sint32`, `sint64`).
    @inline(__always)
    mutating func signedVarint() throws(PBFError) -> Int64 {
        let value = try varint()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// The next field's key, or nil at the end of the message.
    mutating func field() throws(PBFError) -> WireField? {
        guard !isAtEnd else { return nil }
        let key = try varint()
        guard let type = WireType(rawValue: key & 7) else { throw .badWireType(key & 7) }
        // Field numbers are below 2^29; a larger key is damage, refused as a bad varint.
        guard key >> 3 < 1 << 29 else { throw .badVarint }
        return WireField(number: Int(key >> 3), type: type)
    }

    /// The value of `field`, which must be a varint.
    mutating func varint(of field: WireField) throws(PBFError) -> UInt64 {
        guard field.type == .varint else { throw .unexpectedWireType(field: field.number) }
        return try varint()
    }

    /// The bytes of `field`, which must be length-delimited (a string, bytes, a message or a
    /// packed repeated field).
    mutating func bytes(of field: WireField) throws(PBFError) -> UnsafeRawBufferPointer {
        guard field.type == .lengthDelimited else { throw .unexpectedWireType(field: field.number) }
        let length = try varint()
        guard length <= UInt64(remaining) else { throw .truncated }
        let bytes = UnsafeRawBufferPointer(start: next, count: Int(length))
        next += Int(length)
        return bytes
    }

    /// A reader of `field`'s bytes (a message or a packed repeated field).
    mutating func reader(of field: WireField) throws(PBFError) -> WireReader {
        WireReader(try bytes(of: field))
    }

    /// Skips the value of `field`, a field this reader does not use.
    mutating func skip(_ field: WireField) throws(PBFError) {
        switch field.type {
        case .varint: _ = try varint()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .lengthDelimited: _ = try bytes(of: field)
        }
    }

    private mutating func advance(_ count: Int) throws(PBFError) {
        guard count <= remaining else { throw .truncated }
        next += count
    }
}
