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

    /// The attribute that `name` names, told apart by its length and first byte, then compared
    /// with a literal (which the compiler unrolls); nil for any other name.
    @inline(__always)
    init?(_ name: OSMBytes) {
        let attribute: OSMAttribute
        switch (name.buffer.count, name.buffer.first) {
        case (1, UInt8(ascii: "k")): attribute = .k
        case (1, UInt8(ascii: "v")): attribute = .v
        case (2, _): attribute = .id
        case (3, UInt8(ascii: "l")): attribute = name.buffer[2] == UInt8(ascii: "t") ? .lat : .lon
        case (3, UInt8(ascii: "u")): attribute = .uid
        case (3, UInt8(ascii: "r")): attribute = .ref
        case (4, UInt8(ascii: "u")): attribute = .user
        case (4, UInt8(ascii: "t")): attribute = .type
        case (4, UInt8(ascii: "r")): attribute = .role
        case (6, _): attribute = .action
        case (7, _): attribute = name.buffer[1] == UInt8(ascii: "e") ? .version : .visible
        case (9, UInt8(ascii: "t")): attribute = .timestamp
        case (9, UInt8(ascii: "c")): attribute = .changeset
        default: return nil
        }
        guard name.equals(attribute.name) else { return nil }
        self = attribute
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
