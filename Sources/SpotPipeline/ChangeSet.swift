import OSMInput
import SpotIndexWriting
import SpotState
import Spots

/// An object as a change set keys it: its type and id.
struct ObjectKey: Hashable, Comparable {
    let type: UInt8
    let id: Int64

    static func < (left: ObjectKey, right: ObjectKey) -> Bool { (left.type, left.id) < (right.type, right.id) }
}

/// How many elements of the change files did what.
public struct ChangeCounts: Sendable, Equatable {
    /// Elements created, modified and deleted, as applied.
    public var created = 0, modified = 0, deleted = 0
    /// Elements skipped: a version older than (or, but for deletions, equal to) the one the
    /// state has.
    public var skippedOlder = 0
    /// Deletions of objects the state does not have (an extract's border), skipped.
    public var deletedMissing = 0
}

/// The changes of osmChange files over a state, applied in file order: node locations and way
/// node lists set or deleted, and the records of selected objects added, replaced or removed,
/// as a build would have read the objects. The base records' versions decide what is newer.
///
/// Rules, as `osmium apply-changes` applies a change to an extract: a creation or modification
/// replaces an object of an older version (an equal or older version is skipped and counted);
/// a deletion removes an object of its version or older (a derived change deletes at the
/// version it deleted, replication at the next); a modification of an object the state never
/// had (an extract's border) is a creation; a deletion of one changes nothing. Only selected
/// objects' versions are known: other nodes and ways take every change.
struct ChangeSet: OSMElementHandler {
    /// Node locations set (a value) or deleted (nil).
    private(set) var nodes: [Int64: (latitudeE7: Int32, longitudeE7: Int32)?] = [:]
    /// Way node lists set (a value) or deleted (nil).
    private(set) var ways: [Int64: [Int64]?] = [:]
    /// The records of objects changed: a position in `records` when selected, nil when no longer.
    private(set) var changed: [ObjectKey: Int?] = [:]
    /// The changed objects' records, the latest of each named by `changed`.
    private(set) var records = RecordArena()
    /// What was applied and skipped.
    private(set) var counts = ChangeCounts()
    /// Selected objects dropped for an impossible coordinate or an id the index cannot store.
    private(set) var badCoordinates = 0, badIDs = 0
    /// The newest version applied of each object (base records' versions are read from `base`).
    private var versions: [ObjectKey: Int64] = [:]
    private let maker: CandidateMaker
    private let areas: Bool
    private let base: RecordTable
    /// Whether the state has a node or way (nil when it cannot tell: it keeps no locations).
    private let stateHas: (OSMElementType, Int64) -> Bool?

    /// Changes over the records of `base` (in type then id order), made into records by `maker`;
    /// without `areas`, ways and relations are not read. `stateHas` says whether the state has
    /// a node or way, so that deleting one it has not is counted apart.
    init(base: RecordTable, maker: CandidateMaker, areas: Bool, stateHas: @escaping (OSMElementType, Int64) -> Bool?) {
        self.base = base
        self.maker = maker
        self.areas = areas
        self.stateHas = stateHas
    }

    /// What the reader must deliver: every element of the types read, bare when it has no
    /// selecting tag (it may have lost it).
    static func filter(_ selection: SpotSelection, areas: Bool) -> OSMElementFilter {
        let types: Set<OSMElementType> = areas ? [.node, .way, .relation] : [.node]
        return OSMElementFilter(types: types, tagKeys: selection.readKeys, bareTypes: types)
    }

    mutating func handle(_ element: OSMElement) {
        let key = ObjectKey(type: element.type.rawValue, id: element.id)
        let deletes = element.action == .delete
        if element.version > 0, let current = versions[key] ?? baseVersion(of: key), current > 0,
            deletes ? element.version < current : element.version <= current
        {
            counts.skippedOlder += 1
            return
        }
        if deletes && has(key) == false {
            counts.deletedMissing += 1
            return
        }
        versions[key] = element.version
        switch element.action {
        case .delete?: counts.deleted += 1
        case .create?: counts.created += 1
        default: counts.modified += 1
        }
        guard !deletes else {
            switch element.type {
            case .node: nodes[element.id] = .some(nil)
            case .way: ways[element.id] = .some(nil)
            case .relation: break
            }
            changed[key] = .some(nil)
            return
        }
        changed[key] = .some(record(of: element))
    }

    /// Whether the object of `key` is there before `handle` applies an element to it: changed
    /// by an earlier element, else as the state has it; nil when neither can tell.
    private func has(_ key: ObjectKey) -> Bool? {
        if let change = changed[key], change != nil { return true }
        switch OSMElementType(rawValue: key.type)! {
        case .node: if let location = nodes[key.id] { return location != nil }
        case .way: if let refs = ways[key.id] { return refs != nil }
        case .relation: if let change = changed[key] { return change != nil }
        }
        if baseVersion(of: key) != nil { return true }
        return key.type == OSMElementType.relation.rawValue
            ? false : stateHas(OSMElementType(rawValue: key.type)!, key.id)
    }

    /// Keeps what `element` (created or modified) gives: its location or node list, and its
    /// record's position when it is selected.
    private mutating func record(of element: OSMElement) -> Int? {
        switch element.type {
        case .node:
            let coordinate = element.latitudeE7.flatMap { latitude in
                element.longitudeE7.flatMap { Coordinate(latitudeE7: latitude, longitudeE7: $0) }
            }
            nodes[element.id] = .some(coordinate.map { ($0.latitudeE7, $0.longitudeE7) })
            guard element.tagCount > 0, maker.selection.selects(element) else { return nil }
            guard let coordinate else {
                badCoordinates += 1
                return nil
            }
            return append(element, latitudeE7: coordinate.latitudeE7, longitudeE7: coordinate.longitudeE7)
        case .way:
            ways[element.id] = .some(Array(element.nodeRefs))
            guard element.tagCount > 0, maker.selection.selects(element) else { return nil }
            return append(element)
        case .relation:
            guard maker.selection.selects(element), element.value(forKey: "type")?.equals("multipolygon") == true
            else { return nil }
            return append(element, members: AreaGeometry.members(of: element))
        }
    }

    /// Keeps a record of the selected `element`; its position, or nil when its id cannot be stored.
    private mutating func append(
        _ element: OSMElement, latitudeE7: Int32 = 0, longitudeE7: Int32 = 0, members: [RecordMember] = []
    ) -> Int? {
        guard SpotIndexWriter.storableIDs.contains(element.id) else {
            badIDs += 1
            return nil
        }
        let maker = maker
        records.append(
            type: element.type, id: element.id, version: element.version, latitudeE7: latitudeE7,
            longitudeE7: longitudeE7, tags: element, keeping: { maker.isCandidateTag($0) }, members: members)
        return records.count - 1
    }

    /// The version of the base record of `key`, found by binary search; nil when there is none.
    private func baseVersion(of key: ObjectKey) -> Int64? {
        var lower = 0
        var upper = base.count
        while lower < upper {
            let middle = (lower + upper) / 2
            let header = base[middle].header
            if ObjectKey(type: header.typeCode, id: header.id) < key { lower = middle + 1 } else { upper = middle }
        }
        guard lower < base.count, base[lower].header.typeCode == key.type, base[lower].header.id == key.id else {
            return nil
        }
        return base[lower].header.version
    }

    /// The records after the changes, in type then id order: `base`'s not changed, and the
    /// latest of each changed object still selected, from `table` (this set's `records`); and
    /// for each, whether it is the base's.
    func merged(with table: RecordTable) -> (records: [StateRecord], fromBase: [Bool]) {
        var merged: [(record: StateRecord, fromBase: Bool)] = []
        merged.reserveCapacity(base.count + changed.count)
        for index in 0..<base.count {
            let header = base[index].header
            if changed[ObjectKey(type: header.typeCode, id: header.id)] == nil { merged.append((base[index], true)) }
        }
        for case let position? in changed.values { merged.append((table[position], false)) }
        merged.sort {
            ($0.record.header.typeCode, $0.record.header.id) < ($1.record.header.typeCode, $1.record.header.id)
        }
        return (merged.map(\.record), merged.map(\.fromBase))
    }
}

/// Node locations and way node lists after the changes: the change set's, else the state's.
/// The pages of the state's base that lookups make resident are given back every
/// `lookupsBetweenReleases` lookups, so that an update's memory does not grow with the share of
/// a large base its changed areas happen to read.
final class ChangedAreaSource: AreaSource {
    /// Lookups between two releases of the base's resident pages (a lookup reads about a dozen
    /// pages: the fence's, then the entries').
    static let lookupsBetweenReleases = 128

    let changes: ChangeSet
    let state: StateGeometry
    private var lookups = 0

    init(changes: ChangeSet, state: StateGeometry) {
        self.changes = changes
        self.state = state
    }

    func location(of id: Int64) throws(StateError) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        if let changed = changes.nodes[id] { return changed }
        countLookup()
        return try state.location(of: id)
    }

    func nodes(of id: Int64) throws(StateError) -> [Int64]? {
        if let changed = changes.ways[id] { return changed }
        countLookup()
        return try state.nodes(of: id)
    }

    private func countLookup() {
        lookups += 1
        if lookups % Self.lookupsBetweenReleases == 0 { state.baseFile.releaseResidentPages() }
    }
}
