#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A run of UTF-8 bytes from the input (a tag key, a tag value, an attribute), valid only
/// while the handler that received it runs. Compare it as bytes; make a `String` only for
/// what is kept.
public struct OSMBytes {
    /// The bytes.
    public let buffer: UnsafeBufferPointer<UInt8>

    /// A view of `buffer`.
    public init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The bytes of a NUL-terminated C string (one of expat's names and values), the NUL left out.
    init(cString: UnsafePointer<CChar>) {
        let count = strlen(cString)
        self.init(
            UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// The bytes as a String.
    public var string: String { String(decoding: buffer, as: UTF8.self) }

    /// Whether the bytes are exactly `text`'s.
    @inlinable @inline(__always)
    public func equals(_ text: StaticString) -> Bool {
        buffer.count == text.utf8CodeUnitCount
            && memoryEquals(buffer.baseAddress, text.utf8Start, count: buffer.count)
    }

    /// Whether the bytes start with `text`'s.
    @inlinable
    public func hasPrefix(_ text: StaticString) -> Bool {
        buffer.count >= text.utf8CodeUnitCount
            && memoryEquals(buffer.baseAddress, text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// The bytes as a whole number (an OSM id or version), or nil when they are not one or it
    /// does not fit in 64 bits. The one integer reader of OSM XML: both of its paths read ids,
    /// versions and references through it (`ElementAttributes`, `ChildAttributes`).
    public var int64: Int64? {
        // Fast path: a plain run of up to 18 digits (every id and version) cannot overflow.
        if buffer.count > 0 && buffer.count <= 18 {
            var value: Int64 = 0
            for byte in buffer {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return signedInt64 }
                value = value &* 10 &+ Int64(digit)
            }
            return value
        }
        return signedInt64
    }

    /// `[+-]digits`, checked for overflow.
    private var signedInt64: Int64? {
        var index = 0
        let negative = buffer.first == UInt8(ascii: "-")
        if negative || buffer.first == UInt8(ascii: "+") { index = 1 }
        guard index < buffer.count else { return nil }
        var value: Int64 = 0
        while index < buffer.count {
            let digit = buffer[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? shifted.subtractingReportingOverflow(Int64(digit)) : shifted.addingReportingOverflow(Int64(digit))
            guard !overflow1 && !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The bytes as a coordinate in degrees × 10^7, rounded half away from zero when more than
    /// seven decimals are given; nil when they are not a finite number or it does not fit in Int32.
    /// Plain decimals are read without floating point; other spellings (an exponent) via Double.
    public var fixedPointE7: Int32? {
        if let exact = plainDecimalE7 { return exact }
        guard let degrees = Double(string), degrees.isFinite else { return nil }
        let scaled = (degrees * 1e7).rounded(.toNearestOrAwayFromZero)
        return abs(scaled) <= Double(Int32.max) ? Int32(scaled) : nil
    }

    /// `[+-]digits[.digits]` (or `.digits`) read exactly; nil for any other spelling.
    private var plainDecimalE7: Int32? {
        var index = 0
        let negative = buffer.first == UInt8(ascii: "-")
        if negative || buffer.first == UInt8(ascii: "+") { index = 1 }
        var magnitude: Int64 = 0
        var digits = 0
        while index < buffer.count, case let digit = buffer[index] &- UInt8(ascii: "0"), digit < 10 {
            magnitude = magnitude * 10 + Int64(digit)
            guard magnitude <= Int64(Int32.max) else { return nil }
            digits += 1
            index += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        if index < buffer.count && buffer[index] == UInt8(ascii: ".") {
            index += 1
            while index < buffer.count, case let digit = buffer[index] &- UInt8(ascii: "0"), digit < 10 {
                if fractionDigits < 7 {
                    fraction = fraction * 10 + Int64(digit)
                } else if fractionDigits == 7 {
                    roundUp = digit >= 5
                }
                fractionDigits += 1
                index += 1
            }
        }
        guard index == buffer.count, digits + fractionDigits > 0 else { return nil }
        for _ in min(fractionDigits, 7)..<7 { fraction *= 10 }
        let value = magnitude * 10_000_000 + fraction + (roundUp ? 1 : 0)
        guard value <= Int64(Int32.max) else { return nil }
        return Int32(negative ? -value : value)
    }
}

/// Byte equality of two runs, without allocation.
@inlinable @inline(__always)
func memoryEquals(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    guard let a else { return count == 0 }
    for i in 0..<count where a[i] != b[i] { return false }
    return true
}
