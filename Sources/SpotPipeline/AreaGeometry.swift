import OSMGeometry
import OSMInput
import SpotState
import Spots

/// Node locations and way node lists, as an area's point needs them: the build's stores
/// (`BuildAreaSource`) or an update's, a state file's with the changes over it.
protocol AreaSource {
    /// The coordinates of node `id`, or nil when there is no such node.
    func location(of id: Int64) throws(StateError) -> (latitudeE7: Int32, longitudeE7: Int32)?
    /// The node references of way `id`, or nil when there is no such way.
    func nodes(of id: Int64) throws(StateError) -> [Int64]?
}

/// What one pass over the inputs keeps for areas: every node's location in a
/// `NodeLocationStore` (all of them: a way that needs a node comes after it, so which nodes are
/// needed is known only when it is too late to keep them) and every way's node list in a
/// `WayNodeStore` (a multipolygon relation, which comes after the ways, may be made of any of
/// them, and its rings are often joined from open ways: keeping only tagged or closed ways would
/// lose them). Resolving after every input is read lets overlapping extracts supply each
/// other's nodes and ways.
final class BuildAreaSource: AreaSource {
    let nodes: NodeLocationStore
    private(set) var ways = WayNodeStore()

    /// Empty stores whose node locations spill to a temporary file beyond `memoryLimit` bytes.
    init(memoryLimit: Int = 32 << 20) {
        nodes = NodeLocationStore(memoryLimit: memoryLimit)
    }

    /// Keeps a way's node list.
    func addWay(_ element: OSMElement) {
        ways.append(id: element.id, nodes: element.nodeRefs)
    }

    /// Ends reading: the stores sort what came out of order.
    func finish() {
        nodes.finish()
        ways.finish()
    }

    func location(of id: Int64) -> (latitudeE7: Int32, longitudeE7: Int32)? { nodes.location(of: id) }

    func nodes(of id: Int64) -> [Int64]? { ways.nodes(of: id) }
}

/// An area's point: a closed way and a multipolygon at their `Area.representativePoint`, an
/// open way halfway along it.
enum AreaGeometry {
    /// Why an area got no point, as the read stage counts it.
    enum Failure: String, Error {
        /// A way names a node the inputs do not have.
        case missingNodes = "missing_nodes"
        /// A relation names a way the inputs do not have.
        case missingMembers = "missing_members"
        /// A relation's ways do not join into closed rings.
        case brokenRings = "broken_rings"
    }

    /// The members a multipolygon relation's area is made of: ways with role `outer` (or none)
    /// and `inner`, in document order; other members and roles are not part of the area.
    static func members(of element: OSMElement) -> [RecordMember] {
        var members: [RecordMember] = []
        for index in 0..<element.memberCount {
            let member = element.member(at: index)
            guard member.type == .way else { continue }
            if member.role.equals("outer") || member.role.equals("") {
                members.append(RecordMember(ref: member.ref, inner: false))
            } else if member.role.equals("inner") {
                members.append(RecordMember(ref: member.ref, inner: true))
            }
        }
        return members
    }

    /// The point of the way or relation `record`, and its polygon when it has one (not for an
    /// open way).
    static func geometry(
        of record: StateRecord, in source: some AreaSource
    ) throws(StateError) -> Result<(Coordinate, Area?), Failure> {
        guard record.header.type == .relation else {
            let refs = try source.nodes(of: record.header.id) ?? []
            guard !refs.isEmpty, let line = try coordinates(refs, in: source) else { return .failure(.missingNodes) }
            if refs.count >= 4 && refs.first == refs.last, let polygon = Area(outers: [line]) {
                return .success((polygon.representativePoint, polygon))
            }
            return .success((halfwayPoint(of: line), nil))
        }
        var rings: [[[Coordinate]]] = []
        for role in [0, 1] as [UInt8] {
            var memberWays: [[Int64]] = []
            for member in record.members where member.role == role {
                guard member.isValid != 0, let refs = try source.nodes(of: member.ref) else {
                    return .failure(.missingMembers)
                }
                memberWays.append(refs)
            }
            guard let joined = Rings.join(memberWays) else { return .failure(.brokenRings) }
            var ringCoordinates: [[Coordinate]] = []
            for ring in joined {
                guard let line = try coordinates(ring, in: source) else { return .failure(.missingNodes) }
                ringCoordinates.append(line)
            }
            rings.append(ringCoordinates)
        }
        guard let polygon = Area(outers: rings[0], inners: rings[1]) else { return .failure(.brokenRings) }
        return .success((polygon.representativePoint, polygon))
    }

    /// The locations of `refs`, or nil when one is missing.
    private static func coordinates(_ refs: [Int64], in source: some AreaSource) throws(StateError) -> [Coordinate]? {
        var line: [Coordinate] = []
        line.reserveCapacity(refs.count)
        for ref in refs {
            guard let location = try source.location(of: ref) else { return nil }
            line.append(Coordinate(latitudeE7: location.latitudeE7, longitudeE7: location.longitudeE7)!)
        }
        return line
    }
}
