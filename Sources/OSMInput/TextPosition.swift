import InputStreams

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

    /// The position after `buffer`, which follows this position in the input.
    mutating func advance(over buffer: UnsafeRawBufferPointer) {
        let bytes = XMLBytes(buffer)
        guard bytes.count > 0 else { return }
        var start = 0
        if afterCarriageReturn && bytes[0] == 0x0A { start = 1 }  // the CR's line already counted
        afterCarriageReturn = false
        let end = bytes.count
        if start < end && bytes.find(0x0D, from: start) == nil {
            let lineFeeds = bytes.count(0x0A, in: start..<end)
            if lineFeeds == 0 {
                column += bytes.characters(in: start..<end)
            } else {
                var last = end - 1
                while bytes[last] != 0x0A { last -= 1 }
                line += lineFeeds
                column = bytes.characters(in: (last + 1)..<end)
            }
            return
        }
        // Carriage returns: byte by byte.
        var index = start
        while index < end {
            switch bytes[index] {
            case 0x0A:
                line += 1
                column = 0
            case 0x0D:
                line += 1
                column = 0
                if index + 1 == end {
                    afterCarriageReturn = true
                } else if bytes[index + 1] == 0x0A {
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

    /// This position, relative to a stretch of the input (line 1, column 0 being the stretch's
    /// start), placed in the input where the stretch starts at `start`.
    func placed(in start: TextPosition) -> TextPosition {
        line == 1
            ? TextPosition(line: start.line, column: start.column + column)
            : TextPosition(line: start.line + line - 1, column: column)
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
