/// Nodes in the plain (not dense) form, ways and relations: one message each.
extension PrimitiveBlockDecoder {
    /// The fields of a `Node`, `Way` or `Relation` message.
    private struct ElementFields {
        var id: Int64 = 0
        var keys = WireReader.empty
        var values = WireReader.empty
        var version: Int64 = 0
        var timestamp: Int64 = 0
        var visible = true
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        /// A way's node ids, delta-coded.
        var refs = WireReader.empty
        /// A relation's member roles (string indexes), ids (delta-coded) and types.
        var roles = WireReader.empty
        var memberIDs = WireReader.empty
        var memberTypes = WireReader.empty

        /// The fields of `message`, an element of `type`. A node's id is a `sint64`, a way's
        /// and relation's an `int64`; the numbers of the lists differ too.
        init(_ type: OSMElementType, _ message: WireReader) throws(PBFError) {
            var message = message
            while let field = try message.field() {
                switch (type, field.number) {
                case (.node, 1):
                    let raw = try message.varint(of: field)
                    id = Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
                case (_, 1): id = Int64(bitPattern: try message.varint(of: field))
                case (_, 2): keys = try message.reader(of: field)
                case (_, 3): values = try message.reader(of: field)
                case (_, 4): try readInfo(try message.reader(of: field))
                case (.node, 8): latitude = try Self.signed(try message.varint(of: field))
                case (.node, 9): longitude = try Self.signed(try message.varint(of: field))
                case (.way, 8): refs = try message.reader(of: field)
                case (.relation, 8): roles = try message.reader(of: field)
                case (.relation, 9): memberIDs = try message.reader(of: field)
                case (.relation, 10): memberTypes = try message.reader(of: field)
                default: try message.skip(field)
                }
            }
        }

        private static func signed(_ raw: UInt64) throws(PBFError) -> Int64 {
            Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        /// An `Info` message: version, timestamp and `visible`.
        private mutating func readInfo(_ info: WireReader) throws(PBFError) {
            var info = info
            while let field = try info.field() {
                switch field.number {
                case 1: version = Int64(Int32(truncatingIfNeeded: try info.varint(of: field)))
                case 2: timestamp = Int64(bitPattern: try info.varint(of: field))
                case 6: visible = try info.varint(of: field) != 0
                default: try info.skip(field)
                }
            }
        }
    }

    /// One node, way or relation message.
    mutating func decodeElement(_ type: OSMElementType, _ message: WireReader) throws(PBFError) {
        guard message.remaining <= limits.maxElementBytes else { throw .invalid(limits.elementTooLarge) }
        let fields = try ElementFields(type, message)
        switch type {
        case .node: summary.nodes += 1
        case .way: summary.ways += 1
        case .relation: summary.relations += 1
        }
        noteTimestamp(fields.timestamp)
        guard fields.visible else {
            summary.deleted += 1
            return
        }
        // Elements of a type the filter leaves out are counted only, as the XML parser does.
        guard wantedTypes & 1 << type.rawValue != 0 else { return }
        var tags = SplitTags(keys: fields.keys, values: fields.values)
        let (tagCount, matches) = try checkTags(&tags, limited: true)
        guard matches || bareTypes & 1 << type.rawValue != 0 else { return }
        var record = newRecord(type, id: fields.id, version: fields.version)
        if matches && tagCount > 0 {
            var tags = SplitTags(keys: fields.keys, values: fields.values)
            record.tagCount = Int32(try appendTags(&tags))
        }
        switch type {
        case .node:
            record.latitudeE7 = coordinateE7(fields.latitude, offset: latitudeOffset)
            record.longitudeE7 = coordinateE7(fields.longitude, offset: longitudeOffset)
        case .way:
            record.refCount = Int32(try appendRefs(fields.refs))
        case .relation:
            record.memberCount = Int32(try appendMembers(fields))
        }
        batch.elements.append(record)
    }

    /// A way's node ids into the batch; returns how many.
    private mutating func appendRefs(_ refs: WireReader) throws(PBFError) -> Int {
        var refs = refs
        var id: Int64 = 0
        let start = batch.refs.count
        while !refs.isAtEnd {
            id &+= try refs.signedVarint()
            batch.refs.append(id)
        }
        return batch.refs.count - start
    }

    /// A relation's members into the batch; returns how many.
    private mutating func appendMembers(_ fields: ElementFields) throws(PBFError) -> Int {
        var roles = fields.roles
        var ids = fields.memberIDs
        var types = fields.memberTypes
        var id: Int64 = 0
        var count = 0
        while !ids.isAtEnd {
            id &+= try ids.signedVarint()
            guard !roles.isAtEnd && !types.isAtEnd else {
                throw .invalid("a relation with more member ids than roles or types")
            }
            let role = try roles.varint()
            guard role < strings.count else {
                throw .invalid("a string index of \(role), beyond the \(strings.count) strings of its block")
            }
            // MemberType: 0 node, 1 way, 2 relation, as OSMElementType's raw values.
            let type = try types.varint()
            let memberType = type <= 2 ? OSMElementType(rawValue: UInt8(type)) : nil
            batch.members.append(MemberRecord(type: memberType, ref: id, role: append(strings[Int(role)])))
            count += 1
        }
        guard roles.isAtEnd && types.isAtEnd else {
            throw .invalid("a relation with more member roles or types than ids")
        }
        return count
    }
}
