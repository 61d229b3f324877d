import CZlib

/// A protobuf message written field by field, for tests of the PBF reader: well-formed ones,
/// and damaged ones with `append(raw:)`.
public struct ProtoMessage {
    /// The encoded bytes.
    public var bytes: [UInt8] = []

    /// An empty message.
    public init() {}

    /// `value` as a varint.
    public static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    /// A zigzag-encoded signed number.
    public static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Appends a varint field.
    public mutating func varint(_ field: Int, _ value: UInt64) {
        bytes += Self.varint(UInt64(field << 3)) + Self.varint(value)
    }

    /// Appends a `sint64` field.
    public mutating func signed(_ field: Int, _ value: Int64) {
        varint(field, Self.zigzag(value))
    }

    /// Appends a length-delimited field.
    public mutating func bytes(_ field: Int, _ value: [UInt8]) {
        bytes += Self.varint(UInt64(field << 3 | 2)) + Self.varint(UInt64(value.count)) + value
    }

    /// Appends a string field.
    public mutating func string(_ field: Int, _ value: String) {
        bytes(field, Array(value.utf8))
    }

    /// Appends a message field.
    public mutating func message(_ field: Int, _ value: ProtoMessage) {
        bytes(field, value.bytes)
    }

    /// Appends a packed list of varints.
    public mutating func packed(_ field: Int, _ values: [UInt64]) {
        bytes(field, values.flatMap(Self.varint))
    }

    /// Appends a packed list of zigzag-encoded numbers, delta-coded when `delta`.
    public mutating func packedSigned(_ field: Int, _ values: [Int64], delta: Bool) {
        var previous: Int64 = 0
        packed(
            field,
            values.map { value in
                defer { previous = value }
                return Self.zigzag(delta ? value &- previous : value)
            })
    }

    /// Appends bytes as they are (damage).
    public mutating func append(raw: [UInt8]) {
        bytes += raw
    }
}

/// An OSM element to write as PBF.
public struct PBFTestElement {
    /// "node", "way" or "relation".
    public var type: String
    public var id: Int64
    public var version: Int64 = 1
    /// Seconds since 1970; 0 for none.
    public var timestamp: Int64 = 0
    /// A node's coordinate in degrees × 10^7.
    public var latitudeE7: Int64 = 0
    public var longitudeE7: Int64 = 0
    public var tags: [(String, String)] = []
    /// A way's node ids.
    public var refs: [Int64] = []
    /// A relation's members: type (0 node, 1 way, 2 relation), id and role.
    public var members: [(type: Int, ref: Int64, role: String)] = []
    /// False for a deleted element (history files).
    public var visible = true

    /// A node.
    public static func node(
        _ id: Int64, _ latitudeE7: Int64, _ longitudeE7: Int64, _ tags: [(String, String)] = [], timestamp: Int64 = 0
    ) -> PBFTestElement {
        PBFTestElement(
            type: "node", id: id, timestamp: timestamp, latitudeE7: latitudeE7, longitudeE7: longitudeE7, tags: tags)
    }

    /// A way.
    public static func way(_ id: Int64, _ refs: [Int64], _ tags: [(String, String)] = []) -> PBFTestElement {
        PBFTestElement(type: "way", id: id, tags: tags, refs: refs)
    }

    /// A relation.
    public static func relation(
        _ id: Int64, _ members: [(type: Int, ref: Int64, role: String)], _ tags: [(String, String)] = []
    ) -> PBFTestElement {
        PBFTestElement(type: "relation", id: id, tags: tags, members: members)
    }
}

/// How a test PBF block scales its numbers (PrimitiveBlock fields 17 to 20).
public struct PBFScaling {
    public var granularity: Int64 = 100
    public var latitudeOffset: Int64 = 0
    public var longitudeOffset: Int64 = 0
    public var dateGranularity: Int64 = 1000

    /// The default scaling (written explicitly only when it differs).
    public init(
        granularity: Int64 = 100, latitudeOffset: Int64 = 0, longitudeOffset: Int64 = 0, dateGranularity: Int64 = 1000
    ) {
        self.granularity = granularity
        self.latitudeOffset = latitudeOffset
        self.longitudeOffset = longitudeOffset
        self.dateGranularity = dateGranularity
    }
}

/// OSM PBF files written from elements, as osmium writes them (a header blob, then data blobs
/// of one group each), or block by block for damaged ones.
public enum PBFTestFile {
    /// A whole file: a header requiring `required` (with the replication timestamp, if any),
    /// then the elements in blocks of `perBlock`
    /// (split where the type changes too), dense nodes when `dense`, zlib when `compressed`.
    public static func bytes(
        _ elements: [PBFTestElement], dense: Bool = true, compressed: Bool = true, perBlock: Int = 8000,
        required: [String] = ["OsmSchema-V0.6", "DenseNodes"], scaling: PBFScaling = PBFScaling(),
        replicationTimestamp: Int64? = nil
    ) -> [UInt8] {
        let header = header(required: required, replicationTimestamp: replicationTimestamp)
        var file = block(type: "OSMHeader", blob: blob(header, compressed: compressed))
        var start = 0
        while start < elements.count {
            var end = start + 1
            while end < elements.count && end - start < perBlock && elements[end].type == elements[start].type {
                end += 1
            }
            let data = primitiveBlock(Array(elements[start..<end]), dense: dense, scaling: scaling)
            file += block(type: "OSMData", blob: blob(data, compressed: compressed))
            start = end
        }
        return file
    }

    /// One block: the header's length, a BlobHeader of `type` and the blob.
    public static func block(type: String, blob: ProtoMessage) -> [UInt8] {
        var header = ProtoMessage()
        header.string(1, type)
        header.varint(3, UInt64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + header.bytes + blob.bytes
    }

    /// A Blob holding `data`, zlib-compressed or raw.
    public static func blob(_ data: [UInt8], compressed: Bool) -> ProtoMessage {
        var blob = ProtoMessage()
        if compressed {
            blob.varint(2, UInt64(data.count))
            blob.bytes(3, zlib(data))
        } else {
            blob.bytes(1, data)
        }
        return blob
    }

    /// A HeaderBlock requiring `required`.
    public static func header(required: [String], replicationTimestamp: Int64? = nil) -> [UInt8] {
        var header = ProtoMessage()
        for feature in required { header.string(4, feature) }
        header.string(16, "spots tests")
        if let replicationTimestamp { header.varint(32, UInt64(replicationTimestamp)) }
        return header.bytes
    }

    /// A PrimitiveBlock of elements of one type.
    public static func primitiveBlock(_ elements: [PBFTestElement], dense: Bool, scaling: PBFScaling) -> [UInt8] {
        var strings = [""]
        var index: [String: Int] = ["": 0]
        func string(_ text: String) -> UInt64 {
            if let known = index[text] { return UInt64(known) }
            index[text] = strings.count
            strings.append(text)
            return UInt64(strings.count - 1)
        }
        func scaled(_ e7: Int64, _ offset: Int64) -> Int64 { (e7 * 100 - offset) / scaling.granularity }
        func timestamp(_ seconds: Int64) -> Int64 { seconds * 1000 / scaling.dateGranularity }
        var group = ProtoMessage()
        if dense && elements.allSatisfy({ $0.type == "node" }) {
            var nodes = ProtoMessage()
            nodes.packedSigned(1, elements.map(\.id), delta: true)
            var info = ProtoMessage()
            info.packed(1, elements.map { UInt64($0.version) })
            info.packedSigned(2, elements.map { timestamp($0.timestamp) }, delta: true)
            info.packedSigned(3, elements.map { _ in 0 }, delta: true)
            if elements.contains(where: { !$0.visible }) { info.packed(6, elements.map { $0.visible ? 1 : 0 }) }
            nodes.message(5, info)
            nodes.packedSigned(8, elements.map { scaled($0.latitudeE7, scaling.latitudeOffset) }, delta: true)
            nodes.packedSigned(9, elements.map { scaled($0.longitudeE7, scaling.longitudeOffset) }, delta: true)
            if elements.contains(where: { !$0.tags.isEmpty }) {
                nodes.packed(10, elements.flatMap { $0.tags.flatMap { [string($0.0), string($0.1)] } + [0] })
            }
            group.message(2, nodes)
        } else {
            for element in elements {
                var message = ProtoMessage()
                if element.type == "node" {
                    message.signed(1, element.id)
                } else {
                    message.varint(1, UInt64(element.id))
                }
                message.packed(2, element.tags.map { string($0.0) })
                message.packed(3, element.tags.map { string($0.1) })
                var info = ProtoMessage()
                info.varint(1, UInt64(element.version))
                if element.timestamp != 0 { info.varint(2, UInt64(timestamp(element.timestamp))) }
                if !element.visible { info.varint(6, 0) }
                message.message(4, info)
                switch element.type {
                case "node":
                    message.signed(8, scaled(element.latitudeE7, scaling.latitudeOffset))
                    message.signed(9, scaled(element.longitudeE7, scaling.longitudeOffset))
                    group.message(1, message)
                case "way":
                    message.packedSigned(8, element.refs, delta: true)
                    group.message(3, message)
                default:
                    message.packed(8, element.members.map { string($0.role) })
                    message.packedSigned(9, element.members.map(\.ref), delta: true)
                    message.packed(10, element.members.map { UInt64($0.type) })
                    group.message(4, message)
                }
            }
        }
        var block = ProtoMessage()
        var table = ProtoMessage()
        for text in strings { table.string(1, text) }
        block.message(1, table)
        block.message(2, group)
        if scaling.granularity != 100 { block.varint(17, UInt64(scaling.granularity)) }
        if scaling.dateGranularity != 1000 { block.varint(18, UInt64(scaling.dateGranularity)) }
        if scaling.latitudeOffset != 0 { block.varint(19, UInt64(bitPattern: scaling.latitudeOffset)) }
        if scaling.longitudeOffset != 0 { block.varint(20, UInt64(bitPattern: scaling.longitudeOffset)) }
        return block.bytes
    }

    /// `data` as a zlib stream.
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(UInt(data.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { compress(out.baseAddress, &size, $0.baseAddress, UInt(data.count)) }
        }
        precondition(status == Z_OK, "compress failed")
        return Array(output[..<Int(size)])
    }
}
