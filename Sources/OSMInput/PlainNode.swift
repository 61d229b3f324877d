#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A top-level node in its plain form, read without expat.
///
/// Nine bytes in ten of a city extract are untagged nodes, `<node id="…" version="…"
/// timestamp="…" lat="…" lon="…"/>`: an empty-element tag with a few known attributes.
/// Expat spends about 14 ns on each of their bytes; this reader checks and reads them in a
/// fraction of that, and leaves everything else to expat (`PieceScanner`).
///
/// The plain form is a strict subset of well-formed XML, read exactly as expat would:
/// - `<node`, then one or more attributes, each after one or more spaces (U+0020 only), then
///   optional spaces and `/>`;
/// - attribute names only from `id`, `version`, `timestamp`, `changeset`, `uid`, `user`, `lat`,
///   `lon`, `visible` and `action`, each at most once, `=` right after the name;
/// - values in `"` or `'`, holding printable ASCII but `<` and `&`, or UTF-8 sequences of XML
///   characters: no byte that expat would change (a tab or line break is normalized to a
///   space, a reference is replaced) or refuse;
/// - an `id` that is a whole number, and at most `maxBytes` bytes in all.
///
/// Anything else, however valid, is not plain: expat reads it, errors included.
struct PlainNode {
    /// The offset just after the node's `/>`.
    var end: Int
    var id: Int64
    /// The `version` attribute, 0 when absent or not a number (as expat's path reads it).
    var version: Int64 = 0
    /// Offsets of the `lat`, `lon` and `timestamp` values, when present.
    var latitude: Range<Int>?
    var longitude: Range<Int>?
    var timestamp: Range<Int>?
    /// `visible="false"` or `action="delete"`.
    var isDeleted = false
    /// Characters from `<` to `>`, as expat counts columns: bytes but UTF-8 continuation bytes.
    var characters = 0

    /// The plain node whose `<` is at `start` of `base[..<count]`, or nil when the bytes there are
    /// not a plain node.
    static func read(_ base: UnsafePointer<UInt8>, from start: Int, count: Int, maxBytes: Int) -> PlainNode? {
        let end = min(count, start + maxBytes)
        guard start + 6 <= end, memoryEquals(base + start, prefix.utf8Start, count: prefix.utf8CodeUnitCount) else {
            return nil
        }
        var node = PlainNode(end: 0, id: 0)
        var seen: UInt16 = 0
        var continuationBytes = 0
        var id: Range<Int>?
        var index = start + prefix.utf8CodeUnitCount
        while true {
            // Optional spaces and the end of the tag, or one or more spaces and an attribute.
            let spaceStart = index
            while index < end && base[index] == 0x20 { index += 1 }
            guard index + 1 < end else { return nil }
            if base[index] == UInt8(ascii: "/") {
                guard base[index + 1] == UInt8(ascii: ">"), let id, let value = integer(base, id) else { return nil }
                node.id = value
                node.end = index + 2
                node.characters = node.end - start - continuationBytes
                return node
            }
            guard index > spaceStart, let attribute = Attribute(base, at: index, end: end) else { return nil }
            guard seen & attribute.bit == 0 else { return nil }  // a duplicate: expat's error to report
            seen |= attribute.bit
            index += attribute.name.utf8CodeUnitCount
            guard let value = quotedValue(base, opening: index, end: end, continuationBytes: &continuationBytes) else {
                return nil
            }
            index = value.upperBound + 1
            switch attribute {
            case .id: id = value
            case .version: node.version = integer(base, value) ?? 0
            case .timestamp: node.timestamp = value
            case .lat: node.latitude = value
            case .lon: node.longitude = value
            case .visible: node.isDeleted = node.isDeleted || OSMBytes(base, value).equals("false")
            case .action: node.isDeleted = node.isDeleted || OSMBytes(base, value).equals("delete")
            case .changeset, .uid, .user: break
            }
        }
    }

    private static let prefix: StaticString = "<node"

    /// The attributes a plain node may have.
    private enum Attribute: UInt16 {
        case id, version, timestamp, changeset, uid, user, lat, lon, visible, action

        var bit: UInt16 { 1 << rawValue }

        /// The name and its `=`.
        var name: StaticString {
            switch self {
            case .id: "id="
            case .version: "version="
            case .timestamp: "timestamp="
            case .changeset: "changeset="
            case .uid: "uid="
            case .user: "user="
            case .lat: "lat="
            case .lon: "lon="
            case .visible: "visible="
            case .action: "action="
            }
        }

        /// The attribute whose name and `=` are at `index`, or nil for any other bytes.
        init?(_ base: UnsafePointer<UInt8>, at index: Int, end: Int) {
            let candidates: (Attribute, Attribute?)
            switch base[index] {
            case UInt8(ascii: "i"): candidates = (.id, nil)
            case UInt8(ascii: "v"): candidates = (.version, .visible)
            case UInt8(ascii: "t"): candidates = (.timestamp, nil)
            case UInt8(ascii: "c"): candidates = (.changeset, nil)
            case UInt8(ascii: "u"): candidates = (.uid, .user)
            case UInt8(ascii: "l"): candidates = (.lat, .lon)
            case UInt8(ascii: "a"): candidates = (.action, nil)
            default: return nil
            }
            if candidates.0.isNamed(at: index, base, end) {
                self = candidates.0
            } else if let other = candidates.1, other.isNamed(at: index, base, end) {
                self = other
            } else {
                return nil
            }
        }

        private func isNamed(at index: Int, _ base: UnsafePointer<UInt8>, _ end: Int) -> Bool {
            index + name.utf8CodeUnitCount <= end && memcmp(base + index, name.utf8Start, name.utf8CodeUnitCount) == 0
        }
    }

    /// `range` as a whole number, as `OSMBytes.int64` reads it; plain runs of up to 18 digits
    /// (every id and version) without overflow checks.
    private static func integer(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int64? {
        if range.count > 0 && range.count <= 18 {
            var value: Int64 = 0
            for index in range {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return OSMBytes(base, range).int64 }
                value = value &* 10 &+ Int64(digit)
            }
            return value
        }
        return OSMBytes(base, range).int64
    }

    /// The range of the value whose opening quote is at `opening`, when every byte of it is one
    /// expat keeps as it is; its closing quote is at the range's upper bound. Adds the value's
    /// UTF-8 continuation bytes to `continuationBytes`.
    private static func quotedValue(
        _ base: UnsafePointer<UInt8>, opening: Int, end: Int, continuationBytes: inout Int
    ) -> Range<Int>? {
        guard opening < end else { return nil }
        let quote = base[opening]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        var index = opening + 1
        // Eight bytes at a time while they are all kept as they are.
        let raw = UnsafeRawPointer(base)
        while index + 8 <= end && isKept(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { index += 8 }
        while index < end {
            let byte = base[index]
            if byte == quote { return (opening + 1)..<index }
            if byte >= 0x80 {
                guard let next = endOfCharacter(base, at: index, end: end) else { return nil }
                continuationBytes += next - index - 1
                index = next
            } else if byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&") {
                index += 1  // the other quote, or a kept byte
            } else {
                return nil
            }
        }
        return nil
    }

    /// Whether each byte of `word` is printable ASCII but `<`, `&` and the two quotes: kept as it
    /// is in any value, and not its end.
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

    /// The end of the UTF-8 sequence that starts at `index` with a byte of 0x80 or more, when it
    /// encodes an XML character: no overlong form, surrogate, U+FFFE, U+FFFF or code point past
    /// U+10FFFF.
    private static func endOfCharacter(_ base: UnsafePointer<UInt8>, at index: Int, end: Int) -> Int? {
        let lead = base[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return nil
        }
        guard index + length <= end, base[index + 1] >= low, base[index + 1] <= high else { return nil }
        for offset in 2..<max(2, length) where base[index + offset] & 0xC0 != 0x80 { return nil }
        // U+FFFE and U+FFFF are not XML characters.
        if lead == 0xEF && base[index + 1] == 0xBF && base[index + 2] >= 0xBE { return nil }
        return index + length
    }
}

extension OSMBytes {
    /// The bytes of `range` at `base`.
    init(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) {
        self.init(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }
}
