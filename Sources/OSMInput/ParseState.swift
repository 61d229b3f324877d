import CExpat

/// Where the parser was stopped by a rule of OSM XML that expat does not know, and why.
struct ParseStop {
    var line: Int
    var column: Int
    var message: String
}

/// Expat's attributes of a start tag: name, value, name, value, …, then nil.
typealias ExpatAttributes = UnsafeMutablePointer<UnsafePointer<CChar>?>

/// The state behind expat's user-data pointer: where the parser stands (`ParseContext`), the
/// batch it fills, the counts, and the stop when a rule of OSM XML was broken.
///
/// This file follows the document's structure and the size limit; ParseState+Changes.swift, an
/// osmChange file's root and action blocks; ParseState+Elements.swift reads the elements, their
/// children and timestamps into the batch.
struct ParseState {
    let parser: XML_Parser
    /// The wanted types, one bit per `OSMElementType.rawValue` (no hashing per element).
    let types: UInt8
    /// The types delivered bare when no tag matches, one bit per type.
    let bareTypes: UInt8
    let tagKeys: [[UInt8]]
    let limits: OSMReadLimits
    /// An extract, or an osmChange file.
    let form: OSMReadForm
    /// The action of the osmChange block the parser is in; nil outside blocks, and in an extract.
    var action: OSMChangeAction?
    var batch = ElementBatch()
    var summary = OSMReadSummary()
    var stop: ParseStop?
    /// How positions expat reports map to positions in the input.
    var origin = PositionOrigin.identity
    /// Where the parser stands, with what it knows of the element it is in.
    var context = ParseContext.prolog
    /// The element being copied while `context` is `.element`; stale in other states.
    var open = OpenElement.placeholder
    /// The newest timestamp so far, as its bytes (`summary.newestTimestamp` as text).
    var newestTimestamp: [UInt8] = []

    init(parser: XML_Parser, filter: OSMElementFilter, limits: OSMReadLimits, form: OSMReadForm = .extract) {
        self.parser = parser
        self.limits = limits
        self.form = form
        types = filter.types.reduce(0) { $0 | 1 << $1.rawValue }
        bareTypes = filter.bareTypes.reduce(0) { $0 | 1 << $1.rawValue }
        tagKeys = filter.tagKeys.map { Array($0.utf8) }
    }

    /// Expat's start tag event.
    mutating func start(_ name: UnsafePointer<CChar>, _ attributes: ExpatAttributes) {
        switch context {
        case .prolog:
            if form == .changes {
                startChangeRoot(name, attributes)
                return
            }
            guard equal(name, "osm") else {
                halt(
                    equal(name, "osmChange")
                        ? "this is an osmChange file (edits to apply), not OSM data; give \(InputFormat.supported)"
                        : "expected <osm> as the root element, found <\(String(cString: name))>")
                return
            }
            context = .root
            noteTimestamp(attributes, key: "timestamp")
        case .root:
            if form == .changes {
                startChangeChild(name, attributes)
            } else {
                startTopLevel(name, attributes)
            }
        case .actionBlock:
            startTopLevel(name, attributes)
        case .element(var extent):
            checkSize(of: extent)
            if extent.depth == 0 { addChild(name, attributes) }
            extent.depth += 1
            context = .element(extent)
        case .ignoredElement(var extent):
            checkSize(of: extent)
            extent.depth += 1
            context = .ignoredElement(extent)
        case .epilog:
            break  // expat refuses a second root element before reporting it
        }
    }

    /// Expat's end tag event (also after the start tag of an empty element).
    mutating func end() {
        switch context {
        case .prolog, .epilog:
            break  // in the prolog only after the root element was refused, which stopped the parser
        case .root:
            beginEpilog()
        case .actionBlock:
            action = nil
            context = .root
        case .element(var extent):
            checkSize(of: extent)
            guard extent.depth == 0 else {
                extent.depth -= 1
                context = .element(extent)
                return
            }
            context = action == nil ? .root : .actionBlock
            finishElement()
        case .ignoredElement(var extent):
            checkSize(of: extent)
            guard extent.depth == 0 else {
                extent.depth -= 1
                context = .ignoredElement(extent)
                return
            }
            context = action == nil ? .root : .actionBlock
        }
    }

    /// Whether the parser is directly inside the root element, between top-level elements.
    var isBetweenTopLevelElements: Bool {
        if case .root = context { return true }
        return false
    }

    /// Once the root element has ended: where what expat accepted after it ends, as the parser
    /// counts. Nil before.
    var epilog: TextPosition? {
        if case .epilog(let position) = context { return position }
        return nil
    }

    /// Empties the batch of finished elements, keeping the part of an element still being read
    /// (its start tag was in an earlier piece of input than its end tag).
    mutating func removeDeliveredElements() {
        guard case .element = context else {
            batch.removeAll()
            return
        }
        let shift = Int32(open.arenaStart)
        let firstTag = Int(open.record.firstTag)
        let tags = batch.tags[firstTag...].map { tag in
            TagRecord(key: tag.key.shifted(by: -shift), value: tag.value.shifted(by: -shift))
        }
        let members = batch.members[Int(open.record.firstMember)...].map { member in
            MemberRecord(type: member.type, ref: member.ref, role: member.role.shifted(by: -shift))
        }
        let refs = batch.refs[Int(open.record.firstRef)...]
        let bytes = batch.bytes[open.arenaStart...]
        batch.removeAll()
        batch.bytes.append(contentsOf: bytes)
        batch.tags.append(contentsOf: tags)
        batch.refs.append(contentsOf: refs)
        batch.members.append(contentsOf: members)
        open.record.firstTag = 0
        open.record.firstRef = 0
        open.record.firstMember = 0
        open.arenaStart = 0
    }

    /// Notes where the root element ends, and follows what expat accepts after it with a default
    /// handler, which sees every byte from here on (whitespace, comments and processing
    /// instructions: there are no other events after the root).
    private mutating func beginEpilog() {
        var position = TextPosition(
            line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)))
        // The end tag's bytes (none for an empty root element, whose end event comes after it).
        var offset: Int32 = 0
        var size: Int32 = 0
        let count = Int(XML_GetCurrentByteCount(parser))
        if count > 0, let context = XML_GetInputContext(parser, &offset, &size) {
            position.advance(over: UnsafeRawBufferPointer(start: context + Int(offset), count: count))
        }
        context = .epilog(position)
        XML_SetDefaultHandler(parser) { data, text, length in
            data!.assumingMemoryBound(to: ParseState.self).pointee
                .advanceEpilog(over: UnsafeRawBufferPointer(start: text, count: Int(length)))
        }
    }

    /// Moves the epilog's end over `text`, which expat accepted after the root element.
    private mutating func advanceEpilog(over text: UnsafeRawBufferPointer) {
        guard case .epilog(var position) = context else { return }
        position.advance(over: text)
        context = .epilog(position)
    }

    /// Notes where a top-level element starts (an element of an osmChange block too), refusing
    /// a start tag larger than the limit, and starts reading it.
    mutating func startTopLevel(_ name: UnsafePointer<CChar>, _ attributes: ExpatAttributes) {
        let extent = ElementExtent(start: Int(XML_GetCurrentByteIndex(parser)), position: currentPosition)
        checkSize(of: extent)
        context = .ignoredElement(extent)
        if let type = Self.elementType(name) {
            startElement(type, attributes, at: extent)
        } else if equal(name, "meta") {
            noteTimestamp(attributes, key: "osm_base")
        }
    }

    /// The extent of the top-level element the parser is in, the prolog counting as one; nil
    /// between top-level elements and after the root.
    private var extent: ElementExtent? {
        switch context {
        case .prolog: .prolog
        case .element(let extent), .ignoredElement(let extent): extent
        case .root, .actionBlock, .epilog: nil
        }
    }

    /// Stops the parser when the current event ends more than the limit after the start of
    /// the top-level element of `extent`.
    private mutating func checkSize(of extent: ElementExtent) {
        let end = Int(XML_GetCurrentByteIndex(parser)) + Int(XML_GetCurrentByteCount(parser))
        guard end - extent.start > limits.maxElementBytes else { return }
        halt(limits.elementTooLarge, at: extent.position)
    }

    /// The stop for an element whose bytes held back by expat, after `bytesFed` bytes, exceed
    /// the limit: an unfinished top-level element (or the prolog), or one unfinished piece of
    /// markup between them. Nil when within the limit.
    func heldBackTooMuch(bytesFed: Int) -> ParseStop? {
        let extent = extent
        let start = extent?.start ?? Int(XML_GetCurrentByteIndex(parser))
        guard start >= 0, bytesFed - start > limits.maxElementBytes else { return nil }
        let position = extent?.position ?? currentPosition
        return ParseStop(line: position.line, column: position.column + 1, message: limits.elementTooLarge)
    }

    /// The stop for an error that expat found at byte `index` beyond the limit of the element
    /// being read: the element is too large, whatever follows. Nil otherwise.
    func elementTooLarge(errorAt index: Int) -> ParseStop? {
        guard let extent, index - extent.start > limits.maxElementBytes else { return nil }
        let position = extent.position
        return ParseStop(line: position.line, column: position.column + 1, message: limits.elementTooLarge)
    }

    /// Where expat stands, in the input: line, and column from 0.
    var currentPosition: (line: Int, column: Int) {
        origin.map(line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)))
    }

    /// Stops the parser with `message` at `position` (by default the current one).
    mutating func halt(_ message: String, at position: (line: Int, column: Int)? = nil) {
        guard stop == nil else { return }
        let position = position ?? currentPosition
        stop = ParseStop(line: position.line, column: position.column + 1, message: message)
        XML_StopParser(parser, XML_FALSE)
    }
}

/// Whether the NUL-terminated `name` is exactly `text`.
@inline(__always)
func equal(_ name: UnsafePointer<CChar>, _ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    let expected = text.utf8Start
    return name.withMemoryRebound(to: UInt8.self, capacity: count + 1) { bytes in
        for i in 0..<count where bytes[i] != expected[i] { return false }
        return bytes[count] == 0
    }
}
