/// Decoding UTF-8 one scalar at a time, without trusting the bytes: a byte that does not start
/// a well-formed scalar (a stray continuation byte, a lead byte no scalar has, a sequence cut
/// short, an overlong form, a surrogate or a value past U+10FFFF) stands for itself, as a value
/// above every scalar. So a decoded scalar's bytes are its one encoding.
public enum UTF8Scalar {
    /// The scalar at `position` of `bytes` and its length in bytes.
    public static func decode(_ bytes: [UInt8], at position: Int) -> (value: UInt32, length: Int) {
        let lead = bytes[position]
        guard lead >= 0x80 else { return (UInt32(lead), 1) }
        let invalid = (value: 0x11_0000 + UInt32(lead), length: 1)
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        let continuation = position + 1..<position + length
        guard length > 1, continuation.upperBound <= bytes.count,
            bytes[continuation].allSatisfy({ $0 & 0xC0 == 0x80 })
        else { return invalid }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for byte in bytes[continuation] { value = value << 6 | UInt32(byte & 0x3F) }
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x1_0000
        guard value >= least, value <= 0x10_FFFF, !(0xD800...0xDFFF).contains(value) else { return invalid }
        return (value, length)
    }
}
