/// The one interpreter of OSM XML attributes, for both ways an element is read.
///
/// Expat's handlers (ParseState+Elements.swift) hand it each attribute of a start tag, and the
/// plain reader (`PlainElement`) each attribute it cut out of a piece, as bytes (`OSMBytes`);
/// the interpreter alone knows the attributes' names and how their values are read (`int64`,
/// `fixedPointE7`, the words that mark an element deleted, an element type), so both paths give
/// an element the same id, version, coordinates, tags, node references and members by
/// construction. The paths differ only in what they do with what the interpreter does not take
/// (`read` returns false) or what is missing: expat's path passes over an unknown attribute and
/// reports a missing id or ref, where the plain reader leaves the whole element to expat, which
/// then does the same.
enum OSMAttribute: UInt16 {
    /// A top-level element's.
    case id, version, timestamp, changeset, uid, user, lat, lon, visible, action
    /// A child's: `<tag k v>`, `<nd ref>`, `<member type ref role>`.
    case k, v, ref, type, role

    /// The attribute's bit in a set of attributes.
    var bit: UInt16 { 1 << rawValue }

    /// The attribute's name.
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
        case .k: "k"
        case .v: "v"
        case .ref: "ref"
        case .type: "type"
        case .role: "role"
        }
    }

    /// The attribute that `name` names, told apart by its first byte; nil for any other name.
    @inline(__always)
    init?(_ name: OSMBytes) {
        guard let first = name.buffer.first else { return nil }
        let candidates: (OSMAttribute, OSMAttribute?)
        switch first {
        case UInt8(ascii: "i"): candidates = (.id, nil)
        case UInt8(ascii: "v"): candidates = name.buffer.count == 1 ? (.v, nil) : (.version, .visible)
        case UInt8(ascii: "t"): candidates = (.timestamp, .type)
        case UInt8(ascii: "c"): candidates = (.changeset, nil)
        case UInt8(ascii: "u"): candidates = (.uid, .user)
        case UInt8(ascii: "l"): candidates = (.lat, .lon)
        case UInt8(ascii: "a"): candidates = (.action, nil)
        case UInt8(ascii: "k"): candidates = (.k, nil)
        case UInt8(ascii: "r"): candidates = (.ref, .role)
        default: return nil
        }
        if name.equals(candidates.0.name) {
            self = candidates.0
        } else if let other = candidates.1, name.equals(other.name) {
            self = other
        } else {
            return nil
        }
    }
}

/// A start tag's attributes as the interpreter reads them, one `name="value"` at a time.
protocol AttributeReading {
    /// Reads the attribute `name="value"`; false, taking nothing, when the name is not one
    /// this start tag has or was read before.
    mutating func read(_ name: OSMBytes, _ value: OSMBytes) -> Bool
}

/// What Spots reads of a top-level element's start tag (`<node>`, `<way>`, `<relation>`).
struct ElementAttributes: AttributeReading {
    /// The `id`, when it is a whole number.
    var id: Int64?
    /// The `version`, 0 when absent or not a number.
    var version: Int64 = 0
    /// The `lat` and `lon`, in degrees × 10^7, when they are numbers.
    var latitudeE7: Int32?
    var longitudeE7: Int32?
    /// The `timestamp` value, as bytes (`ParseState` keeps the newest).
    var timestamp: OSMBytes?
    /// `visible="false"` or JOSM's `action="delete"`.
    var isDeleted = false
    private var seen: UInt16 = 0

    /// The attributes a top-level element may have.
    private static let names: UInt16 = [
        OSMAttribute.id, .version, .timestamp, .changeset, .uid, .user, .lat, .lon, .visible, .action,
    ].reduce(0) { $0 | $1.bit }

    /// Reads the attribute `name="value"` (`AttributeReading`).
    @inline(__always)
    mutating func read(_ name: OSMBytes, _ value: OSMBytes) -> Bool {
        guard let attribute = OSMAttribute(name), Self.names & attribute.bit != 0, seen & attribute.bit == 0 else {
            return false
        }
        seen |= attribute.bit
        switch attribute {
        case .id: id = value.int64
        case .version: version = value.int64 ?? 0
        case .timestamp: timestamp = value
        case .lat: latitudeE7 = value.fixedPointE7
        case .lon: longitudeE7 = value.fixedPointE7
        case .visible: isDeleted = isDeleted || value.equals("false")
        case .action: isDeleted = isDeleted || value.equals("delete")
        default: break
        }
        return true
    }
}

/// A child of a top-level element that Spots reads, by its XML name.
enum OSMChild {
    /// `<tag k="…" v="…"/>`, in any element.
    case tag
    /// `<nd ref="…"/>`, in a way.
    case nodeRef
    /// `<member type="…" ref="…" role="…"/>`, in a relation.
    case member

    /// The element's name.
    var xmlName: StaticString {
        switch self {
        case .tag: "tag"
        case .nodeRef: "nd"
        case .member: "member"
        }
    }

    /// The child of an element of `type` that `matches` says is next, if any.
    @inline(__always)
    static func named(in type: OSMElementType, _ matches: (StaticString) -> Bool) -> OSMChild? {
        if matches(OSMChild.tag.xmlName) { return .tag }
        if type == .way && matches(OSMChild.nodeRef.xmlName) { return .nodeRef }
        if type == .relation && matches(OSMChild.member.xmlName) { return .member }
        return nil
    }
}

/// What Spots reads of a child's start tag.
struct ChildAttributes: AttributeReading {
    /// A tag's `k` and `v`.
    var key: OSMBytes?
    var value: OSMBytes?
    /// A node reference's or member's `ref`, when it is a whole number.
    var ref: Int64?
    /// A member's `type`, when it names an element type.
    var type: OSMElementType?
    /// A member's `role`.
    var role: OSMBytes?
    private let names: UInt16
    private var seen: UInt16 = 0

    /// The attributes of a `child`, none read yet.
    @inline(__always)
    init(of child: OSMChild) {
        names =
            switch child {
            case .tag: OSMAttribute.k.bit | OSMAttribute.v.bit
            case .nodeRef: OSMAttribute.ref.bit
            case .member: OSMAttribute.type.bit | OSMAttribute.ref.bit | OSMAttribute.role.bit
            }
    }

    /// Reads the attribute `name="value"` (`AttributeReading`).
    @inline(__always)
    mutating func read(_ name: OSMBytes, _ value: OSMBytes) -> Bool {
        guard let attribute = OSMAttribute(name), names & attribute.bit != 0, seen & attribute.bit == 0 else {
            return false
        }
        seen |= attribute.bit
        switch attribute {
        case .k: key = value
        case .v: self.value = value
        case .ref: ref = value.int64
        case .type: type = OSMElementType.allCases.first { value.equals($0.xmlName) }
        case .role: role = value
        default: break
        }
        return true
    }
}
