import InputStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A position in XML text counted as expat counts it: lines from 1, a line break being a line
/// feed, a carriage return, or both together; columns from 0, in characters (every byte that is
/// not a UTF-8 continuation byte, a byte order mark included).
///
/// With parsing threads, the reader keeps one at the start of the next piece: a piece parsed
/// apart reports where it ends relative to its start (expat counted its bytes anyway), and a
/// sequential piece is advanced over. So every position a parser reports of its part of the
/// input is placed in the whole input.
struct TextPosition: Equatable, Sendable {
    /// The line, from 1.
    var line = 1
    /// Characters before this position on its line, from 0 (expat's column).
    var column = 0
    /// Whether the last byte was a carriage return: a line feed right after it ends no new line.
    var afterCarriageReturn = false

    /// The position after `bytes`, which follow this position in the input.
    mutating func advance(over bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else { return }
        var start = 0
        if afterCarriageReturn && base[0] == 0x0A { start = 1 }  // the CR's line already counted
        afterCarriageReturn = false
        let end = bytes.count
        if start < end && memchr(base + start, 0x0D, end - start) == nil {
            let lineFeeds = Self.count(0x0A, base + start, end - start)
            if lineFeeds == 0 {
                column += Self.characters(base, start..<end)
            } else {
                var last = end - 1
                while base[last] != 0x0A { last -= 1 }
                line += lineFeeds
                column = Self.characters(base, (last + 1)..<end)
            }
            return
        }
        // Carriage returns: byte by byte.
        var index = start
        while index < end {
            switch base[index] {
            case 0x0A:
                line += 1
                column = 0
            case 0x0D:
                line += 1
                column = 0
                if index + 1 == end {
                    afterCarriageReturn = true
                } else if base[index + 1] == 0x0A {
                    index += 1
                }
            case let byte where byte & 0xC0 != 0x80:
                column += 1
            default:
                break
            }
            index += 1
        }
    }

    /// The position after text with `lineFeeds` line feeds (and no carriage return), then
    /// `characters` characters on its last line.
    mutating func advance(lineFeeds: Int, characters: Int) {
        if lineFeeds == 0 {
            column += characters
        } else {
            line += lineFeeds
            column = characters
        }
        afterCarriageReturn = false
    }

    /// How many bytes of `count` at `base` are `byte`, eight at a time.
    private static func count(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        var total = 0
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index + 8 <= count {
            // A byte of `x` is zero exactly where the input has `byte`: set the high bit of
            // every other byte, then count the zero bytes left.
            let x = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
            let nonZero = ((x & low) &+ low) | x
            // The high bit of each such byte, moved to its low bit, summed into the top byte.
            total &+= Int(truncatingIfNeeded: (((~(nonZero | low)) >> 7) &* 0x0101_0101_0101_0101) >> 56)
            index += 8
        }
        while index < count {
            total &+= base[index] == byte ? 1 : 0
            index += 1
        }
        return total
    }

    /// This position, relative to a stretch of the input (line 1, column 0 being the stretch's
    /// start), placed in the input where the stretch starts at `start`.
    func placed(in start: TextPosition) -> TextPosition {
        line == 1
            ? TextPosition(line: start.line, column: start.column + column)
            : TextPosition(line: start.line + line - 1, column: column)
    }

    /// Characters in `range`: bytes that are not UTF-8 continuation bytes.
    private static func characters(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int {
        var count = 0
        for index in range { count &+= base[index] & 0xC0 != 0x80 ? 1 : 0 }
        return count
    }
}

extension OSMInputError {
    /// The same error, its line and column (relative to a stretch of the input that starts at
    /// line 1, column 0) placed in the input where the stretch starts at `start`.
    func placed(in start: TextPosition) -> OSMInputError {
        guard case .line(let line, let column)? = location else { return self }
        let position = TextPosition(line: line, column: column - 1).placed(in: start)
        return OSMInputError(kind, file: file, at: .line(position.line, column: position.column + 1), message)
    }
}

/// Maps positions that one expat parser reports to positions in the whole input: the parser
/// saw the input's text from `input` on as its own text from `parser` on (after the `<osm>`
/// that frames a piece, or after the earlier pieces a sequential parser was fed).
struct PositionOrigin: Sendable {
    /// Where the stretch starts as the parser counts.
    var parser: TextPosition
    /// Where the stretch starts in the input.
    var input: TextPosition

    /// Positions as the parser reports them are positions in the input.
    static let identity = PositionOrigin(parser: TextPosition(), input: TextPosition())

    /// The input's line and column (from 0) for a parser's line and column (from 0).
    func map(line: Int, column: Int) -> (line: Int, column: Int) {
        if line == parser.line {
            return (input.line, input.column + column - parser.column)
        }
        return (input.line + line - parser.line, column)
    }

    /// The input's position for the parser's position `position`.
    func position(at position: TextPosition) -> TextPosition {
        let (line, column) = map(line: position.line, column: position.column)
        return TextPosition(line: line, column: column, afterCarriageReturn: position.afterCarriageReturn)
    }

    /// Where the parser counts itself at the input's position `position` of the same stretch.
    func parserPosition(at position: TextPosition) -> TextPosition {
        if position.line == input.line {
            return TextPosition(line: parser.line, column: parser.column + position.column - input.column)
        }
        return TextPosition(line: parser.line + position.line - input.line, column: position.column)
    }
}
