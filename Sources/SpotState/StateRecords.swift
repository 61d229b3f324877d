import OSMInput

/// One object kept whole enough to be made a candidate again: its type, id, version, location
/// (nodes), and the tags and members the build reads. A record's fixed part; its tags and
/// members live in the tables beside (`RecordTable`).
public struct RecordHeader: BitwiseCopyable {
    /// The OSM id.
    public var id: Int64
    /// The `version` attribute, 0 when absent.
    public var version: Int64
    /// Where its first tag's key starts in the table's bytes.
    var firstByte: UInt64
    /// A node's location (degrees × 10^7); 0 for ways and relations.
    public var latitudeE7: Int32, longitudeE7: Int32
    var firstTag: UInt32, tagCount: UInt32
    var firstMember: UInt32, memberCount: UInt32
    var firstWayLookup: UInt32, wayLookupCount: UInt32
    var firstNodeLookup: UInt32, nodeLookupCount: UInt32
    /// `OSMElementType`'s raw value.
    public var typeCode: UInt8

    /// Node, way or relation; nil in a damaged table.
    public var type: OSMElementType? { OSMElementType(rawValue: typeCode) }
}

/// A multipolygon's member way as a record keeps it: its role and id.
public struct RecordMember: BitwiseCopyable, Equatable {
    /// The way's id; meaningful only when `isValid`.
    public var ref: Int64
    /// 0 for an outer ring's way (role `outer` or none), 1 for an inner's.
    public var role: UInt8
    /// 0 for a member whose reference could not be read (it fails the area, as in the build).
    public var isValid: UInt8

    /// A member way `ref` (nil: unreadable) of an outer (`inner` false) or inner ring.
    public init(ref: Int64?, inner: Bool) {
        self.ref = ref ?? 0
        role = inner ? 1 : 0
        isValid = ref == nil ? 0 : 1
    }
}

/// The length of one kept tag's key and value.
struct TagLength: BitwiseCopyable {
    var key: UInt32
    var value: UInt32
}

/// Records, in seven tables: headers (section RHDR), tag lengths (RTAG), members (RMEM), tag
/// bytes (RBYT), and an area's lookups (`AreaLookups`: RLKW, RLKR, RLKN). A view: of a
/// `RecordArena`'s arrays while a build reads, or of a state file's mapped sections while an
/// update runs. Every record's ranges are checked against the tables' bounds when a file's
/// table is opened.
public struct RecordTable {
    let headers: UnsafeBufferPointer<RecordHeader>
    let tagLengths: UnsafeBufferPointer<TagLength>
    let members: UnsafeBufferPointer<RecordMember>
    let bytes: UnsafeBufferPointer<UInt8>
    let wayLookups: UnsafeBufferPointer<WayLookup>
    let references: UnsafeBufferPointer<Int64>
    let nodeLookups: UnsafeBufferPointer<NodeLookup>

    /// The records of `file`, every block of their sections checked, and each record's tags
    /// and members checked to lie inside their tables.
    public init(_ file: StateFile) throws(StateError) {
        headers = try file.section("RHDR").table(of: RecordHeader.self)
        tagLengths = try file.section("RTAG").table(of: TagLength.self)
        members = try file.section("RMEM").table(of: RecordMember.self)
        bytes = try file.section("RBYT").table(of: UInt8.self)
        wayLookups = try file.section("RLKW").table(of: WayLookup.self)
        references = try file.section("RLKR").table(of: Int64.self)
        nodeLookups = try file.section("RLKN").table(of: NodeLookup.self)
        for way in wayLookups where way.referenceCount != WayLookup.missing {
            guard Int(way.firstReference) + Int(way.referenceCount) <= references.count else {
                throw StateError(.damaged, file: file.path, "a way lookup lies outside its table")
            }
        }
        for header in headers {
            var length = 0
            let tags = Int(header.firstTag)..<Int(header.firstTag) + Int(header.tagCount)
            if tags.upperBound <= tagLengths.count {
                for tag in tagLengths[tags] { length += Int(tag.key) + Int(tag.value) }
            }
            guard header.type != nil, tags.upperBound <= tagLengths.count,
                Int(header.firstMember) + Int(header.memberCount) <= members.count,
                Int(header.firstWayLookup) + Int(header.wayLookupCount) <= wayLookups.count,
                Int(header.firstNodeLookup) + Int(header.nodeLookupCount) <= nodeLookups.count,
                header.firstByte <= UInt64(bytes.count), length <= bytes.count - Int(header.firstByte)
            else { throw StateError(.damaged, file: file.path, "a record lies outside its tables") }
        }
    }

    init(
        headers: UnsafeBufferPointer<RecordHeader>, tagLengths: UnsafeBufferPointer<TagLength>,
        members: UnsafeBufferPointer<RecordMember>, bytes: UnsafeBufferPointer<UInt8>,
        wayLookups: UnsafeBufferPointer<WayLookup>, references: UnsafeBufferPointer<Int64>,
        nodeLookups: UnsafeBufferPointer<NodeLookup>
    ) {
        self.headers = headers
        self.tagLengths = tagLengths
        self.members = members
        self.bytes = bytes
        self.wayLookups = wayLookups
        self.references = references
        self.nodeLookups = nodeLookups
    }

    /// Records in the table.
    public var count: Int { headers.count }

    /// Record `index`, valid while the table's storage is.
    public subscript(index: Int) -> StateRecord {
        let header = headers[index]
        return StateRecord(
            header: header,
            tagLengths: UnsafeBufferPointer(
                rebasing: tagLengths[Int(header.firstTag)..<Int(header.firstTag) + Int(header.tagCount)]),
            bytes: UnsafeBufferPointer(rebasing: bytes[Int(header.firstByte)...]),
            members: UnsafeBufferPointer(
                rebasing: members[Int(header.firstMember)..<Int(header.firstMember) + Int(header.memberCount)]),
            lookups: RecordLookups(
                ways: UnsafeBufferPointer(
                    rebasing: wayLookups[
                        Int(header.firstWayLookup)..<Int(header.firstWayLookup) + Int(header.wayLookupCount)]),
                references: references,
                nodes: UnsafeBufferPointer(
                    rebasing: nodeLookups[
                        Int(header.firstNodeLookup)..<Int(header.firstNodeLookup) + Int(header.nodeLookupCount)])))
    }
}

/// One record as a table holds it: its header, tags (as `OSMTagged`, in the order kept) and members.
public struct StateRecord: OSMTagged {
    /// Its fixed part.
    public let header: RecordHeader
    fileprivate let tagLengths: UnsafeBufferPointer<TagLength>
    /// Its first tag's key, followed by the rest of its tags (and those of later records).
    fileprivate let bytes: UnsafeBufferPointer<UInt8>
    /// A multipolygon's member ways; none for nodes and ways.
    public let members: UnsafeBufferPointer<RecordMember>
    /// What placing the area looked up, when a build or update placed it.
    public let lookups: RecordLookups

    public var tagCount: Int { tagLengths.count }

    public func tag(at index: Int) -> (key: OSMBytes, value: OSMBytes) {
        var start = 0
        for earlier in tagLengths[..<index] { start += Int(earlier.key) + Int(earlier.value) }
        let (key, value) = (Int(tagLengths[index].key), Int(tagLengths[index].value))
        return (
            OSMBytes(UnsafeBufferPointer(rebasing: bytes[start..<start + key])),
            OSMBytes(UnsafeBufferPointer(rebasing: bytes[start + key..<start + key + value]))
        )
    }
}

/// Records gathered in memory, compactly: a header each and their tags' bytes in one arena (about
/// a quarter of a candidate's memory). The build keeps its selected objects here while it reads
/// (a candidate is made of each after the last input) and writes them into the state; an update
/// keeps its changed objects here.
public struct RecordArena {
    private var headers: [RecordHeader] = []
    private var tagLengths: [TagLength] = []
    private var members: [RecordMember] = []
    private var bytes: [UInt8] = []
    private var wayLookups: [WayLookup] = []
    private var references: [Int64] = []
    private var nodeLookups: [NodeLookup] = []

    /// An empty arena.
    public init() {}

    /// Records kept.
    public var count: Int { headers.count }

    /// Keeps `element`'s tags whose keys `keep` accepts, with its type, id, version, location
    /// (0 for ways and relations) and `members`. One tag's key or value over 4 GiB is refused
    /// by the reader's limits long before.
    public mutating func append(
        type: OSMElementType, id: Int64, version: Int64, latitudeE7: Int32 = 0, longitudeE7: Int32 = 0,
        tags element: some OSMTagged, keeping keep: (OSMBytes) -> Bool, members: [RecordMember] = [],
        lookups: AreaLookups = AreaLookups()
    ) {
        let firstTag = tagLengths.count
        let firstByte = bytes.count
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            guard keep(tag.key) else { continue }
            bytes.append(contentsOf: tag.key.buffer)
            bytes.append(contentsOf: tag.value.buffer)
            tagLengths.append(TagLength(key: UInt32(tag.key.buffer.count), value: UInt32(tag.value.buffer.count)))
        }
        headers.append(
            RecordHeader(
                id: id, version: version, firstByte: UInt64(firstByte), latitudeE7: latitudeE7,
                longitudeE7: longitudeE7, firstTag: UInt32(firstTag), tagCount: UInt32(tagLengths.count - firstTag),
                firstMember: UInt32(self.members.count), memberCount: UInt32(members.count),
                firstWayLookup: UInt32(wayLookups.count), wayLookupCount: UInt32(lookups.ways.count),
                firstNodeLookup: UInt32(nodeLookups.count), nodeLookupCount: UInt32(lookups.nodes.count),
                typeCode: type.rawValue))
        self.members += members
        for (id, nodes) in lookups.ways {
            wayLookups.append(
                WayLookup(
                    id: id, firstReference: UInt32(references.count),
                    referenceCount: nodes.map { UInt32($0.count) } ?? WayLookup.missing))
            references += nodes ?? []
        }
        for (id, location) in lookups.nodes {
            nodeLookups.append(
                NodeLookup(
                    id: id, latitudeE7: location?.latitudeE7 ?? NodeTable.deleted,
                    longitudeE7: location?.longitudeE7 ?? 0))
        }
    }

    /// Calls `body` with the records as a table.
    public func withTable<Result>(_ body: (RecordTable) throws -> Result) rethrows -> Result {
        try headers.withUnsafeBufferPointer { headers in
            try tagLengths.withUnsafeBufferPointer { tagLengths in
                try members.withUnsafeBufferPointer { members in
                    try bytes.withUnsafeBufferPointer { bytes in
                        try wayLookups.withUnsafeBufferPointer { wayLookups in
                            try references.withUnsafeBufferPointer { references in
                                try nodeLookups.withUnsafeBufferPointer { nodeLookups in
                                    try body(
                                        RecordTable(
                                            headers: headers, tagLengths: tagLengths, members: members, bytes: bytes,
                                            wayLookups: wayLookups, references: references, nodeLookups: nodeLookups))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Empties the arena, giving its memory back.
    public mutating func removeAll() {
        self = RecordArena()
    }
}

extension RecordArena {
    /// Keeps a copy of `record` with `lookups` (by default its own).
    public mutating func append(_ record: StateRecord, lookups: AreaLookups? = nil) {
        append(
            type: record.header.type!, id: record.header.id, version: record.header.version,
            latitudeE7: record.header.latitudeE7, longitudeE7: record.header.longitudeE7, tags: record,
            keeping: { _ in true }, members: Array(record.members), lookups: lookups ?? record.lookups.values)
    }
}

extension RecordArena {
    /// Writes the arena as sections RHDR, RTAG, RMEM, RBYT, RLKW, RLKR and RLKN.
    public func write(to writer: StateWriter) throws {
        try writer.writeSection("RHDR", headers)
        try writer.writeSection("RTAG", tagLengths)
        try writer.writeSection("RMEM", members)
        try writer.writeSection("RBYT", bytes)
        try writer.writeSection("RLKW", wayLookups)
        try writer.writeSection("RLKR", references)
        try writer.writeSection("RLKN", nodeLookups)
    }
}
