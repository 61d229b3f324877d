import CExpat
import InputStreams
import ProcessSupport

/// One expat parser turning XML bytes into element batches. Handlers are C functions that reach
/// the parser's state through expat's user-data pointer (a non-capturing closure per event, as
/// ../shared/notes/swift-expat.md measured to be as fast as C); element and attribute names are
/// compared as bytes.
///
/// The reader uses one as the sequential parser, fed the input's pieces in order (`parse`), and
/// one fresh parser per piece parsed apart (`parsePiece`). Either reports positions of the whole
/// input through its `origin`. The handlers' state, `ParseState`, names where the parser
/// stands in the document (`ParseContext`).
final class ElementParser {
    private let parser: XML_Parser
    private let state: UnsafeMutablePointer<ParseState>
    private let file: String
    /// Bytes fed to expat so far, as expat counts its byte index.
    private var bytesFed = 0
    /// Whether the last byte fed was a carriage return.
    private var fedCarriageReturn = false
    /// The end of the bytes given last when it stops inside a UTF-8 sequence: held back, and fed
    /// with the bytes that complete it. So expat's buffer never ends inside a character, and at
    /// an error its input context, which `errorIsInvalidUTF8` reads, holds the whole character
    /// wherever the input was split (expat may refuse a lead byte before its sequence is whole).
    private var partialCharacter: [UInt8] = []

    /// A parser for the input named `file`, an extract or an osmChange file (`form`), that
    /// keeps what `filter` asks for, within `limits`.
    init(file: String, filter: OSMElementFilter, limits: OSMReadLimits, form: OSMReadForm = .extract) {
        self.file = file
        // The encoding is forced to UTF-8 whatever the document declares: bytes that are not
        // UTF-8 are an error, never silently converted.
        parser = XML_ParserCreate("UTF-8")
        state = .allocate(capacity: 1)
        state.initialize(to: ParseState(parser: parser, filter: filter, limits: limits, form: form))
        XML_SetUserData(parser, UnsafeMutableRawPointer(state))
        XML_SetElementHandler(
            parser,
            { data, name, attributes in
                data!.assumingMemoryBound(to: ParseState.self).pointee.start(name!, attributes!)
            },
            { data, _ in data!.assumingMemoryBound(to: ParseState.self).pointee.end() })
        // With a handler that refuses, an external entity is never loaded; expat then reports
        // XML_ERROR_EXTERNAL_ENTITY_HANDLING, which `failure` words plainly.
        XML_SetExternalEntityRefHandler(parser, { _, _, _, _, _ in Int32(XML_STATUS_ERROR.rawValue) })
        // Expat 2.6 and later may hold back bytes after a partial token until more arrive; the
        // sequential parser must have parsed all it was fed before pieces parsed apart follow.
        if let setReparseDeferral = Self.setReparseDeferral { _ = setReparseDeferral(parser, 0) }
    }

    deinit {
        XML_ParserFree(parser)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Expat's `XML_SetReparseDeferralEnabled`, where the installed library has it (2.6 on).
    private static let setReparseDeferral: (@convention(c) (XML_Parser?, XML_Bool) -> XML_Bool)? =
        CSymbol.function(named: "XML_SetReparseDeferralEnabled")

    /// The elements parsed so far and not yet taken.
    var batch: ElementBatch {
        _read { yield state.pointee.batch }
    }

    /// What the input held, so far.
    var summary: OSMReadSummary { state.pointee.summary }

    /// How this parser's positions map to positions in the input (identity until set).
    var origin: PositionOrigin {
        get { state.pointee.origin }
        set { state.pointee.origin = newValue }
    }

    /// Empties the batch after the caller has handled it.
    func clearBatch() { state.pointee.removeDeliveredElements() }

    /// Whether the parser stands where a cut should leave it: directly inside the root element,
    /// between top-level elements, having taken in all it was fed but a carriage return (held
    /// back until expat sees whether a line feed follows). The cutter's proof holds for
    /// well-formed text only: after input it misjudged (a value with no closing quote, say), the
    /// parser stands inside markup, and what follows the cut must be parsed in order.
    var standsBetweenTopLevelElements: Bool {
        let heldBack = bytesFed - Int(XML_GetCurrentByteIndex(parser))
        return state.pointee.isBetweenTopLevelElements && partialCharacter.isEmpty
            && (heldBack == 0 || heldBack == 1 && fedCarriageReturn)
    }

    /// Parses the next bytes of the document; `isFinal` with the last (possibly empty) piece.
    /// Throws when the bytes expat holds back for an unfinished element exceed the limit, so
    /// that its buffer stays bounded.
    func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws(OSMInputError) {
        var rest = bytes
        if let lead = partialCharacter.first {
            let taken = min(rest.count, Self.sequenceLength(lead) - partialCharacter.count)
            partialCharacter += rest.prefix(taken)
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            guard partialCharacter.count == Self.sequenceLength(lead) || isFinal else { return }
            let character = partialCharacter
            partialCharacter = []
            let pointer = UnsafeMutableRawBufferPointer.allocate(byteCount: character.count, alignment: 1)
            defer { pointer.deallocate() }
            pointer.copyBytes(from: character)
            try feed(UnsafeRawBufferPointer(pointer), isFinal: isFinal && rest.isEmpty)
            if rest.isEmpty { return }
        }
        let kept = isFinal ? 0 : Self.partialCharacterLength(atEndOf: rest)
        try feed(UnsafeRawBufferPointer(rebasing: rest[..<(rest.count - kept)]), isFinal: isFinal)
        partialCharacter = Array(rest.suffix(kept))
    }

    /// How many bytes at the end of `bytes` start a UTF-8 sequence that they do not finish.
    private static func partialCharacterLength(atEndOf bytes: UnsafeRawBufferPointer) -> Int {
        var start = bytes.count
        while start > 0 && bytes.count - start < 3 && bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0, bytes[start - 1] >= 0xC0 else { return 0 }
        let length = bytes.count - start + 1
        return length < sequenceLength(bytes[start - 1]) ? length : 0
    }

    /// Hands `bytes` to expat.
    private func feed(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws(OSMInputError) {
        let status = XML_Parse(
            parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), isFinal ? 1 : 0)
        guard status == XML_STATUS_ERROR else {
            bytesFed += bytes.count
            if let last = bytes.last { fedCarriageReturn = last == 0x0D }
            if let stop = state.pointee.heldBackTooMuch(bytesFed: bytesFed) { throw error(at: stop) }
            return
        }
        throw failure()
    }

    /// Parses `bytes` in steps of at most `step` bytes, so that expat's own copy stays small.
    func parse(_ bytes: UnsafeRawBufferPointer, step: Int) throws(OSMInputError) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + step, bytes.count)
            try parse(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), isFinal: false)
            offset = end
        }
    }

    /// Parses one piece apart with a fresh parser, as the whole of its input: `<osm>` + piece +
    /// `</osm>`. The piece holds only whole top-level elements and the whitespace between them
    /// (`PieceCutter`). Positions in the result are relative to the piece, which starts at line 1,
    /// column 0; the reader places them once it knows where the piece starts. The parser is freed
    /// before this returns: only the batch and the counts stay.
    ///
    /// Plain elements (`PlainElement`) are read without expat, which is fed only the stretches between
    /// them (`PieceScanner`), its positions re-anchored before each. Expat may report an error
    /// in the end of one stretch (text it held back) after the anchor moved on, so a piece with
    /// an error is parsed again by expat alone, which reports it as a sequential parse does.
    static func parsePiece(
        _ bytes: UnsafeRawBufferPointer, file: String, filter: OSMElementFilter, limits: OSMReadLimits, step: Int
    ) -> PieceResult {
        let result = parsePiece(bytes, file: file, filter: filter, limits: limits, step: step, plainElements: true)
        guard result.error != nil else { return result }
        return parsePiece(bytes, file: file, filter: filter, limits: limits, step: step, plainElements: false)
    }

    private static func parsePiece(
        _ bytes: UnsafeRawBufferPointer, file: String, filter: OSMElementFilter, limits: OSMReadLimits, step: Int,
        plainElements: Bool
    ) -> PieceResult {
        let open: StaticString = "<osm>"
        let close: StaticString = "</osm>"
        let parser = ElementParser(file: file, filter: filter, limits: limits)
        parser.origin = PositionOrigin(
            parser: TextPosition(line: 1, column: open.utf8CodeUnitCount), input: TextPosition())
        var result = PieceResult()
        do throws(OSMInputError) {
            try parser.parse(
                UnsafeRawBufferPointer(start: open.utf8Start, count: open.utf8CodeUnitCount), isFinal: false)
            if plainElements {
                try parser.parseWithPlainElements(bytes, limits: limits, step: step)
            } else {
                try parser.parse(bytes, step: step)
            }
            try parser.parse(
                UnsafeRawBufferPointer(start: close.utf8Start, count: close.utf8CodeUnitCount), isFinal: true)
            // Expat has counted every byte: it stands after the closing tag, on the piece's last line.
            let end = parser.state.pointee.currentPosition
            result.end = TextPosition(line: end.line, column: end.column - close.utf8CodeUnitCount)
        } catch {
            result.error = error
        }
        // Kept alive explicitly: its state is reached through a pointer, which does not keep it.
        withExtendedLifetime(parser) {
            result.summary = parser.summary
            swap(&result.batch, &parser.state.pointee.batch)
        }
        return result
    }

    /// Parses `bytes`, a piece parsed apart, reading its plain elements itself and feeding expat
    /// the stretches between them, so that the batch holds every element in document order.
    ///
    /// Expat does not see the plain elements nor the whitespace around them; before each stretch
    /// its origin is set to where the stretch starts in the piece, so that lines and columns are
    /// those of the piece. Every stretch starts with markup or text, never a line break.
    private func parseWithPlainElements(
        _ bytes: UnsafeRawBufferPointer, limits: OSMReadLimits, step: Int
    ) throws(OSMInputError) {
        var scanner = PieceScanner(XMLBytes(bytes), limits: limits)
        // Where expat stands in what it was fed (after `<osm>`), and the piece's position at `counted`.
        var fedPosition = origin.parser
        var position = TextPosition()
        var counted = 0
        func advance(to offset: Int) {
            position.advance(over: UnsafeRawBufferPointer(rebasing: bytes[counted..<offset]))
            counted = offset
        }
        while true {
            let (stretch, plain) = scanner.next()
            if !stretch.isEmpty {
                advance(to: stretch.lowerBound)
                origin = PositionOrigin(parser: fedPosition, input: position)
                let fed = UnsafeRawBufferPointer(rebasing: bytes[stretch])
                try parse(fed, step: step)
                fedPosition.advance(over: fed)
                position = origin.position(at: fedPosition)
                counted = stretch.upperBound
            }
            guard let (start, element) = plain else { break }
            advance(to: start)
            state.pointee.add(element, scanner.children, line: position.line)
            position.advance(lineFeeds: element.lineFeeds, characters: element.lastLineCharacters)
            counted = element.end
        }
        // `</osm>` follows at the piece's end.
        advance(to: bytes.count)
        origin = PositionOrigin(parser: fedPosition, input: position)
    }

    /// The error that stopped the parser, at the position where it stopped.
    private func failure() -> OSMInputError {
        let stop = state.pointee.stop ?? state.pointee.elementTooLarge(errorAt: Int(XML_GetCurrentByteIndex(parser)))
        if let stop { return error(at: stop) }
        if let epilog = state.pointee.epilog {
            // After the root element expat's verdict depends on where its input was split: a
            // name that reaches the end of the bytes fed is junk at once, while fed further it
            // may run into an invalid character first. Every split agrees on where junk starts.
            let position = state.pointee.origin.map(line: epilog.line, column: epilog.column)
            return OSMInputError(
                .malformed, file: file, at: .line(position.line, column: position.column + 1),
                String(cString: XML_ErrorString(XML_ERROR_JUNK_AFTER_DOC_ELEMENT)))
        }
        let code = XML_GetErrorCode(parser)
        var message = String(cString: XML_ErrorString(code))
        if code == XML_ERROR_EXTERNAL_ENTITY_HANDLING {
            message = "external entities are not allowed (never loaded)"
        } else if code == XML_ERROR_INVALID_TOKEN && errorIsInvalidUTF8() {
            message = "invalid UTF-8: the input must be UTF-8"
        }
        let position = state.pointee.currentPosition
        return OSMInputError(.malformed, file: file, at: .line(position.line, column: position.column + 1), message)
    }

    /// The error for a stop of this parser.
    private func error(at stop: ParseStop) -> OSMInputError {
        OSMInputError(.malformed, file: file, at: .line(stop.line, column: stop.column), stop.message)
    }

    /// Whether the bytes at the error position are not UTF-8 (rather than a misplaced character).
    private func errorIsInvalidUTF8() -> Bool {
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let context = XML_GetInputContext(parser, &offset, &size) else { return false }
        let bytes = UnsafeRawBufferPointer(start: context, count: Int(size))
        let tail = bytes[Int(offset)...].prefix(4)
        guard let lead = tail.first, lead >= 0x80 else { return false }
        return String(validating: Array(tail.prefix(Self.sequenceLength(lead))), as: UTF8.self) == nil
    }

    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC0...0xDF: 2
        case 0xE0...0xEF: 3
        default: 4
        }
    }
}

/// What parsing one piece apart gave: its elements and counts, or its error, with positions
/// relative to the piece (line 1, column 0 being its first byte).
struct PieceResult {
    var batch = ElementBatch()
    var summary = OSMReadSummary()
    var error: OSMInputError?
    /// Where the piece ends.
    var end = TextPosition()
}
