import OSMGeometry
import SpotState

extension RecordTable {
    /// Every record, in table order; views valid while the table's storage is.
    var records: [StateRecord] { (0..<count).map { self[$0] } }
}

/// What a build keeps for its index's state file (`--keep-state`): the selected objects' records
/// and, with areas, every node's location and every way's node list.
public struct BuildState {
    let records: RecordArena
    /// What placing each area looked up, by record position.
    let lookups: [AreaLookups?]
    let areas: BuildAreaSource?
    /// The state's own description (a refresh sets the replication sequence it was built at).
    public var metadata: StateMetadata

    /// Writes the base file (the nodes and ways in id order; none without areas) and the
    /// state: its metadata, empty overlays, and the records in OSM type then id order, one per
    /// object (the later of two); returns the base.
    public func write(to pair: StatePairWriter) throws -> BaseReference {
        let base = try pair.writeBase { writer in
            var nodes = try NodeTable.Writer(writer, NodeTable.base)
            try areas?.nodes.forEachNode { try nodes.append(id: $0, latitudeE7: $1, longitudeE7: $2) }
            try nodes.finish()
            var ways = try WayTable.Writer(writer, WayTable.base)
            try areas?.ways.forEachWay { try ways.append(id: $0, nodes: $1) }
            try ways.finish()
        }
        var metadata = metadata
        metadata.base = base
        try metadata.write(to: pair.state)
        var nodes = try NodeTable.Writer(pair.state, NodeTable.overlay)
        try nodes.finish()
        var ways = try WayTable.Writer(pair.state, WayTable.overlay)
        try ways.finish()
        try records.withTable { table in
            let records = table.records
            var kept = RecordArena()
            for position in Self.byObject(records) { kept.append(records[position], lookups: lookups[position]) }
            try kept.write(to: pair.state)
        }
        return base
    }

    /// The positions of `records` in OSM type then id order, the later of two records of one
    /// object kept.
    static func byObject(_ records: [StateRecord]) -> [Int] {
        let order = records.indices.sorted {
            (records[$0].header.typeCode, records[$0].header.id, $0)
                < (records[$1].header.typeCode, records[$1].header.id, $1)
        }
        return order.indices.compactMap { rank in
            guard rank + 1 < order.count else { return order[rank] }
            let (record, next) = (records[order[rank]].header, records[order[rank + 1]].header)
            return (next.typeCode, next.id) == (record.typeCode, record.id) ? nil : order[rank]
        }
    }
}
