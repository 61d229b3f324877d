/// A top-level element in its plain form, read without expat.
///
/// Nearly every byte of an OSM extract is in plain elements: untagged nodes, a line each
/// (68% of metro16's bytes), and ways of node references and tags as osmium, Osmosis and the
/// API write them, a child to a line (27% more). Expat spends about 14 ns on each of their
/// bytes; this reader checks and reads them in a fraction of that, and leaves everything else
/// to expat (`PieceScanner`).
///
/// The plain form is a strict subset of well-formed XML, read exactly as expat would
/// (`PlainCursor` reads its pieces, and the interpreter that expat's path uses, `OSMAttribute`,
/// their attributes):
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
    /// Its start tag's attributes, as the interpreter read them; values point into the piece.
    var attributes = ElementAttributes()
    /// Line feeds in the element, between its children.
    var lineFeeds = 0
    /// Characters on the element's last line up to its end, from its `<` when it is on one line,
    /// as expat counts columns: bytes but UTF-8 continuation bytes.
    var lastLineCharacters = 0

    /// The plain element whose `<` is at `start` of `bytes`, its children in `children`; nil
    /// when the bytes there are not a plain element within `limits`.
    static func read(
        _ bytes: XMLBytes, from start: Int, limits: OSMReadLimits, children: inout PlainChildren
    ) -> PlainElement? {
        var cursor = PlainCursor(bytes, at: start, end: start + limits.maxElementBytes)
        guard cursor.skip(UInt8(ascii: "<")),
            let type = OSMElementType.allCases.first(where: { cursor.skip($0.xmlName) })
        else { return nil }
        var element = PlainElement(type: type)
        // An unknown or repeated attribute, or a missing id, is expat's to report.
        guard let hasChildren = cursor.readAttributes(into: &element.attributes), element.attributes.id != nil else {
            return nil
        }
        children.removeAll()
        if hasChildren {
            guard children.read(in: type, &cursor, limits: limits) else { return nil }
        }
        element.end = cursor.index
        element.lineFeeds = cursor.lineFeeds
        element.lastLineCharacters = cursor.lineCharacters
        return element
    }
}

/// The children of a plain element, their values pointing into the piece. The scanner keeps
/// one and reuses it, so that reading allocates nothing once its arrays have grown.
struct PlainChildren {
    /// A `<tag>`: its `k` and `v` values.
    struct Tag {
        var key: OSMBytes
        var value: OSMBytes
    }

    /// A `<member>` (`ChildAttributes`): its `type` and `ref` (nil when absent or not an
    /// element type or a number), and its `role` value (nil when absent).
    struct Member {
        var type: OSMElementType?
        var ref: Int64?
        var role: OSMBytes?
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
    /// when they are not plain: an attribute the interpreter does not take, a tag without its
    /// key or value or over the limits, a node reference without a valid ref.
    mutating func read(in type: OSMElementType, _ cursor: inout PlainCursor, limits: OSMReadLimits) -> Bool {
        while true {
            cursor.skipWhitespace()
            if cursor.skip("</") { return cursor.skip(type.xmlName) && cursor.skip(UInt8(ascii: ">")) }
            guard cursor.skip(UInt8(ascii: "<")), let child = OSMChild.named(in: type, { cursor.skip($0) }) else {
                return false
            }
            var attributes = ChildAttributes(of: child)
            guard cursor.readAttributes(into: &attributes) == false else { return false }  // `/>` only
            switch child {
            case .tag:
                guard tags.count < limits.maxTags, let key = attributes.key, let value = attributes.value,
                    key.buffer.count <= limits.maxValueBytes, value.buffer.count <= limits.maxValueBytes
                else { return false }
                tags.append(Tag(key: key, value: value))
            case .nodeRef:
                guard let ref = attributes.ref else { return false }
                refs.append(ref)
            case .member:
                members.append(Member(type: attributes.type, ref: attributes.ref, role: attributes.role))
            }
        }
    }
}
