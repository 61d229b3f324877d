#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading into the batch: top-level elements (counted, and copied when the filter wants their
/// type), plain elements read without expat, an element's children, and the newest timestamp.
extension ParseState {
    /// The element type that `name` names, if any.
    static func elementType(_ name: UnsafePointer<CChar>) -> OSMElementType? {
        if equal(name, "node") { return .node }
        if equal(name, "way") { return .way }
        if equal(name, "relation") { return .relation }
        return nil
    }

    /// Counts a top-level element of `type` that starts at `extent` and, when the filter wants
    /// the type, starts copying it into the batch (`ParseContext.element`). Inlined into the
    /// start tag event, its one caller on the hot path.
    @inline(__always)
    mutating func startElement(_ type: OSMElementType, _ attributes: ExpatAttributes, at extent: ElementExtent) {
        guard countWanted(type) else {
            noteTimestamp(attributes, key: "timestamp")
            return
        }
        openElement(type, line: extent.position.line)
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
                    open.record.latitudeE7 = Self.coordinate(value)
                } else if equal(key, "lon") {
                    open.record.longitudeE7 = Self.coordinate(value)
                }
            case UInt8(ascii: "v"):
                if equal(key, "version") {
                    open.record.version = Self.integer(value) ?? 0
                } else if equal(key, "visible") {
                    open.isDeleted = open.isDeleted || equal(value, "false")
                }
            case UInt8(ascii: "a"):
                if equal(key, "action") { open.isDeleted = open.isDeleted || equal(value, "delete") }
            case UInt8(ascii: "t"):
                if equal(key, "timestamp") { noteTimestamp(value) }
            default:
                break
            }
        }
        guard let id else {
            halt("<\(type.xmlName)> without a valid id attribute")
            return
        }
        open.record.id = id
        context = .element(extent)
    }

    /// Ends the top-level element `open`: hands it to the batch when the filter keeps it (bare,
    /// without its tags, when only its type is kept), or takes its bytes back out.
    mutating func finishElement() {
        let element = open.record
        if open.isDeleted {
            summary.deleted += 1
        }
        if open.matchesFilter && !open.isDeleted {
            batch.elements.append(element)
        } else if bareTypes & 1 << element.type.rawValue != 0 && !open.isDeleted {
            // Delivered without its tags; their bytes stay in the arena until the batch is emptied.
            batch.tags.removeLast(batch.tags.count - Int(element.firstTag))
            var bare = element
            bare.tagCount = 0
            batch.elements.append(bare)
        } else {
            batch.bytes.removeLast(batch.bytes.count - open.arenaStart)
            batch.tags.removeLast(batch.tags.count - Int(element.firstTag))
            batch.refs.removeLast(batch.refs.count - Int(element.firstRef))
            batch.members.removeLast(batch.members.count - Int(element.firstMember))
        }
    }

    /// Counts a top-level element of `type`; whether the filter wants its type.
    @inline(__always)
    private mutating func countWanted(_ type: OSMElementType) -> Bool {
        switch type {
        case .node: summary.nodes += 1
        case .way: summary.ways += 1
        case .relation: summary.relations += 1
        }
        return types & 1 << type.rawValue != 0
    }

    /// Starts copying an element of `type` whose start tag is on `line` into the batch, as
    /// `open`: its attributes, tags, node references and members follow.
    @inline(__always)
    private mutating func openElement(_ type: OSMElementType, line: Int) {
        open = OpenElement(
            record: ElementRecord(
                type: type, id: 0, version: 0, line: line, latitudeE7: nil, longitudeE7: nil,
                firstTag: Int32(batch.tags.count), tagCount: 0, firstRef: Int32(batch.refs.count),
                firstMember: Int32(batch.members.count)),
            arenaStart: batch.bytes.count, matchesFilter: tagKeys.isEmpty)
    }

    /// Counts and, when the filter asks for it, keeps a plain element read without expat, whose
    /// start tag is on `line` of the piece; its values are offsets from `base`. It stands
    /// between two top-level elements, so no element is open; it is within the limits.
    mutating func add(_ element: PlainElement, _ children: PlainChildren, line: Int, in base: UnsafePointer<UInt8>) {
        summary.plainElements += 1
        if let timestamp = element.timestamp, timestamp.count == Self.timestampLength {
            noteTimestamp(base + timestamp.lowerBound)
        }
        guard countWanted(element.type) else { return }
        openElement(element.type, line: line)
        open.record.id = element.id
        open.record.version = element.version
        open.record.latitudeE7 = element.latitude.flatMap { OSMBytes(base, $0).fixedPointE7 }
        open.record.longitudeE7 = element.longitude.flatMap { OSMBytes(base, $0).fixedPointE7 }
        open.isDeleted = element.isDeleted
        for tag in children.tags {
            appendTag(
                base + tag.key.lowerBound, count: tag.key.count, base + tag.value.lowerBound, count: tag.value.count)
        }
        batch.refs.append(contentsOf: children.refs)
        open.record.refCount += Int32(children.refs.count)
        for member in children.members {
            let role = member.role ?? 0..<0  // no role: an empty span, as expat's path has
            let span = batch.append(base + role.lowerBound, count: role.count)
            batch.members.append(MemberRecord(type: member.type, ref: member.ref, role: span))
        }
        open.record.memberCount += Int32(children.members.count)
        finishElement()
    }

    /// Reads a child of `open`: a tag, a way's node reference, a relation's member. Inlined into
    /// the start tag event, its one caller on the hot path.
    @inline(__always)
    mutating func addChild(_ name: UnsafePointer<CChar>, _ attributes: ExpatAttributes) {
        if equal(name, "tag") {
            addTag(attributes)
        } else if open.record.type == .way && equal(name, "nd") {
            addNodeRef(attributes)
        } else if open.record.type == .relation && equal(name, "member") {
            addMember(attributes)
        }
    }

    private mutating func addNodeRef(_ attributes: ExpatAttributes) {
        var index = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            index += 2
            if equal(name, "ref"), let ref = Self.integer(value) {
                batch.refs.append(ref)
                open.record.refCount += 1
                return
            }
        }
        halt("<nd> without a valid ref attribute")
    }

    private mutating func addMember(_ attributes: ExpatAttributes) {
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
        open.record.memberCount += 1
    }

    private mutating func addTag(_ attributes: ExpatAttributes) {
        var key: UnsafePointer<CChar>?
        var value: UnsafePointer<CChar>?
        var index = 0
        while let name = attributes[index], let text = attributes[index + 1] {
            index += 2
            if equal(name, "k") { key = text } else if equal(name, "v") { value = text }
        }
        guard let key, let value else { return }
        guard open.record.tagCount < limits.maxTags else {
            halt("more than \(limits.maxTags) tags on one element (max_tags)")
            return
        }
        let keyLength = strlen(key)
        let valueLength = strlen(value)
        guard keyLength <= limits.maxValueBytes && valueLength <= limits.maxValueBytes else {
            halt("a tag key or value longer than \(limits.maxValueBytes) bytes (max_value_bytes)")
            return
        }
        appendTag(key, count: keyLength, value, count: valueLength)
    }

    /// Adds a tag to `open`, its key and value within the limits.
    private mutating func appendTag(
        _ key: UnsafeRawPointer, count keyLength: Int, _ value: UnsafeRawPointer, count valueLength: Int
    ) {
        if !open.matchesFilter {
            open.matchesFilter = tagKeys.contains { $0.count == keyLength && memcmp($0, key, keyLength) == 0 }
        }
        let tag = TagRecord(key: batch.append(key, count: keyLength), value: batch.append(value, count: valueLength))
        batch.tags.append(tag)
        open.record.tagCount += 1
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
        let newer =
            newestTimestamp.isEmpty || newestTimestamp.withUnsafeBytes { memcmp($0.baseAddress!, value, length) < 0 }
        if newer {
            newestTimestamp = Array(UnsafeBufferPointer(start: value, count: length))
            summary.newestTimestamp = String(decoding: newestTimestamp, as: UTF8.self)
        }
    }

    /// Keeps the newest timestamp of the attribute `key` among `attributes`.
    mutating func noteTimestamp(_ attributes: ExpatAttributes, key: StaticString) {
        var index = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            index += 2
            if equal(name, key) { noteTimestamp(value) }
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

extension ParseState {
    /// The NUL-terminated `value` as a coordinate in degrees × 10^7 (`OSMBytes.fixedPointE7`).
    fileprivate static func coordinate(_ value: UnsafePointer<CChar>) -> Int32? {
        value.withMemoryRebound(to: UInt8.self, capacity: 1) {
            OSMBytes(UnsafeBufferPointer(start: $0, count: strlen(value))).fixedPointE7
        }
    }
}
