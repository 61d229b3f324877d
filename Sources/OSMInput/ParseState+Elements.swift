#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading into the batch: top-level elements (counted, and copied when the filter wants their
/// type), plain elements read without expat, an element's children, and the newest timestamp.
/// Expat's attributes and the plain reader's go through one interpreter (`OSMAttribute`); this
/// file says what each path does with what it read.
extension ParseState {
    /// The element type that `name` names, if any.
    static func elementType(_ name: UnsafePointer<CChar>) -> OSMElementType? {
        OSMElementType.allCases.first { equal(name, $0.xmlName) }
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
        var fields = ElementAttributes()
        read(attributes, into: &fields)
        if let timestamp = fields.timestamp { noteTimestamp(timestamp) }
        guard fields.id != nil else {
            halt("<\(type.xmlName)> without a valid id attribute")
            return
        }
        openElement(type, fields, line: extent.position.line)
        context = .element(extent)
    }

    /// Ends the top-level element `open`: hands it to the batch when the filter keeps it (bare,
    /// without its tags, when only its type is kept, or when it is an osmChange deletion, which
    /// is always delivered), or takes its bytes back out.
    mutating func finishElement() {
        let element = open.record
        if open.isDeleted {
            summary.deleted += 1
        }
        if open.matchesFilter && !open.isDeleted {
            batch.elements.append(element)
        } else if (bareTypes & 1 << element.type.rawValue != 0 || element.action == .delete) && !open.isDeleted {
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

    /// Starts copying an element of `type` with `attributes` (its id read) whose start tag is
    /// on `line` into the batch, as `open`: its tags, node references and members follow. In an
    /// osmChange block it takes the block's action, `.delete` when it is marked deleted.
    @inline(__always)
    private mutating func openElement(_ type: OSMElementType, _ attributes: ElementAttributes, line: Int) {
        let action = self.action.map { attributes.isDeleted ? .delete : $0 }
        open = OpenElement(
            record: ElementRecord(
                type: type, action: action, id: attributes.id ?? 0, version: attributes.version, line: line,
                latitudeE7: attributes.latitudeE7, longitudeE7: attributes.longitudeE7,
                firstTag: Int32(batch.tags.count), tagCount: 0, firstRef: Int32(batch.refs.count),
                firstMember: Int32(batch.members.count)),
            arenaStart: batch.bytes.count, isDeleted: action == nil && attributes.isDeleted,
            matchesFilter: tagKeys.isEmpty)
    }

    /// Counts and, when the filter asks for it, keeps a plain element read without expat, whose
    /// start tag is on `line` of the piece; its values point into the piece. It stands between
    /// two top-level elements, so no element is open; it is within the limits.
    mutating func add(_ element: PlainElement, _ children: PlainChildren, line: Int) {
        summary.plainElements += 1
        if let timestamp = element.attributes.timestamp { noteTimestamp(timestamp) }
        guard countWanted(element.type) else { return }
        openElement(element.type, element.attributes, line: line)
        for tag in children.tags { appendTag(tag.key, tag.value) }
        batch.refs.append(contentsOf: children.refs)
        open.record.refCount += Int32(children.refs.count)
        for member in children.members { appendMember(type: member.type, ref: member.ref, role: member.role) }
        finishElement()
    }

    /// Reads a child of `open`: a tag, a way's node reference, a relation's member. Inlined into
    /// the start tag event, its one caller on the hot path.
    @inline(__always)
    mutating func addChild(_ name: UnsafePointer<CChar>, _ attributes: ExpatAttributes) {
        guard let child = OSMChild.named(in: open.record.type, { equal(name, $0) }) else { return }
        var fields = ChildAttributes(of: child)
        read(attributes, into: &fields)
        switch child {
        case .tag:
            guard let key = fields.key, let value = fields.value else { return }
            guard open.record.tagCount < limits.maxTags else {
                halt("more than \(limits.maxTags) tags on one element (max_tags)")
                return
            }
            guard key.buffer.count <= limits.maxValueBytes && value.buffer.count <= limits.maxValueBytes else {
                halt("a tag key or value longer than \(limits.maxValueBytes) bytes (max_value_bytes)")
                return
            }
            appendTag(key, value)
        case .nodeRef:
            guard let ref = fields.ref else {
                halt("<nd> without a valid ref attribute")
                return
            }
            batch.refs.append(ref)
            open.record.refCount += 1
        case .member:
            appendMember(type: fields.type, ref: fields.ref, role: fields.role)
        }
    }

    /// Hands each of expat's `attributes` to `fields`; those it does not take are passed over.
    @inline(__always)
    private func read<Fields: AttributeReading>(_ attributes: ExpatAttributes, into fields: inout Fields) {
        var index = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            index += 2
            _ = fields.read(OSMBytes(cString: name), OSMBytes(cString: value))
        }
    }

    /// Adds a tag to `open`, its key and value within the limits.
    private mutating func appendTag(_ key: OSMBytes, _ value: OSMBytes) {
        if !open.matchesFilter {
            open.matchesFilter = tagKeys.contains { $0.count == key.buffer.count && $0.elementsEqual(key.buffer) }
        }
        batch.tags.append(TagRecord(key: batch.append(key), value: batch.append(value)))
        open.record.tagCount += 1
    }

    /// Adds a member to `open`; without a role, an empty one.
    private mutating func appendMember(type: OSMElementType?, ref: Int64?, role: OSMBytes?) {
        let role = role.map { batch.append($0) } ?? ByteSpan(start: Int32(batch.bytes.count), count: 0)
        batch.members.append(MemberRecord(type: type, ref: ref, role: role))
        open.record.memberCount += 1
    }

    /// Bytes of a timestamp in the form that `noteTimestamp` keeps.
    private static let timestampLength = 20

    /// Keeps the newest ISO 8601 UTC timestamp ("2021-04-21T20:21:46Z") of `value`; in that
    /// fixed form, byte order is time order, so no date is parsed per element.
    private mutating func noteTimestamp(_ value: OSMBytes) {
        let length = Self.timestampLength
        let value = value.buffer
        guard value.count == length, value[4] == 0x2D, value[10] == 0x54, value[19] == 0x5A else { return }
        let newer =
            newestTimestamp.isEmpty
            || newestTimestamp.withUnsafeBytes { memcmp($0.baseAddress!, value.baseAddress!, length) < 0 }
        if newer {
            newestTimestamp = Array(value)
            summary.newestTimestamp = String(decoding: newestTimestamp, as: UTF8.self)
        }
    }

    /// Keeps the newest timestamp of the attribute `key` among `attributes`.
    mutating func noteTimestamp(_ attributes: ExpatAttributes, key: StaticString) {
        var index = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            index += 2
            if equal(name, key) { noteTimestamp(OSMBytes(cString: value)) }
        }
    }
}
