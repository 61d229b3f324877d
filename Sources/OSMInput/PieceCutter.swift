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
        var scan = Scan(bytes: XMLBytes(bytes), state: state)
        while scan.position < scan.bytes.count && scan.step() {}
        if let cut = scan.cut {
            state = .atCut
            return Cut(end: cut.end, parallel: cut.parallel, proven: true)
        }
        state = scan.state
        return Cut(end: scan.stop, parallel: false)
    }

    /// One buffer's scan: the tokenizer's state as it moves through the bytes, one step per
    /// piece of markup (or text before it), and the cut it has found.
    private struct Scan {
        let bytes: XMLBytes
        var state: State
        /// Where the next step starts.
        var position = 0
        /// Where the piece ends when there is no cut; `state` is the state there.
        var stop: Int
        /// Whether the buffer starts at a cut, before a top-level start tag.
        var startsAtCut = false
        var sawSpecialMarkup = false
        /// The cut that ends the piece so far, and whether the piece may be parsed apart.
        var cut: (end: Int, parallel: Bool)?

        init(bytes: XMLBytes, state: State) {
            self.bytes = bytes
            self.state = state
            stop = bytes.count
        }

        /// Reads what comes next in the state's mode; false when the scan ends here.
        mutating func step() -> Bool {
            switch state.mode {
            case .unprovable: false
            case .content: content()
            case .startTag: insideStartTag()
            case .endTag: endTag()
            case .comment, .cdata, .processingInstruction: insideSpecialMarkup()
            }
        }

        /// Between markup: passes whitespace and text, then reads what the markup at the next
        /// `<` is. A `<` too near the end to classify stops the piece before it.
        private mutating func content() -> Bool {
            var next = bytes.skipSpace(from: position)
            guard next < bytes.count else { return false }
            if bytes[next] != UInt8(ascii: "<") {
                state.afterTopLevelElement = false
                guard let lt = bytes.find(UInt8(ascii: "<"), from: next) else { return false }
                next = lt
            }
            if next + PieceCutter.lookahead > bytes.count {
                stop = next
                return false
            }
            switch bytes[next + 1] {
            case UInt8(ascii: "/"):
                state.mode = .endTag
                state.afterTopLevelElement = false
                position = next + 2
                return true
            case UInt8(ascii: "!"), UInt8(ascii: "?"):
                return specialMarkup(at: next)
            default:
                return startTag(at: next)
            }
        }

        /// The start of a comment, CDATA section, processing instruction or declaration at
        /// `start`: a piece parsed apart so far ends at the last cut before it.
        private mutating func specialMarkup(at start: Int) -> Bool {
            if cut != nil { return false }
            sawSpecialMarkup = true
            state.afterTopLevelElement = false
            if bytes[start + 1] == UInt8(ascii: "?") {
                state.mode = .processingInstruction
                position = start + 2
            } else if bytes.matches("--", at: start + 2) {
                state.mode = .comment
                position = start + 4
            } else if bytes.matches("[CDATA[", at: start + 2) {
                state.mode = .cdata
                position = start + 9
            } else {
                state.mode = .unprovable
                return false
            }
            return true
        }

        /// A start tag at `start`: a cut before it when it is a top-level element's after
        /// whitespace only, then its end found directly when it can be.
        private mutating func startTag(at start: Int) -> Bool {
            if state.afterTopLevelElement && state.depth == 1 && isTopLevelName(at: start + 1) {
                if start == 0 {
                    startsAtCut = true
                } else if startsAtCut && !sawSpecialMarkup {
                    cut = (start, true)  // parsed apart: grow the piece to the last cut in the buffer
                } else {
                    // Parsed in order: end the piece at its first cut, so that what follows
                    // may be parsed apart.
                    cut = (start, false)
                    return false
                }
            }
            state.afterTopLevelElement = false
            // Fast path: the first `>` is followed by whitespace and the next `<`. Values cannot
            // hold `<`, so that `>` is the only one before the next markup and ends this tag.
            if let gt = bytes.find(UInt8(ascii: ">"), from: start + 1) {
                let after = bytes.skipSpace(from: gt + 1)
                if after < bytes.count && bytes[after] == UInt8(ascii: "<") {
                    endStartTag(empty: bytes[gt - 1] == UInt8(ascii: "/"))
                    position = after
                    return true
                }
            }
            state.mode = .startTag
            state.quote = 0
            state.slash = false
            position = start + 1
            return true
        }

        /// Inside a start tag, byte by byte, quoted values passed whole, up to its `>`.
        private mutating func insideStartTag() -> Bool {
            while position < bytes.count {
                if state.quote != 0 {
                    guard let close = bytes.find(state.quote, from: position) else { return false }
                    state.quote = 0
                    state.slash = false
                    position = close + 1
                    continue
                }
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: ">") {
                    endStartTag(empty: state.slash)
                    return true
                }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { state.quote = byte }
                state.slash = byte == UInt8(ascii: "/")
            }
            return false  // the buffer ends inside the tag
        }

        /// An end tag, up to its `>`: the depth falls, and the root's end makes the rest unprovable.
        private mutating func endTag() -> Bool {
            guard let gt = bytes.find(UInt8(ascii: ">"), from: position) else { return false }
            position = gt + 1
            state.depth -= 1
            if state.depth == 1 {
                state.mode = .content
                state.afterTopLevelElement = true
            } else if state.depth > 1 {
                state.mode = .content
            } else {
                state.mode = .unprovable  // the root element ended
            }
            return true
        }

        /// Inside a comment, CDATA section or processing instruction, up to its terminator.
        private mutating func insideSpecialMarkup() -> Bool {
            let terminator: StaticString =
                switch state.mode {
                case .comment: "-->"
                case .cdata: "]]>"
                default: "?>"
                }
            let length = terminator.utf8CodeUnitCount
            guard let end = bytes.find(terminator, from: position) else {
                // Keep the last bytes for the next buffer, where a terminator may complete.
                stop = max(position, bytes.count - (length - 1))
                return false
            }
            position = end + length
            state.mode = .content
            return true
        }

        /// After the `>` of a start tag (`empty`: of an empty-element tag).
        private mutating func endStartTag(empty: Bool) {
            state.mode = .content
            if !empty {
                state.depth += 1
            } else if state.depth == 1 {
                state.afterTopLevelElement = true
            } else if state.depth == 0 {
                state.mode = .unprovable  // an empty root element
            }
        }

        /// Whether the name at `name` is `node`, `way` or `relation`, followed by what may end a
        /// name in a start tag; `name` has at least `lookahead - 1` bytes.
        private func isTopLevelName(at name: Int) -> Bool {
            let length: Int
            if bytes.matches("node", at: name) {
                length = 4
            } else if bytes.matches("way", at: name) {
                length = 3
            } else if bytes.matches("relation", at: name) {
                length = 8
            } else {
                return false
            }
            switch bytes[name + length] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">"): return true
            default: return false
            }
        }
    }
}
