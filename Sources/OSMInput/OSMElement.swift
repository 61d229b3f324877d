/// The three top-level OSM XML elements that carry data.
public enum OSMElementType: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    case node, way, relation

    /// The name of its XML element.
    var xmlName: StaticString {
        switch self {
        case .node: "node"
        case .way: "way"
        case .relation: "relation"
        }
    }
}

/// Tags read as bytes, in document order: an element's, or what a reader of elements kept of them.
public protocol OSMTagged {
    /// How many tags there are.
    var tagCount: Int { get }
    /// The key and value of tag `index`, in document order.
    func tag(at index: Int) -> (key: OSMBytes, value: OSMBytes)
}

extension OSMTagged {
    /// The value of the first tag with key `key`, or nil.
    public func value(forKey key: StaticString) -> OSMBytes? {
        for index in 0..<tagCount {
            let tag = tag(at: index)
            if tag.key.equals(key) { return tag.value }
        }
        return nil
    }
}

/// One top-level OSM element as the parser read it: its type, id and version, its coordinate
/// bytes (nodes) and its tags. A view into a batch: valid only while the handler runs.
public struct OSMElement: OSMTagged {
    /// Node, way or relation.
    public let type: OSMElementType
    /// The `id` attribute.
    public let id: Int64
    /// The `version` attribute, 0 when absent.
    public let version: Int64
    /// The line of the element's start tag in the input, from 1.
    public let line: Int
    let record: ElementRecord
    let bytes: UnsafeBufferPointer<UInt8>
    let tags: UnsafeBufferPointer<TagRecord>
    let refs: UnsafeBufferPointer<Int64>
    let members: UnsafeBufferPointer<MemberRecord>

    /// A node's latitude in degrees × 10^7 (the `lat` attribute; PBF's scaled value); nil when
    /// absent, not a number or out of Int32.
    public var latitudeE7: Int32? { record.latitudeE7 }
    /// A node's longitude in degrees × 10^7 (the `lon` attribute; PBF's scaled value); nil when
    /// absent, not a number or out of Int32.
    public var longitudeE7: Int32? { record.longitudeE7 }

    /// What an osmChange file does to the object: its block's action, `.delete` too for an
    /// element marked `visible="false"`; nil for an element of an extract (`OSMReadForm`).
    public var action: OSMChangeAction? { record.action }

    /// How many `<tag>` children the element has (0 for an element delivered bare).
    public var tagCount: Int { Int(record.tagCount) }

    /// A way's node references (`<nd ref>`), in order; empty for nodes and relations.
    public var nodeRefs: UnsafeBufferPointer<Int64> {
        UnsafeBufferPointer(rebasing: refs[Int(record.firstRef)..<Int(record.firstRef + record.refCount)])
    }

    /// How many `<member>` children a relation has; 0 for nodes and ways.
    public var memberCount: Int { Int(record.memberCount) }

    /// Member `index` of a relation, in document order.
    public func member(at index: Int) -> OSMMember {
        let member = members[Int(record.firstMember) + index]
        return OSMMember(type: member.type, ref: member.ref, role: slice(member.role)!)
    }

    /// The key and value of tag `index`, in document order.
    public func tag(at index: Int) -> (key: OSMBytes, value: OSMBytes) {
        let tag = tags[Int(record.firstTag) + index]
        return (slice(tag.key)!, slice(tag.value)!)
    }

    private func slice(_ span: ByteSpan) -> OSMBytes? {
        guard span.count >= 0 else { return nil }
        return OSMBytes(UnsafeBufferPointer(rebasing: bytes[Int(span.start)..<Int(span.start + span.count)]))
    }
}

/// A run of bytes in a batch's arena; `count` is -1 for "absent".
struct ByteSpan: BitwiseCopyable {
    var start: Int32
    var count: Int32
    static let absent = ByteSpan(start: 0, count: -1)

    /// The same span after the arena's bytes moved by `delta`.
    func shifted(by delta: Int32) -> ByteSpan {
        count < 0 ? self : ByteSpan(start: start + delta, count: count)
    }
}

/// One member of a relation: the referenced object and its role, as bytes (`outer`, `inner`).
public struct OSMMember {
    /// The member's type; nil when the `type` attribute names none of the three.
    public let type: OSMElementType?
    /// The member's id (`ref`); nil when absent or not a number.
    public let ref: Int64?
    /// The `role` attribute, empty when absent.
    public let role: OSMBytes
}

/// A relation member in a batch: its type, id and role bytes in the arena.
struct MemberRecord {
    var type: OSMElementType?
    var ref: Int64?
    var role: ByteSpan
}

/// A tag in a batch: its key and value in the arena.
struct TagRecord {
    var key: ByteSpan
    var value: ByteSpan
}

/// An element in a batch, pointing into the batch's arena and tag list.
struct ElementRecord: BitwiseCopyable {
    var type: OSMElementType
    /// The osmChange action; one byte beside `type`, so that the record stays 72 bytes.
    var action: OSMChangeAction?
    var id: Int64
    var version: Int64
    var line: Int
    var latitudeE7: Int32?
    var longitudeE7: Int32?
    var firstTag: Int32
    var tagCount: Int32
    var firstRef: Int32 = 0
    var refCount: Int32 = 0
    var firstMember: Int32 = 0
    var memberCount: Int32 = 0
}

/// Elements parsed from one stretch of input, in document order: flat arrays that are reused
/// from one stretch to the next, so that parsing allocates nothing per element once warm.
/// As libosmium's buffers are, a batch is also the unit that a parser of a piece parsed apart
/// hands over to the caller's thread (`PieceResult`).
struct ElementBatch {
    var bytes: [UInt8] = []
    var tags: [TagRecord] = []
    var refs: [Int64] = []
    var members: [MemberRecord] = []
    var elements: [ElementRecord] = []

    /// Copies `run` into the arena and returns where it went.
    mutating func append(_ run: OSMBytes) -> ByteSpan {
        let start = bytes.count
        bytes.append(contentsOf: run.buffer)
        return ByteSpan(start: Int32(start), count: Int32(run.buffer.count))
    }

    /// Calls `body` with each element in order, `lineOffset` added to its line.
    func forEachElement(lineOffset: Int = 0, _ body: (OSMElement) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            tags.withUnsafeBufferPointer { tags in
                refs.withUnsafeBufferPointer { refs in
                    members.withUnsafeBufferPointer { members in
                        for record in elements {
                            body(
                                OSMElement(
                                    type: record.type, id: record.id, version: record.version,
                                    line: record.line + lineOffset,
                                    record: record, bytes: bytes, tags: tags, refs: refs, members: members))
                        }
                    }
                }
            }
        }
    }

    /// Empties the batch, keeping its capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        elements.removeAll(keepingCapacity: true)
    }
}
