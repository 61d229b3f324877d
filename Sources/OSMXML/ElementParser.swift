import CExpat
import ProcessSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which elements the parser hands to the handler. Everything is still parsed and counted;
/// the filter only decides what is copied out, so that the common case (a node with no
/// interesting tag) costs no more than expat's own work.
public struct OSMElementFilter: Sendable {
    /// Element types to deliver.
    public var types: Set<OSMElementType>
    /// Deliver only elements with a tag whose key is one of these; empty delivers all.
    public var tagKeys: [String]
    /// Types (among `types`) whose elements without any of `tagKeys` are delivered too, bare:
    /// with their location, node references or members but no tags. Area geometry needs every
    /// node's location and every way's nodes, tagged or not.
    public var bareTypes: Set<OSMElementType>

    /// A filter for `types` carrying any of `tagKeys` (all elements of those types when empty),
    /// and the rest of `bareTypes` without their tags.
    public init(types: Set<OSMElementType>, tagKeys: [String] = [], bareTypes: Set<OSMElementType> = []) {
        self.types = types
        self.tagKeys = tagKeys
        self.bareTypes = bareTypes.intersection(types)
    }
}

/// Counts of what one input held, and how it was parsed.
///
/// `==` compares every property, the piece statistics too; `sameContents(as:)` compares what
/// the input held, which is the same whatever the thread count.
public struct OSMReadSummary: Sendable, Equatable {
    /// Top-level elements of each type, deleted ones included.
    public var nodes = 0, ways = 0, relations = 0
    /// Elements marked deleted (`visible="false"` or JOSM's `action="delete"`); never delivered.
    public var deleted = 0
    /// The newest timestamp in the input (`timestamp` attributes, Overpass's `osm_base`) as
    /// written there ("2021-04-21T20:21:46Z"), or nil when it has none.
    public var newestTimestamp: String?
    /// Raw input bytes read, and XML bytes after inflating.
    public var inputBytes = 0, xmlBytes = 0
    /// Pieces of the XML parsed apart, each by a parser of its own: on the parsing threads, or
    /// on the caller's thread when the reader has one.
    public var parallelPieces = 0
    /// Pieces parsed in order by the one sequential parser: the first (the prolog and the root's
    /// start tag), the last (the root's end), and every piece whose boundaries could not be
    /// proven.
    public var sequentialPieces = 0
    /// Nodes read without expat (`PlainNode`), in pieces parsed apart.
    public var plainNodes = 0

    /// Empty counts.
    public init() {}

    /// Whether `other` counts the same elements, deletions, timestamp and bytes (everything
    /// but how the input was cut into pieces and read).
    public func sameContents(as other: OSMReadSummary) -> Bool {
        var other = other
        other.parallelPieces = parallelPieces
        other.sequentialPieces = sequentialPieces
        other.plainNodes = plainNodes
        return self == other
    }

    /// Adds the element counts of another stretch of the same input and keeps the newer timestamp.
    mutating func addElements(of other: OSMReadSummary) {
        nodes += other.nodes
        ways += other.ways
        relations += other.relations
        deleted += other.deleted
        plainNodes += other.plainNodes
        if let timestamp = other.newestTimestamp,
            newestTimestamp.map({ $0.utf8.lexicographicallyPrecedes(timestamp.utf8) }) ?? true {
            newestTimestamp = timestamp
        }
    }
}

/// One expat parser turning XML bytes into element batches. Handlers are C functions that reach
/// the parser's state through expat's user-data pointer (a non-capturing closure per event, as
/// ../shared/notes/swift-expat.md measured to be as fast as C); element and attribute names are
/// compared as bytes.
///
/// The reader uses one as the sequential parser, fed the input's pieces in order (`parse`), and
/// one fresh parser per piece parsed apart (`parsePiece`). Either reports positions of the whole
/// input through its `origin`.
final class ElementParser {
    private let parser: XML_Parser
    private let state: UnsafeMutablePointer<ParseState>
    private let file: String
    /// Bytes fed to expat so far, as expat counts its byte index.
    private var bytesFed = 0
    /// Whether the last byte fed was a carriage return.
    private var fedCarriageReturn = false

    /// A parser for the input named `file` that keeps what `filter` asks for, within `limits`.
    init(file: String, filter: OSMElementFilter, limits: OSMReadLimits) {
        self.file = file
        // The encoding is forced to UTF-8 whatever the document declares: bytes that are not
        // UTF-8 are an error, never silently converted.
        parser = XML_ParserCreate("UTF-8")
        state = .allocate(capacity: 1)
        state.initialize(to: ParseState(parser: parser, filter: filter, limits: limits))
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
        return state.pointee.isBetweenTopLevelElements && (heldBack == 0 || heldBack == 1 && fedCarriageReturn)
    }

    /// Parses the next bytes of the document; `isFinal` with the last (possibly empty) piece.
    /// Throws when the bytes expat holds back for an unfinished element exceed the limit, so
    /// that its buffer stays bounded.
    func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws(OSMInputError) {
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
    /// Plain nodes (`PlainNode`) are read without expat, which is fed only the stretches between
    /// them (`PieceScanner`), its positions re-anchored before each. Expat may report an error
    /// in the end of one stretch (text it held back) after the anchor moved on, so a piece with
    /// an error is parsed again by expat alone, which reports it as a sequential parse does.
    static func parsePiece(
        _ bytes: UnsafeRawBufferPointer, file: String, filter: OSMElementFilter, limits: OSMReadLimits, step: Int
    ) -> PieceResult {
        let result = parsePiece(bytes, file: file, filter: filter, limits: limits, step: step, plainNodes: true)
        guard result.error != nil else { return result }
        return parsePiece(bytes, file: file, filter: filter, limits: limits, step: step, plainNodes: false)
    }

    private static func parsePiece(
        _ bytes: UnsafeRawBufferPointer, file: String, filter: OSMElementFilter, limits: OSMReadLimits, step: Int,
        plainNodes: Bool
    ) -> PieceResult {
        let open: StaticString = "<osm>"
        let close: StaticString = "</osm>"
        let parser = ElementParser(file: file, filter: filter, limits: limits)
        parser.origin = PositionOrigin(parser: TextPosition(line: 1, column: open.utf8CodeUnitCount), input: TextPosition())
        var result = PieceResult()
        do throws(OSMInputError) {
            try parser.parse(UnsafeRawBufferPointer(start: open.utf8Start, count: open.utf8CodeUnitCount), isFinal: false)
            if plainNodes {
                try parser.parseWithPlainNodes(bytes, maxNodeBytes: limits.maxElementBytes, step: step)
            } else {
                try parser.parse(bytes, step: step)
            }
            try parser.parse(UnsafeRawBufferPointer(start: close.utf8Start, count: close.utf8CodeUnitCount), isFinal: true)
            // Expat has counted every byte: it stands after the closing tag, on the piece's last line.
            let end = parser.origin.map(
                line: Int(XML_GetCurrentLineNumber(parser.parser)), column: Int(XML_GetCurrentColumnNumber(parser.parser)))
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

    /// Parses `bytes`, a piece parsed apart, reading its plain nodes itself and feeding expat
    /// the stretches between them, so that the batch holds every element in document order.
    ///
    /// Expat does not see the plain nodes nor the whitespace around them; before each stretch
    /// its origin is set to where the stretch starts in the piece, so that lines and columns are
    /// those of the piece. Every stretch starts with markup or text, never a line break.
    private func parseWithPlainNodes(_ bytes: UnsafeRawBufferPointer, maxNodeBytes: Int, step: Int) throws(OSMInputError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var scanner = PieceScanner(base, count: bytes.count, maxNodeBytes: maxNodeBytes)
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
            guard let (start, node) = plain else { break }
            advance(to: start)
            state.pointee.add(node, line: position.line, in: base)
            position.advance(characters: node.characters)
            counted = node.end
        }
        // `</osm>` follows at the piece's end.
        advance(to: bytes.count)
        origin = PositionOrigin(parser: fedPosition, input: position)
    }

    /// The error that stopped the parser, at the position where it stopped.
    private func failure() -> OSMInputError {
        if let stop = state.pointee.stop ?? state.pointee.elementTooLarge(errorAt: Int(XML_GetCurrentByteIndex(parser))) {
            return error(at: stop)
        }
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
        let position = state.pointee.origin.map(
            line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)))
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

/// Where the parser was stopped by a rule of OSM XML that expat does not know, and why.
struct ParseStop {
    var line: Int
    var column: Int
    var message: String
}

/// The state behind expat's user-data pointer: depth, the element being read, the batch.
struct ParseState {
    let parser: XML_Parser
    /// The wanted types, one bit per `OSMElementType.rawValue` (no hashing per element).
    let types: UInt8
    /// The types delivered bare when no tag matches, one bit per type.
    let bareTypes: UInt8
    let tagKeys: [[UInt8]]
    let limits: OSMReadLimits
    var batch = ElementBatch()
    var summary = OSMReadSummary()
    var stop: ParseStop?
    /// How positions expat reports map to positions in the input.
    var origin = PositionOrigin.identity
    private var depth = 0
    /// The top-level element being read, while inside one of the wanted types.
    private var open: ElementRecord?
    private var openIsDeleted = false
    private var openMatches = false
    private var openArenaStart = 0
    private var newestTimestamp: [UInt8] = []
    /// Once the root element has ended: where what expat accepted after it (whitespace,
    /// comments, processing instructions) ends, as the parser counts. Nil before.
    private(set) var epilog: TextPosition?
    /// Expat's byte index where the top-level element being read starts (0 before the root:
    /// the prolog counts as one), or -1 between them; and its position, for errors.
    private var elementStart = 0
    private var elementPosition = (line: 1, column: 0)

    init(parser: XML_Parser, filter: OSMElementFilter, limits: OSMReadLimits) {
        self.parser = parser
        self.limits = limits
        types = filter.types.reduce(0) { $0 | 1 << $1.rawValue }
        bareTypes = filter.bareTypes.reduce(0) { $0 | 1 << $1.rawValue }
        tagKeys = filter.tagKeys.map { Array($0.utf8) }
    }

    mutating func start(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        defer { depth += 1 }
        switch depth {
        case 0:
            guard equal(name, "osm") else {
                halt("expected <osm> as the root element, found <\(String(cString: name))>")
                return
            }
            elementStart = -1
            noteTimestamp(attributes, key: "timestamp")
        case 1:
            startTopLevel()
            if let type = Self.elementType(name) {
                startElement(type, attributes)
            } else if equal(name, "meta") {
                noteTimestamp(attributes, key: "osm_base")
            }
        case 2:
            checkElementSize()
            if open != nil { addChild(name, attributes) }
        default:
            checkElementSize()
        }
    }

    /// Whether the parser is directly inside the root element, between top-level elements.
    var isBetweenTopLevelElements: Bool { depth == 1 && elementStart < 0 }

    mutating func end() {
        depth -= 1
        guard depth >= 1 else {
            if depth == 0 { beginEpilog() }
            return
        }
        checkElementSize()
        guard depth == 1 else { return }
        elementStart = -1
        guard let element = open else { return }
        open = nil
        if openIsDeleted {
            summary.deleted += 1
        }
        if openMatches && !openIsDeleted {
            batch.elements.append(element)
        } else if bareTypes & 1 << element.type.rawValue != 0 && !openIsDeleted {
            // Delivered without its tags; their bytes stay in the arena until the batch is emptied.
            batch.tags.removeLast(batch.tags.count - Int(element.firstTag))
            var bare = element
            bare.tagCount = 0
            batch.elements.append(bare)
        } else {
            batch.bytes.removeLast(batch.bytes.count - openArenaStart)
            batch.tags.removeLast(batch.tags.count - Int(element.firstTag))
            batch.refs.removeLast(batch.refs.count - Int(element.firstRef))
            batch.members.removeLast(batch.members.count - Int(element.firstMember))
        }
    }

    /// Empties the batch of finished elements, keeping the part of an element still being read
    /// (its start tag was in an earlier piece of input than its end tag).
    mutating func removeDeliveredElements() {
        guard var element = open else {
            batch.removeAll()
            return
        }
        let shift = Int32(openArenaStart)
        let firstTag = Int(element.firstTag)
        let tags = batch.tags[firstTag...].map { tag in
            TagRecord(key: tag.key.shifted(by: -shift), value: tag.value.shifted(by: -shift))
        }
        let members = batch.members[Int(element.firstMember)...].map { member in
            MemberRecord(type: member.type, ref: member.ref, role: member.role.shifted(by: -shift))
        }
        let refs = batch.refs[Int(element.firstRef)...]
        let bytes = batch.bytes[openArenaStart...]
        batch.removeAll()
        batch.bytes.append(contentsOf: bytes)
        batch.tags.append(contentsOf: tags)
        batch.refs.append(contentsOf: refs)
        batch.members.append(contentsOf: members)
        element.latitude = element.latitude.shifted(by: -shift)
        element.longitude = element.longitude.shifted(by: -shift)
        element.firstTag = 0
        element.firstRef = 0
        element.firstMember = 0
        open = element
        openArenaStart = 0
    }

    /// Notes where the root element ends, and follows what expat accepts after it with a default
    /// handler, which sees every byte from here on (whitespace, comments and processing
    /// instructions: there are no other events after the root).
    private mutating func beginEpilog() {
        var position = TextPosition(line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)))
        // The end tag's bytes (none for an empty root element, whose end event comes after it).
        var offset: Int32 = 0
        var size: Int32 = 0
        let count = Int(XML_GetCurrentByteCount(parser))
        if count > 0, let context = XML_GetInputContext(parser, &offset, &size) {
            position.advance(over: UnsafeRawBufferPointer(start: context + Int(offset), count: count))
        }
        epilog = position
        XML_SetDefaultHandler(parser) { data, text, length in
            data!.assumingMemoryBound(to: ParseState.self).pointee.epilog?
                .advance(over: UnsafeRawBufferPointer(start: text, count: Int(length)))
        }
    }

    /// Notes where a top-level element starts; refuses a start tag larger than the limit.
    private mutating func startTopLevel() {
        elementStart = Int(XML_GetCurrentByteIndex(parser))
        elementPosition = origin.map(
            line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)))
        checkElementSize()
    }

    /// Stops the parser when the current event ends more than the limit after the start of
    /// the top-level element it belongs to.
    private mutating func checkElementSize() {
        let end = Int(XML_GetCurrentByteIndex(parser)) + Int(XML_GetCurrentByteCount(parser))
        guard elementStart >= 0, end - elementStart > limits.maxElementBytes else { return }
        halt(limits.elementTooLarge, at: elementPosition)
    }

    /// The stop for an element whose bytes held back by expat, after `bytesFed` bytes, exceed
    /// the limit: an unfinished top-level element (or the prolog), or one unfinished piece of
    /// markup between them. Nil when within the limit.
    func heldBackTooMuch(bytesFed: Int) -> ParseStop? {
        let start = elementStart >= 0 ? elementStart : Int(XML_GetCurrentByteIndex(parser))
        guard start >= 0, bytesFed - start > limits.maxElementBytes else { return nil }
        let position = elementStart >= 0 ? elementPosition : origin.map(
            line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)))
        return ParseStop(line: position.line, column: position.column + 1, message: limits.elementTooLarge)
    }

    /// The stop for an error that expat found at byte `index` beyond the limit of the element
    /// being read: the element is too large, whatever follows. Nil otherwise.
    func elementTooLarge(errorAt index: Int) -> ParseStop? {
        guard elementStart >= 0, index - elementStart > limits.maxElementBytes else { return nil }
        return ParseStop(line: elementPosition.line, column: elementPosition.column + 1, message: limits.elementTooLarge)
    }

    private static func elementType(_ name: UnsafePointer<CChar>) -> OSMElementType? {
        if equal(name, "node") { return .node }
        if equal(name, "way") { return .way }
        if equal(name, "relation") { return .relation }
        return nil
    }

    private mutating func startElement(_ type: OSMElementType, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        switch type {
        case .node: summary.nodes += 1
        case .way: summary.ways += 1
        case .relation: summary.relations += 1
        }
        guard types & 1 << type.rawValue != 0 else {
            noteTimestamp(attributes, key: "timestamp")
            return
        }
        openArenaStart = batch.bytes.count
        openIsDeleted = false
        openMatches = tagKeys.isEmpty
        var record = ElementRecord(
            type: type, id: 0, version: 0,
            line: origin.map(line: Int(XML_GetCurrentLineNumber(parser)), column: 0).line,
            latitude: .absent, longitude: .absent, firstTag: Int32(batch.tags.count), tagCount: 0,
            firstRef: Int32(batch.refs.count), firstMember: Int32(batch.members.count))
        var id: Int64?
        var index = 0
        while let key = attributes[index], let value = attributes[index + 1] {
            index += 2
            // Most attributes are told apart by their first byte.
            switch UInt8(bitPattern: key[0]) {
            case UInt8(ascii: "i"):
                if equal(key, "id") { id = Self.integer(value) }
            case UInt8(ascii: "l"):
                if equal(key, "lat") {
                    record.latitude = batch.append(value, count: strlen(value))
                } else if equal(key, "lon") {
                    record.longitude = batch.append(value, count: strlen(value))
                }
            case UInt8(ascii: "v"):
                if equal(key, "version") {
                    record.version = Self.integer(value) ?? 0
                } else if equal(key, "visible") {
                    openIsDeleted = openIsDeleted || equal(value, "false")
                }
            case UInt8(ascii: "a"):
                if equal(key, "action") { openIsDeleted = openIsDeleted || equal(value, "delete") }
            case UInt8(ascii: "t"):
                if equal(key, "timestamp") { noteTimestamp(value) }
            default:
                break
            }
        }
        guard let id else {
            halt("<\(Self.name(type))> without a valid id attribute")
            return
        }
        record.id = id
        open = record
    }

    /// Counts and, when the filter asks for it, keeps a plain node read without expat, on `line`
    /// of the piece; its values are offsets from `base`. It stands between two top-level
    /// elements, so no element is open.
    mutating func add(_ node: PlainNode, line: Int, in base: UnsafePointer<UInt8>) {
        summary.nodes += 1
        summary.plainNodes += 1
        if let timestamp = node.timestamp, timestamp.count == Self.timestampLength {
            noteTimestamp(base + timestamp.lowerBound)
        }
        let type = OSMElementType.node
        guard types & 1 << type.rawValue != 0 else { return }
        if node.isDeleted {
            summary.deleted += 1
            return
        }
        // A plain node has no tags: it is kept when the filter wants every node, or bare ones.
        guard tagKeys.isEmpty || bareTypes & 1 << type.rawValue != 0 else { return }
        var record = ElementRecord(
            type: type, id: node.id, version: node.version, line: line, latitude: .absent, longitude: .absent,
            firstTag: Int32(batch.tags.count), tagCount: 0, firstRef: Int32(batch.refs.count),
            firstMember: Int32(batch.members.count))
        if let latitude = node.latitude { record.latitude = batch.append(base + latitude.lowerBound, count: latitude.count) }
        if let longitude = node.longitude {
            record.longitude = batch.append(base + longitude.lowerBound, count: longitude.count)
        }
        batch.elements.append(record)
    }

    /// Reads a child of the open element: a tag, a way's node reference, a relation's member.
    private mutating func addChild(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        if equal(name, "tag") {
            addTag(attributes)
        } else if open!.type == .way && equal(name, "nd") {
            addNodeRef(attributes)
        } else if open!.type == .relation && equal(name, "member") {
            addMember(attributes)
        }
    }

    private mutating func addNodeRef(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        var index = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            index += 2
            if equal(name, "ref"), let ref = Self.integer(value) {
                batch.refs.append(ref)
                open!.refCount += 1
                return
            }
        }
        halt("<nd> without a valid ref attribute")
    }

    private mutating func addMember(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        var member = MemberRecord(type: nil, ref: nil, role: ByteSpan(start: Int32(batch.bytes.count), count: 0))
        var index = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            index += 2
            if equal(name, "type") {
                member.type = Self.elementType(value)
            } else if equal(name, "ref") {
                member.ref = Self.integer(value)
            } else if equal(name, "role") {
                member.role = batch.append(value, count: strlen(value))
            }
        }
        batch.members.append(member)
        open!.memberCount += 1
    }

    private mutating func addTag(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        var key: UnsafePointer<CChar>?
        var value: UnsafePointer<CChar>?
        var index = 0
        while let name = attributes[index], let text = attributes[index + 1] {
            index += 2
            if equal(name, "k") { key = text } else if equal(name, "v") { value = text }
        }
        guard let key, let value else { return }
        guard open!.tagCount < limits.maxTags else {
            halt("more than \(limits.maxTags) tags on one element (max_tags)")
            return
        }
        let keyLength = strlen(key)
        let valueLength = strlen(value)
        guard keyLength <= limits.maxValueBytes && valueLength <= limits.maxValueBytes else {
            halt("a tag key or value longer than \(limits.maxValueBytes) bytes (max_value_bytes)")
            return
        }
        if !openMatches {
            openMatches = tagKeys.contains { $0.count == keyLength && memcmp($0, key, keyLength) == 0 }
        }
        let tag = TagRecord(key: batch.append(key, count: keyLength), value: batch.append(value, count: valueLength))
        batch.tags.append(tag)
        open!.tagCount += 1
    }

    /// Bytes of a timestamp in the form that `noteTimestamp` keeps.
    private static let timestampLength = 20

    /// Keeps the newest ISO 8601 UTC timestamp ("2021-04-21T20:21:46Z") of a NUL-terminated value.
    private mutating func noteTimestamp(_ value: UnsafePointer<CChar>) {
        for index in 0..<Self.timestampLength where value[index] == 0 { return }  // shorter
        guard value[Self.timestampLength] == 0 else { return }
        value.withMemoryRebound(to: UInt8.self, capacity: Self.timestampLength) { noteTimestamp($0) }
    }

    /// Keeps the newest ISO 8601 UTC timestamp of the `timestampLength` bytes at `value`; in that
    /// fixed form, byte order is time order, so no date is parsed per element.
    private mutating func noteTimestamp(_ value: UnsafePointer<UInt8>) {
        let length = Self.timestampLength
        guard value[4] == 0x2D, value[10] == 0x54, value[19] == 0x5A else { return }
        let newer = newestTimestamp.isEmpty || newestTimestamp.withUnsafeBytes { memcmp($0.baseAddress!, value, length) < 0 }
        if newer {
            newestTimestamp = Array(UnsafeBufferPointer(start: value, count: length))
            summary.newestTimestamp = String(decoding: newestTimestamp, as: UTF8.self)
        }
    }

    private mutating func noteTimestamp(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, key: StaticString) {
        var index = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            index += 2
            if equal(name, key) { noteTimestamp(value) }
        }
    }

    /// Stops the parser with `message` at `position` (by default the current one).
    private mutating func halt(_ message: String, at position: (line: Int, column: Int)? = nil) {
        guard stop == nil else { return }
        let position = position ?? origin.map(
            line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)))
        stop = ParseStop(line: position.line, column: position.column + 1, message: message)
        XML_StopParser(parser, XML_FALSE)
    }

    private static func name(_ type: OSMElementType) -> StaticString {
        switch type {
        case .node: "node"
        case .way: "way"
        case .relation: "relation"
        }
    }

    /// The NUL-terminated `value` as a whole number, as `OSMBytes.int64` reads it; plain runs of
    /// up to 18 digits (every id and version) without measuring the string first.
    private static func integer(_ value: UnsafePointer<CChar>) -> Int64? {
        var result: Int64 = 0
        var index = 0
        while index < 18 {
            let digit = UInt8(bitPattern: value[index]) &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            result = result &* 10 &+ Int64(digit)
            index += 1
        }
        if index > 0 && value[index] == 0 { return result }
        return value.withMemoryRebound(to: UInt8.self, capacity: 1) {
            OSMBytes(UnsafeBufferPointer(start: $0, count: strlen(value))).int64
        }
    }
}

/// Whether the NUL-terminated `name` is exactly `text`.
@inline(__always)
private func equal(_ name: UnsafePointer<CChar>, _ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    let expected = text.utf8Start
    return name.withMemoryRebound(to: UInt8.self, capacity: count + 1) { bytes in
        for i in 0..<count where bytes[i] != expected[i] { return false }
        return bytes[count] == 0
    }
}
