#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds where the XML byte stream may be cut so that the piece before the cut parses on its own.
///
/// A cut is made only where it is proven: just before the `<` of a `<node`, `<way` or
/// `<relation` start tag at depth 1 (directly inside `<osm>`) whose only predecessors since the
/// end of the previous top-level element (an end tag that returns to depth 1, or an empty-element
/// tag at depth 1) are whitespace. The proof is a small tokenizer that follows the document from
/// its first byte: it knows the depth and whether it is inside a tag (and inside which quote of an
/// attribute value), a comment, a CDATA section or a processing instruction. A DOCTYPE, or
/// anything after the root element ends, makes the rest of the document unprovable: it can
/// declare entities and attribute defaults that a parser of a piece would not know, so it is
/// parsed sequentially.
///
/// A piece may be parsed apart from the rest (by a fresh parser fed `<osm>` + piece + `</osm>`)
/// only when it starts and ends at a cut and holds nothing but start, end and empty-element tags
/// and character data: no comment, CDATA section, processing instruction or declaration. Every
/// other piece goes to the one sequential parser, which sees it in order.
///
/// The tokenizer is exact for well-formed XML. On malformed XML it may be wrong only after the
/// first error, and the piece holding that error is always parsed from the true state (its start
/// lies in the well-formed part), so the first error is reported as a sequential parse reports it.
struct PieceCutter {
    /// Where the tokenizer is in the document's structure.
    struct State: Equatable, Sendable {
        enum Mode: UInt8, Sendable {
            /// Between markup: character data or nothing.
            case content
            /// Inside a start or empty-element tag.
            case startTag
            /// Inside an end tag.
            case endTag
            /// Inside a comment, a CDATA section or a processing instruction.
            case comment, cdata, processingInstruction
            /// After a DOCTYPE or a declaration it does not know, or after the root element:
            /// no cut is proven from here on.
            case unprovable
        }

        var mode = Mode.content
        /// Elements open: 1 directly inside `<osm>`.
        var depth = 0
        /// Inside a start tag: the quote of the attribute value being read, or 0.
        var quote: UInt8 = 0
        /// Inside a start tag: whether the last byte outside quotes was `/`.
        var slash = false
        /// Whether a top-level element ended and only whitespace followed since.
        var afterTopLevelElement = false

        /// The state at a cut: before a top-level start tag, directly inside `<osm>`.
        static let atCut = State(mode: .content, depth: 1, afterTopLevelElement: true)
    }

    /// Where to end the piece that starts at the front of a buffer, and what kind it is.
    struct Cut {
        /// Bytes of the buffer that form the piece; the rest starts the next piece.
        var end: Int
        /// Whether the piece starts and ends at a proven cut and holds only plain markup.
        var parallel: Bool
        /// Whether `end` is a proven cut (else the piece ends wherever the buffer did).
        var proven = false
    }

    /// The state at the front of the next buffer.
    private(set) var state = State()

    /// Most bytes the tokenizer needs to see after a `<` to classify it (`<relation` and one more).
    static let lookahead = 10

    /// Scans `bytes`, which continue the document from where the last cut left it, and cuts them.
    /// A piece that starts at a cut and holds only plain markup grows to the last proven cut
    /// before any special markup; any other piece ends at its first proven cut, so that the
    /// sequential stretch is as short as it can be; with no proven cut, the piece ends near the
    /// end of `bytes` (never before byte 1 when `bytes` holds more than `lookahead` bytes). The
    /// bytes after the returned end must start the next buffer.
    mutating func cut(_ bytes: UnsafeRawBufferPointer) -> Cut {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return Cut(end: 0, parallel: false) }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        var s = state
        var position = 0
        /// Where the piece ends when there is no cut; `s` is the state there.
        var stop = count
        var startsAtCut = false
        var sawSpecialMarkup = false
        /// The cut that ends the piece so far (0: none yet), and whether the piece may be parsed apart.
        var lastCut = 0
        var lastCutParallel = false

        scan: while position < count {
            switch s.mode {
            case .unprovable:
                break scan

            case .content:
                var next = skipSpace(base, position, count)
                if next == count {
                    position = count
                    break scan
                }
                if base[next] != UInt8(ascii: "<") {
                    s.afterTopLevelElement = false
                    guard let lt = find(UInt8(ascii: "<"), base, next, count) else {
                        position = count
                        break scan
                    }
                    next = lt
                }
                // Markup at `next`.
                if next + Self.lookahead > count {
                    stop = next
                    position = count
                    break scan
                }
                switch base[next + 1] {
                case UInt8(ascii: "/"):
                    s.mode = .endTag
                    s.afterTopLevelElement = false
                    position = next + 2
                case UInt8(ascii: "!"), UInt8(ascii: "?"):
                    // Special markup: the piece parsed apart so far ends at the last cut before it.
                    if lastCut > 0 { break scan }
                    sawSpecialMarkup = true
                    s.afterTopLevelElement = false
                    if base[next + 1] == UInt8(ascii: "?") {
                        s.mode = .processingInstruction
                        position = next + 2
                    } else if base[next + 2] == UInt8(ascii: "-") && base[next + 3] == UInt8(ascii: "-") {
                        s.mode = .comment
                        position = next + 4
                    } else if matches(base + next + 2, "[CDATA[") {
                        s.mode = .cdata
                        position = next + 9
                    } else {
                        s.mode = .unprovable
                        break scan
                    }
                default:
                    if s.afterTopLevelElement && s.depth == 1 && Self.isTopLevelName(base + next + 1) {
                        if next == 0 {
                            startsAtCut = true
                        } else if startsAtCut && !sawSpecialMarkup {
                            // Parsed apart: grow the piece to the last cut in the buffer.
                            lastCut = next
                            lastCutParallel = true
                        } else {
                            // Parsed in order: end the piece at its first cut, so that what
                            // follows may be parsed apart.
                            lastCut = next
                            lastCutParallel = false
                            break scan
                        }
                    }
                    s.afterTopLevelElement = false
                    // Fast path: the first `>` is followed by whitespace and the next `<`. Values
                    // cannot hold `<`, so that `>` is the only one before the next markup and
                    // ends this tag.
                    if let gt = find(UInt8(ascii: ">"), base, next + 1, count) {
                        let after = skipSpace(base, gt + 1, count)
                        if after < count && base[after] == UInt8(ascii: "<") {
                            endStartTag(&s, empty: base[gt - 1] == UInt8(ascii: "/"))
                            position = after
                            continue scan
                        }
                    }
                    s.mode = .startTag
                    s.quote = 0
                    s.slash = false
                    position = next + 1
                }

            case .startTag:
                while position < count {
                    if s.quote != 0 {
                        guard let close = find(s.quote, base, position, count) else {
                            position = count
                            break scan
                        }
                        s.quote = 0
                        s.slash = false
                        position = close + 1
                        continue
                    }
                    let byte = base[position]
                    position += 1
                    if byte == UInt8(ascii: ">") {
                        s.mode = .content
                        endStartTag(&s, empty: s.slash)
                        continue scan
                    }
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { s.quote = byte }
                    s.slash = byte == UInt8(ascii: "/")
                }

            case .endTag:
                guard let gt = find(UInt8(ascii: ">"), base, position, count) else {
                    position = count
                    break scan
                }
                position = gt + 1
                s.depth -= 1
                if s.depth == 1 {
                    s.mode = .content
                    s.afterTopLevelElement = true
                } else if s.depth > 1 {
                    s.mode = .content
                } else {
                    s.mode = .unprovable  // the root element ended
                }

            case .comment, .cdata, .processingInstruction:
                let terminator: StaticString =
                    switch s.mode {
                    case .comment: "-->"
                    case .cdata: "]]>"
                    default: "?>"
                    }
                let length = terminator.utf8CodeUnitCount
                guard let end = find(terminator, base, position, count) else {
                    // Keep the last bytes for the next buffer, where a terminator may complete.
                    stop = max(position, count - (length - 1))
                    position = count
                    break scan
                }
                position = end + length
                s.mode = .content
            }
        }
        if lastCut > 0 {
            state = .atCut
            return Cut(end: lastCut, parallel: lastCutParallel, proven: true)
        }
        state = s
        return Cut(end: stop, parallel: false)
    }

    /// After the `>` of a start tag (`empty`: of an empty-element tag).
    private func endStartTag(_ s: inout State, empty: Bool) {
        s.mode = .content
        if !empty {
            s.depth += 1
        } else if s.depth == 1 {
            s.afterTopLevelElement = true
        } else if s.depth == 0 {
            s.mode = .unprovable  // an empty root element
        }
    }

    /// Whether the name at `name` is `node`, `way` or `relation`, followed by what may end a
    /// name in a start tag; `name` has at least `lookahead - 1` bytes.
    private static func isTopLevelName(_ name: UnsafePointer<UInt8>) -> Bool {
        let length: Int
        if matches(name, "node") {
            length = 4
        } else if matches(name, "way") {
            length = 3
        } else if matches(name, "relation") {
            length = 8
        } else {
            return false
        }
        switch name[length] {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">"): return true
        default: return false
        }
    }
}

/// XML whitespace.
@inline(__always)
private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
}

/// The first index from `from` that is not whitespace, or `end`.
@inline(__always)
private func skipSpace(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int {
    var index = from
    while index < end && isSpace(base[index]) { index += 1 }
    return index
}

/// The index of the first `byte` in `from..<end`.
@inline(__always)
private func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
    guard from < end, let found = memchr(base + from, Int32(byte), end - from) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
}

/// The index of the first occurrence of `text` (a terminator ending in `>`) that starts in
/// `from..<end` and ends before `end`.
private func find(_ text: StaticString, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
    let length = text.utf8CodeUnitCount
    var index = from + length - 1
    while let gt = find(UInt8(ascii: ">"), base, index, end) {
        if memoryEquals(base + gt - (length - 1), text.utf8Start, count: length - 1) { return gt - (length - 1) }
        index = gt + 1
    }
    return nil
}

/// Whether the bytes at `pointer` start with `text`; the caller makes sure they are there.
@inline(__always)
private func matches(_ pointer: UnsafePointer<UInt8>, _ text: StaticString) -> Bool {
    memoryEquals(pointer, text.utf8Start, count: text.utf8CodeUnitCount)
}
