import OSMGeometry
import OSMInput
import Spots

/// What area spots need from one pass over the inputs, and the points they get after it.
///
/// OSM XML lists nodes, then ways, then relations, and the reader hands them over in that order
/// on one thread, so the collector lives in the read handler: every node's location goes into a
/// `NodeLocationStore` (all of them: a way that needs a node comes after it, so which nodes are
/// needed is known only when it is too late to keep them), every way's node list into a
/// `WayNodeStore` (a multipolygon relation, which comes after the ways, may be made of any of
/// them, and its rings are often joined from open ways: keeping only tagged or closed ways would
/// lose them), and every tagged way or multipolygon relation waits as a `PendingArea`. After the
/// last input, `resolve()` gives each its point: a closed way and a multipolygon at their
/// `Area.representativePoint`, an open way halfway along it. Resolving after every input is read
/// lets overlapping extracts supply each other's nodes and ways.
struct AreaCollector {
    /// A tagged way or multipolygon relation whose point is not known yet.
    struct PendingArea {
        /// The spot candidate; its coordinate is set by `resolve()`.
        var candidate: SpotCandidate
        /// The way, or the relation's member ways.
        var shape: Shape
    }

    /// Where an area's geometry comes from.
    enum Shape {
        /// The way of the candidate's own id.
        case way
        /// A multipolygon's member ways by role; nil ids are members without a valid reference.
        case multipolygon(outers: [Int64?], inners: [Int64?])
    }

    /// Why an area got no point, as the read stage counts it.
    enum Failure: String, Error {
        /// A way names a node the inputs do not have.
        case missingNodes = "missing_nodes"
        /// A relation names a way the inputs do not have.
        case missingMembers = "missing_members"
        /// A relation's ways do not join into closed rings.
        case brokenRings = "broken_rings"
    }

    let nodes: NodeLocationStore
    private(set) var ways = WayNodeStore()
    private(set) var pending: [PendingArea] = []

    /// An empty collector whose node locations spill to a temporary file beyond `memoryLimit` bytes.
    init(memoryLimit: Int = 32 << 20) {
        nodes = NodeLocationStore(memoryLimit: memoryLimit)
    }

    /// Keeps a way's node list.
    mutating func addWay(_ element: OSMElement) {
        ways.append(id: element.id, nodes: element.nodeRefs)
    }

    /// Waits for the point of a tagged way or relation.
    mutating func addArea(_ candidate: SpotCandidate, shape: Shape) {
        pending.append(PendingArea(candidate: candidate, shape: shape))
    }

    /// The shape of a multipolygon relation from its members: ways with role `outer` (or none)
    /// and `inner`; other members and roles are not part of the area.
    static func multipolygon(_ element: OSMElement) -> Shape {
        var outers: [Int64?] = []
        var inners: [Int64?] = []
        for index in 0..<element.memberCount {
            let member = element.member(at: index)
            guard member.type == .way else { continue }
            if member.role.equals("outer") || member.role.equals("") {
                outers.append(member.ref)
            } else if member.role.equals("inner") {
                inners.append(member.ref)
            }
        }
        return .multipolygon(outers: outers, inners: inners)
    }

    /// The candidates of every pending area at its point, and the failures of those left out.
    mutating func resolve() -> (candidates: [SpotCandidate], failures: [Failure]) {
        nodes.finish()
        ways.finish()
        var candidates: [SpotCandidate] = []
        var failures: [Failure] = []
        for var area in pending {
            switch geometry(of: area) {
            case .success(let (point, polygon)):
                area.candidate.spot.coordinate = point
                area.candidate.area = polygon
                candidates.append(area.candidate)
            case .failure(let failure):
                failures.append(failure)
            }
        }
        pending = []
        return (candidates, failures)
    }

    /// The point of an area, and its polygon when it has one (not for an open way).
    private func geometry(of area: PendingArea) -> Result<(Coordinate, Area?), Failure> {
        switch area.shape {
        case .way:
            let refs = ways.nodes(of: area.candidate.spot.ref.id) ?? []
            guard !refs.isEmpty, let line = coordinates(refs) else { return .failure(.missingNodes) }
            if refs.count >= 4 && refs.first == refs.last, let polygon = Area(outers: [line]) {
                return .success((polygon.representativePoint, polygon))
            }
            return .success((halfwayPoint(of: line), nil))
        case .multipolygon(let outers, let inners):
            var rings: [[[Coordinate]]] = []
            for members in [outers, inners] {
                var memberWays: [[Int64]] = []
                for member in members {
                    guard let member, let refs = ways.nodes(of: member) else { return .failure(.missingMembers) }
                    memberWays.append(refs)
                }
                guard let joined = Rings.join(memberWays) else { return .failure(.brokenRings) }
                var ringCoordinates: [[Coordinate]] = []
                for ring in joined {
                    guard let line = coordinates(ring) else { return .failure(.missingNodes) }
                    ringCoordinates.append(line)
                }
                rings.append(ringCoordinates)
            }
            guard let polygon = Area(outers: rings[0], inners: rings[1]) else { return .failure(.brokenRings) }
            return .success((polygon.representativePoint, polygon))
        }
    }

    /// The locations of `refs`, or nil when one is missing.
    private func coordinates(_ refs: [Int64]) -> [Coordinate]? {
        var line: [Coordinate] = []
        line.reserveCapacity(refs.count)
        for ref in refs {
            guard let location = nodes.location(of: ref) else { return nil }
            line.append(Coordinate(latitudeE7: location.latitudeE7, longitudeE7: location.longitudeE7)!)
        }
        return line
    }
}
