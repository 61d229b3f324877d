/// A top-level element in its plain form, read without expat.
///
/// Nearly every byte of an OSM extract is in plain elements: untagged nodes, a line each
/// (68% of metro16's bytes), and ways of node references and tags as osmium, Osmosis and the
/// API write them, a child to a line (27% more). Expat spends about 14 ns on each of their
/// bytes; this reader checks and reads them in a fraction of that, and leaves everything else
/// to expat (`PieceScanner`).
///
/// The plain form is a strict subset of well-formed XML, read exactly as expat would
/// (`PlainCursor` reads its pieces):
/// - `<node`, `<way` or `<relation`, then one or more attributes, each after one or more spaces
///   (U+0020 only), then optional spaces and `/>`, or `>` and the children;
/// - attribute names only from `id`, `version`, `timestamp`, `changeset`, `uid`, `user`, `lat`,
///   `lon`, `visible` and `action`, each at most once, `=` right after the name;
/// - values in `"` or `'`, holding printable ASCII but `<` and `&`, or UTF-8 sequences of XML
///   characters: no byte that expat would change (a tab or line break is normalized to a
///   space, a reference is replaced) or refuse;
/// - an `id` that is a whole number;
/// - children (`PlainChildren`), each an empty element written on the same terms:
///   `<tag k="…" v="…"/>`, in a way also `<nd ref="…"/>` and in a relation
///   `<member type="…" ref="…" role="…"/>`, each attribute at most once, with spaces, tabs and
///   line feeds between them, then the end tag exactly (`</way>`);
/// - within the reader's limits: at most `maxTags` tags, keys and values of at most
///   `maxValueBytes`, and at most `maxElementBytes` bytes in all.
///
/// Anything else, however valid, is not plain: expat reads it, errors included.
struct PlainElement {
    var type: OSMElementType
    /// The offset just after the element's last `>`.
    var end = 0
    var id: Int64 = 0
    /// The `version` attribute, 0 when absent or not a number (as expat's path reads it).
    var version: Int64 = 0
    /// Offsets of the `lat`, `lon` and `timestamp` values, when present.
    var latitude: Range<Int>?
    var longitude: Range<Int>?
    var timestamp: Range<Int>?
    /// `visible="false"` or `action="delete"`.
    var isDeleted = false
    /// Line feeds in the element, between its children.
    var lineFeeds = 0
    /// Characters on the element's last line up to its end, from its `<` when it is on one line,
    /// as expat counts columns: bytes but UTF-8 continuation bytes.
    var lastLineCharacters = 0

    /// The plain element whose `<` is at `start` of `base[..<count]`, its children in
    /// `children`; nil when the bytes there are not a plain element within `limits`.
    static func read(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, limits: OSMReadLimits,
        children: inout PlainChildren
    ) -> PlainElement? {
        var cursor = PlainCursor(base, at: start, end: min(count, start + limits.maxElementBytes))
        guard cursor.skip(UInt8(ascii: "<")),
            let type = OSMElementType.allCases.first(where: { cursor.skip($0.xmlName) })
        else { return nil }
        var element = PlainElement(type: type)
        guard let hasChildren = element.readAttributes(&cursor) else { return nil }
        children.removeAll()
        if hasChildren {
            guard children.read(in: type, &cursor, limits: limits) else { return nil }
        }
        element.end = cursor.index
        element.lineFeeds = cursor.lineFeeds
        element.lastLineCharacters = cursor.lineCharacters
        return element
    }

    /// Reads the start tag's attributes and its end; whether children follow (`>` rather than
    /// `/>`), or nil when the tag is not plain.
    private mutating func readAttributes(_ cursor: inout PlainCursor) -> Bool? {
        var seen: UInt16 = 0
        var id: Range<Int>?
        var hasChildren: Bool
        readAttributes: while true {
            switch cursor.tagPart() {
            case nil: return nil
            case .emptyElementEnd:
                hasChildren = false
                break readAttributes
            case .startTagEnd:
                hasChildren = true
                break readAttributes
            case .attribute(let name, let value):
                guard let attribute = Attribute(name, cursor), seen & attribute.bit == 0 else {
                    return nil  // unknown, or a duplicate: expat's error to report
                }
                seen |= attribute.bit
                switch attribute {
                case .id: id = value
                case .version: version = cursor.integer(value) ?? 0
                case .timestamp: timestamp = value
                case .lat: latitude = value
                case .lon: longitude = value
                case .visible: isDeleted = isDeleted || cursor.bytes(value, are: "false")
                case .action: isDeleted = isDeleted || cursor.bytes(value, are: "delete")
                case .changeset, .uid, .user: break
                }
            }
        }
        guard let id, let value = cursor.integer(id) else { return nil }
        self.id = value
        return hasChildren
    }

    /// The attributes a plain element may have.
    private enum Attribute: UInt16 {
        case id, version, timestamp, changeset, uid, user, lat, lon, visible, action

        var bit: UInt16 { 1 << rawValue }

        var name: StaticString {
            switch self {
            case .id: "id"
            case .version: "version"
            case .timestamp: "timestamp"
            case .changeset: "changeset"
            case .uid: "uid"
            case .user: "user"
            case .lat: "lat"
            case .lon: "lon"
            case .visible: "visible"
            case .action: "action"
            }
        }

        /// The attribute named by the bytes of `name`, told apart by their first byte; nil for
        /// any other name.
        init?(_ name: Range<Int>, _ cursor: PlainCursor) {
            let candidates: (Attribute, Attribute?)
            switch cursor.base[name.lowerBound] {
            case UInt8(ascii: "i"): candidates = (.id, nil)
            case UInt8(ascii: "v"): candidates = (.version, .visible)
            case UInt8(ascii: "t"): candidates = (.timestamp, nil)
            case UInt8(ascii: "c"): candidates = (.changeset, nil)
            case UInt8(ascii: "u"): candidates = (.uid, .user)
            case UInt8(ascii: "l"): candidates = (.lat, .lon)
            case UInt8(ascii: "a"): candidates = (.action, nil)
            default: return nil
            }
            if cursor.bytes(name, are: candidates.0.name) {
                self = candidates.0
            } else if let other = candidates.1, cursor.bytes(name, are: other.name) {
                self = other
            } else {
                return nil
            }
        }
    }
}

/// The children of a plain element, as offsets into the piece and numbers. The scanner keeps
/// one and reuses it, so that reading allocates nothing once its arrays have grown.
struct PlainChildren {
    /// A `<tag>`: the offsets of its `k` and `v` values.
    struct Tag {
        var key: Range<Int>
        var value: Range<Int>
    }

    /// A `<member>`: its `type` and `ref` as expat's path reads them (nil when absent or not an
    /// element type or a number), and the offsets of its `role` value (nil when absent).
    struct Member {
        var type: OSMElementType?
        var ref: Int64?
        var role: Range<Int>?
    }

    var tags: [Tag] = []
    /// The `ref` of each `<nd>`.
    var refs: [Int64] = []
    var members: [Member] = []

    /// Empties the lists, keeping their room.
    mutating func removeAll() {
        tags.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
    }

    /// Reads the children of an element of `type` after its start tag, and its end tag; false
    /// when they are not plain.
    mutating func read(in type: OSMElementType, _ cursor: inout PlainCursor, limits: OSMReadLimits) -> Bool {
        while true {
            cursor.skipWhitespace()
            if cursor.skip("</") { return cursor.skip(type.xmlName) && cursor.skip(UInt8(ascii: ">")) }
            guard cursor.skip(UInt8(ascii: "<")) else { return false }
            let isChild =
                if cursor.skip("tag") {
                    tags.count < limits.maxTags && readTag(&cursor, maxValueBytes: limits.maxValueBytes)
                } else if type == .way && cursor.skip("nd") {
                    readNodeRef(&cursor)
                } else if type == .relation && cursor.skip("member") {
                    readMember(&cursor)
                } else {
                    false
                }
            guard isChild else { return false }
        }
    }

    private mutating func readTag(_ cursor: inout PlainCursor, maxValueBytes: Int) -> Bool {
        var key: Range<Int>?
        var value: Range<Int>?
        while let part = cursor.tagPart() {
            switch part {
            case .attribute(let name, let text):
                if key == nil && cursor.bytes(name, are: "k") {
                    key = text
                } else if value == nil && cursor.bytes(name, are: "v") {
                    value = text
                } else {
                    return false
                }
            case .emptyElementEnd:
                guard let key, let value, key.count <= maxValueBytes, value.count <= maxValueBytes else { return false }
                tags.append(Tag(key: key, value: value))
                return true
            case .startTagEnd:
                return false
            }
        }
        return false
    }

    private mutating func readNodeRef(_ cursor: inout PlainCursor) -> Bool {
        var ref: Int64?
        while let part = cursor.tagPart() {
            switch part {
            case .attribute(let name, let text):
                guard ref == nil, cursor.bytes(name, are: "ref"), let value = cursor.integer(text) else { return false }
                ref = value
            case .emptyElementEnd:
                guard let ref else { return false }
                refs.append(ref)
                return true
            case .startTagEnd:
                return false
            }
        }
        return false
    }

    private mutating func readMember(_ cursor: inout PlainCursor) -> Bool {
        var member = Member()
        var seen = (type: false, ref: false)
        while let part = cursor.tagPart() {
            switch part {
            case .attribute(let name, let text):
                if !seen.type && cursor.bytes(name, are: "type") {
                    seen.type = true
                    member.type = Self.elementType(text, cursor)
                } else if !seen.ref && cursor.bytes(name, are: "ref") {
                    seen.ref = true
                    member.ref = cursor.integer(text)
                } else if member.role == nil && cursor.bytes(name, are: "role") {
                    member.role = text
                } else {
                    return false
                }
            case .emptyElementEnd:
                members.append(member)
                return true
            case .startTagEnd:
                return false
            }
        }
        return false
    }

    /// The element type the bytes of `range` name, if any.
    private static func elementType(_ range: Range<Int>, _ cursor: PlainCursor) -> OSMElementType? {
        OSMElementType.allCases.first { cursor.bytes(range, are: $0.xmlName) }
    }
}

/// What comes next in a plain tag (`PlainCursor.tagPart`).
enum PlainTagPart {
    /// An attribute: the offsets of its name and of its value.
    case attribute(name: Range<Int>, value: Range<Int>)
    /// `/>`: the end of an empty element.
    case emptyElementEnd
    /// `>`: the end of a start tag, children following.
    case startTagEnd
}

extension PlainCursor {
    /// Moves over what comes next in a tag: an attribute after one or more spaces, or optional
    /// spaces and the tag's end. Nil when that is not plain.
    mutating func tagPart() -> PlainTagPart? {
        let spaces = skipSpaces()
        if skip("/>") { return .emptyElementEnd }
        if skip(UInt8(ascii: ">")) { return .startTagEnd }
        guard spaces > 0, let name = attributeName(), let value = quotedValue() else { return nil }
        return .attribute(name: name, value: value)
    }
}
