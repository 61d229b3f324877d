/// Decodes `PrimitiveBlock` messages into an `ElementBatch`, keeping what the filter asks for as
/// the XML parser does: every element is counted and its timestamp noted; elements of the
/// filter's types with one of its tag keys are kept with their tags, the rest of `bareTypes`
/// bare. One per decoding thread; its arrays are reused from block to block.
///
/// A block is parsed in two steps, because its scaling fields (`granularity`, the offsets,
/// `date_granularity`) follow its groups in the message: first the string table, the groups'
/// bytes and the scaling; then each group. Every string index, list length and reader limit is
/// checked as it is read (`PBFError.invalid`); the wire format is checked by `WireReader`.
struct PrimitiveBlockDecoder {
    /// What to keep.
    let filter: OSMElementFilter
    /// Bounds on one element.
    let limits: OSMReadLimits
    /// The elements kept from the block last decoded.
    var batch = ElementBatch()
    /// What the block last decoded held.
    var summary = OSMReadSummary()

    /// The filter's tag keys, as bytes.
    private let tagKeys: [[UInt8]]
    /// The filter's types and bare types, one bit per `OSMElementType` raw value.
    let wantedTypes: UInt8
    let bareTypes: UInt8
    /// The block's strings (`stringtable`), in its bytes.
    private(set) var strings: [UnsafeRawBufferPointer] = []
    /// Whether each string is one of the filter's tag keys.
    private(set) var selecting: [Bool] = []
    /// The block's scaling: coordinates are `offset + granularity × value` nanodegrees,
    /// timestamps `date_granularity × value` milliseconds.
    private(set) var granularity: Int64 = 100
    private(set) var latitudeOffset: Int64 = 0
    private(set) var longitudeOffset: Int64 = 0
    private(set) var dateGranularity: Int64 = 1000
    /// The newest timestamp in the block, in the block's date units; 0 for none.
    var newestTimestamp: Int64 = 0

    /// A decoder keeping what `filter` asks for, within `limits`.
    init(filter: OSMElementFilter, limits: OSMReadLimits) {
        self.filter = filter
        self.limits = limits
        tagKeys = filter.tagKeys.map { Array($0.utf8) }
        wantedTypes = filter.types.reduce(0) { $0 | 1 << $1.rawValue }
        bareTypes = filter.bareTypes.reduce(0) { $0 | 1 << $1.rawValue }
    }

    /// Decodes `block`, replacing the batch and summary.
    mutating func decode(_ block: UnsafeRawBufferPointer) throws(PBFError) {
        batch.removeAll()
        summary = OSMReadSummary()
        strings.removeAll(keepingCapacity: true)
        selecting.removeAll(keepingCapacity: true)
        granularity = 100
        latitudeOffset = 0
        longitudeOffset = 0
        dateGranularity = 1000
        newestTimestamp = 0
        var groups: [UnsafeRawBufferPointer] = []
        var reader = WireReader(block)
        while let field = try reader.field() {
            switch field.number {
            case 1: try readStrings(try reader.reader(of: field))
            case 2: groups.append(try reader.bytes(of: field))
            case 17: granularity = Int64(Int32(truncatingIfNeeded: try reader.varint(of: field)))
            case 18: dateGranularity = Int64(Int32(truncatingIfNeeded: try reader.varint(of: field)))
            case 19: latitudeOffset = Int64(bitPattern: try reader.varint(of: field))
            case 20: longitudeOffset = Int64(bitPattern: try reader.varint(of: field))
            default: try reader.skip(field)
            }
        }
        guard granularity > 0 else { throw .invalid("a granularity of \(granularity)") }
        guard dateGranularity > 0 else { throw .invalid("a date_granularity of \(dateGranularity)") }
        for group in groups { try decodeGroup(WireReader(group)) }
        summary.newestTimestamp = newestTime
    }

    /// The newest timestamp as OSM XML writes it; nil when the block has none.
    private var newestTime: String? {
        guard newestTimestamp > 0 else { return nil }
        let (milliseconds, overflow) = newestTimestamp.multipliedReportingOverflow(by: dateGranularity)
        return overflow ? nil : iso8601(seconds: milliseconds / 1000)
    }

    private mutating func readStrings(_ table: WireReader) throws(PBFError) {
        var table = table
        while let field = try table.field() {
            guard field.number == 1 else {
                try table.skip(field)
                continue
            }
            let string = try table.bytes(of: field)
            strings.append(string)
            selecting.append(tagKeys.contains { $0.elementsEqual(string) })
        }
    }

    /// One `PrimitiveGroup`: nodes, dense nodes, ways or relations (changesets are skipped).
    private mutating func decodeGroup(_ group: WireReader) throws(PBFError) {
        var group = group
        while let field = try group.field() {
            switch field.number {
            case 1: try decodeElement(.node, try group.reader(of: field))
            case 2: try decodeDenseNodes(try group.reader(of: field))
            case 3: try decodeElement(.way, try group.reader(of: field))
            case 4: try decodeElement(.relation, try group.reader(of: field))
            default: try group.skip(field)
            }
        }
    }

    /// Dense nodes: parallel packed lists, ids, coordinates and timestamps delta-coded, every
    /// node's tags in `keys_vals` as key and value indexes ending with a 0.
    private mutating func decodeDenseNodes(_ message: WireReader) throws(PBFError) {
        var message = message
        var ids = WireReader.empty
        var latitudes = WireReader.empty
        var longitudes = WireReader.empty
        var keysValues: WireReader?
        var info = DenseInfo()
        while let field = try message.field() {
            switch field.number {
            case 1: ids = try message.reader(of: field)
            case 5: info = try DenseInfo(try message.reader(of: field))
            case 8: latitudes = try message.reader(of: field)
            case 9: longitudes = try message.reader(of: field)
            case 10: keysValues = try message.reader(of: field)
            default: try message.skip(field)
            }
        }
        let wanted = wantedTypes & 1 << OSMElementType.node.rawValue != 0
        let keepsBare = bareTypes & 1 << OSMElementType.node.rawValue != 0
        var id: Int64 = 0
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        var timestamp: Int64 = 0
        // Absent lists as empty readers and flags, so that the loop tests a Bool, not an Optional.
        var versions = info.versions ?? .empty
        var timestamps = info.timestamps ?? .empty
        var visibles = info.visibles ?? .empty
        let (hasVersions, hasTimestamps, hasVisibles) = (
            info.versions != nil, info.timestamps != nil, info.visibles != nil
        )
        var tags = DenseTags(reader: keysValues ?? .empty, present: keysValues != nil)
        while !ids.isAtEnd {
            id &+= try ids.signedVarint()
            latitude &+= try latitudes.signedVarint()
            longitude &+= try longitudes.signedVarint()
            let version = hasVersions ? try versions.varint() : 0
            if hasTimestamps { timestamp &+= try timestamps.signedVarint() }
            let visible = hasVisibles ? try visibles.varint() : 1
            summary.nodes += 1
            noteTimestamp(timestamp)
            let tagStart = tags
            // Most nodes have no tags: their list is one 0.
            let untagged = tags.present && tags.reader.skipZero()
            let (tagCount, matches) = untagged ? (0, tagKeys.isEmpty) : try checkTags(&tags, limited: wanted)
            guard visible != 0 else {
                summary.deleted += 1
                continue
            }
            guard wanted, matches || keepsBare else { continue }
            var record = newRecord(.node, id: id, version: Int64(Int32(truncatingIfNeeded: version)))
            record.latitudeE7 = coordinateE7(latitude, offset: latitudeOffset)
            record.longitudeE7 = coordinateE7(longitude, offset: longitudeOffset)
            if matches && tagCount > 0 {
                var nodeTags = tagStart
                record.tagCount = Int32(try appendTags(&nodeTags))
            }
            batch.elements.append(record)
        }
        guard latitudes.isAtEnd && longitudes.isAtEnd else {
            throw .invalid("dense nodes with more coordinates than ids")
        }
    }

    /// Whether a timestamp, in date units, is the block's newest (0 means none, as osmium reads it).
    mutating func noteTimestamp(_ timestamp: Int64) {
        if timestamp > newestTimestamp { newestTimestamp = timestamp }
    }

    /// A coordinate in degrees × 10^7 from a block's scaled value, rounded half away from zero
    /// as the XML reader rounds more than seven decimals; nil when out of Int32.
    func coordinateE7(_ value: Int64, offset: Int64) -> Int32? {
        let (scaled, overflow) = value.multipliedReportingOverflow(by: granularity)
        let (nanodegrees, overflow2) = scaled.addingReportingOverflow(offset)
        guard !overflow && !overflow2, nanodegrees.magnitude < 1 << 62 else { return nil }
        return Int32(exactly: (nanodegrees + (nanodegrees < 0 ? -50 : 50)) / 100)
    }

    /// A record for an element about to be kept, its lists starting at the batch's ends.
    func newRecord(_ type: OSMElementType, id: Int64, version: Int64) -> ElementRecord {
        ElementRecord(
            type: type, id: id, version: version, line: 0, latitudeE7: nil, longitudeE7: nil,
            firstTag: Int32(batch.tags.count), tagCount: 0, firstRef: Int32(batch.refs.count),
            firstMember: Int32(batch.members.count))
    }

    /// Reads an element's tags once: checks their indexes, and with `limited` the reader's
    /// limits; returns how many there are and whether one has a key the filter asks for (or the
    /// filter asks for none).
    mutating func checkTags<Tags: TagIndexes>(_ tags: inout Tags, limited: Bool) throws(PBFError) -> (Int, Bool) {
        var count = 0
        var matches = tagKeys.isEmpty
        while let (key, value) = try tags.next() {
            guard key < strings.count && value < strings.count else {
                throw .invalid("a string index of \(max(key, value)), beyond the \(strings.count) strings of its block")
            }
            count += 1
            matches = matches || selecting[key]
            guard limited else { continue }
            guard count <= limits.maxTags else {
                throw .invalid("more than \(limits.maxTags) tags on one element (max_tags)")
            }
            guard strings[key].count <= limits.maxValueBytes && strings[value].count <= limits.maxValueBytes else {
                throw .invalid("a tag key or value longer than \(limits.maxValueBytes) bytes (max_value_bytes)")
            }
        }
        return (count, matches)
    }

    /// Copies tags already checked into the batch; returns how many.
    mutating func appendTags<Tags: TagIndexes>(_ tags: inout Tags) throws(PBFError) -> Int {
        var count = 0
        while let (key, value) = try tags.next() {
            batch.tags.append(TagRecord(key: append(strings[key]), value: append(strings[value])))
            count += 1
        }
        return count
    }

    /// Copies a string into the batch's arena.
    mutating func append(_ string: UnsafeRawBufferPointer) -> ByteSpan {
        let start = batch.bytes.count
        batch.bytes.append(contentsOf: string)
        return ByteSpan(start: Int32(start), count: Int32(string.count))
    }
}

/// The lists of a `DenseInfo` that the reader uses, each parallel to the dense nodes' ids.
struct DenseInfo {
    /// Versions, not delta-coded.
    var versions: WireReader?
    /// Timestamps, delta-coded.
    var timestamps: WireReader?
    /// `visible` flags (history files only).
    var visibles: WireReader?

    /// No lists.
    init() {}

    /// The lists of a `DenseInfo` message.
    init(_ message: WireReader) throws(PBFError) {
        var message = message
        while let field = try message.field() {
            switch field.number {
            case 1: versions = try message.reader(of: field)
            case 2: timestamps = try message.reader(of: field)
            case 6: visibles = try message.reader(of: field)
            default: try message.skip(field)
            }
        }
    }
}

/// An element's tags as pairs of string indexes, read one pair at a time.
protocol TagIndexes {
    /// The next tag's key and value indexes; nil after the last.
    mutating func next() throws(PBFError) -> (Int, Int)?
}

/// A dense node's tags in `keys_vals`: key, value, ..., then 0. Without the list, no node has tags.
struct DenseTags: TagIndexes {
    /// The list from the node's first tag; past its 0 once read.
    var reader: WireReader
    /// Whether the block has the list.
    let present: Bool

    mutating func next() throws(PBFError) -> (Int, Int)? {
        guard present else { return nil }
        let key = try reader.varint()
        guard key != 0 else { return nil }
        let value = try reader.varint()
        return (
            Int(truncatingIfNeeded: min(key, UInt64(Int32.max))), Int(truncatingIfNeeded: min(value, UInt64(Int32.max)))
        )
    }
}

/// A node's, way's or relation's tags: parallel lists of key and value indexes.
struct SplitTags: TagIndexes {
    var keys: WireReader
    var values: WireReader

    mutating func next() throws(PBFError) -> (Int, Int)? {
        guard !keys.isAtEnd else {
            guard values.isAtEnd else { throw .invalid("more tag values than keys") }
            return nil
        }
        let key = try keys.varint()
        guard !values.isAtEnd else { throw .invalid("more tag keys than values") }
        let value = try values.varint()
        return (
            Int(truncatingIfNeeded: min(key, UInt64(Int32.max))), Int(truncatingIfNeeded: min(value, UInt64(Int32.max)))
        )
    }
}
