#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// XML text read through checks: the one type that the three tokenizers (`PieceCutter` on the
/// reading thread's buffer, `PieceScanner` and `PlainCursor` on a piece) and the line counter
/// (`TextPosition`) read bytes through, as SectionBytes is for the index file.
///
/// A view is immutable, and `init` establishes its invariants, stated once here:
/// - `base` points at `count` bytes that stay readable and unchanged while the view lives (a
///   ring buffer is refilled only after its piece's elements are handed over);
/// - an empty view never reads `base`.
///
/// Reads take offsets in the view. `subscript` and `bytes(_:)` trap outside it: only a
/// tokenizer's bug can get there, for each compares an offset with the end it reads to before
/// it reads. Searches and counts (`find`, `skipSpace`, `matches`, `count(_:in:)`,
/// `characters(in:)`) take any offset and never look outside the view: each checks or clamps
/// its range once, then reads inside it unchecked (`memchr`, a loop below `count`). Two read
/// eight bytes at a time, each load below an end clamped to the view: `count(_:in:)` and
/// `keptRun(from:before:)`. The raw pointer is `private`, so this file is all there is to audit.
struct XMLBytes {
    private let base: UnsafePointer<UInt8>
    /// How many bytes the view holds.
    let count: Int

    /// A view of `buffer`, which must stay readable and unchanged while the view lives.
    init(_ buffer: UnsafeRawBufferPointer) {
        // An empty buffer may have no address; any non-null pointer then stands for it, never read.
        base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
        count = buffer.count
    }

    /// The byte at `offset`, which must lie inside the view.
    @inline(__always)
    subscript(offset: Int) -> UInt8 {
        precondition(UInt(bitPattern: offset) < UInt(bitPattern: count), "a read outside the XML bytes")
        return base[offset]
    }

    /// The bytes of `range`, which must lie inside the view, valid while the view is.
    func bytes(_ range: Range<Int>) -> OSMBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "bytes outside the XML bytes")
        return OSMBytes(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// The offset of the first `byte` from `from` on.
    @inline(__always)
    func find(_ byte: UInt8, from: Int) -> Int? {
        guard from >= 0, from < count, let found = memchr(base + from, Int32(byte), count - from) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The offset of the first occurrence of `text` (a terminator ending in `>`: `-->`, `]]>`,
    /// `?>`) that starts at `from` or later, found from its `>`.
    func find(_ text: StaticString, from: Int) -> Int? {
        let length = text.utf8CodeUnitCount
        var index = from + length - 1
        while let gt = find(UInt8(ascii: ">"), from: index) {
            if matches(text, at: gt - (length - 1)) { return gt - (length - 1) }
            index = gt + 1
        }
        return nil
    }

    /// The first offset from `from` on that is not XML whitespace (space, tab, line feed,
    /// carriage return), or `count`.
    @inline(__always)
    func skipSpace(from: Int) -> Int {
        var index = Swift.max(from, 0)
        while index < count {
            switch base[index] {
            case 0x20, 0x0A, 0x09, 0x0D: index += 1
            default: return index
            }
        }
        return count
    }

    /// How many bytes of `range` (clamped to the view) are `byte`.
    ///
    /// Unchecked fast path: eight bytes at a time, a word loaded only at `index + 8 <= end`,
    /// where `end` is clamped to the view and the start to 0.
    func count(_ byte: UInt8, in range: Range<Int>) -> Int {
        let end = Swift.min(range.upperBound, count)
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(base)
        var total = 0
        var index = Swift.max(range.lowerBound, 0)
        while index + 8 <= end {
            // A byte of `x` is zero exactly where the input has `byte`: set the high bit of
            // every other byte, then count the zero bytes left.
            let x = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
            let nonZero = ((x & low) &+ low) | x
            // The high bit of each such byte, moved to its low bit, summed into the top byte.
            total &+= Int(truncatingIfNeeded: (((~(nonZero | low)) >> 7) &* 0x0101_0101_0101_0101) >> 56)
            index += 8
        }
        while index < end {
            total &+= base[index] == byte ? 1 : 0
            index += 1
        }
        return total
    }

    /// The characters in `range` (clamped to the view): bytes that are not UTF-8 continuation
    /// bytes.
    func characters(in range: Range<Int>) -> Int {
        var characters = 0
        for index in Swift.max(range.lowerBound, 0)..<Swift.min(range.upperBound, count) {
            characters &+= base[index] & 0xC0 != 0x80 ? 1 : 0
        }
        return characters
    }

    /// Whether the bytes at `offset` are `text`'s (false when the view ends first).
    @inline(__always)
    func matches(_ text: StaticString, at offset: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset >= 0, offset <= count - length else { return false }
        return memoryEquals(base + offset, text.utf8Start, count: length)
    }

    /// The first offset from `from` on (in steps of eight bytes, before `end`) where eight
    /// bytes that are all kept as they are in an attribute value do not follow: printable ASCII
    /// but `<`, `&` and the two quotes, which no value ends at and expat does not change.
    ///
    /// Unchecked fast path: `end` is clamped to the view and `from >= 0` is checked, and a word
    /// is loaded only at `index + 8 <= end`.
    @inline(__always)
    func keptRun(from: Int, before end: Int) -> Int {
        precondition(from >= 0, "a read before the XML bytes")
        let end = Swift.min(end, count)
        let raw = UnsafeRawPointer(base)
        var index = from
        while index + 8 <= end && Self.isKept(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        return index
    }

    /// Whether each byte of `word` is printable ASCII but `<`, `&` and the two quotes.
    @inline(__always)
    private static func isKept(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bits where `x` has a zero byte (exact as to whether there is one).
        func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        func bytes(_ byte: Unicode.Scalar) -> UInt64 { UInt64(byte.value) &* ones }
        let below20 = (word &- bytes("\u{20}")) & ~word & highs
        let special =
            zeroBytes(word ^ bytes("\u{7F}")) | zeroBytes(word ^ bytes("<")) | zeroBytes(word ^ bytes("&"))
            | zeroBytes(word ^ bytes("\"")) | zeroBytes(word ^ bytes("'"))
        return (word & highs) | below20 | special == 0
    }
}
