import SpotState

/// A source that answers from another and keeps what it was asked and answered, in order: the
/// lookups a record keeps (`AreaLookups`) so that a later update can replay them.
final class RecordingAreaSource<Source: AreaSource>: AreaSource {
    private let source: Source
    /// What was looked up since the last `take()`.
    private var lookups = AreaLookups()

    /// A recorder of `source`'s answers.
    init(_ source: Source) {
        self.source = source
    }

    func location(of id: Int64) throws(StateError) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        let location = try source.location(of: id)
        lookups.nodes.append((id, location))
        return location
    }

    func nodes(of id: Int64) throws(StateError) -> [Int64]? {
        let nodes = try source.nodes(of: id)
        lookups.ways.append((id, nodes))
        return nodes
    }

    /// The lookups recorded since the last call, handed over.
    func take() -> AreaLookups {
        defer { lookups = AreaLookups() }
        return lookups
    }
}

/// A source that answers an area's lookups from what a record kept, in the order they were
/// made: placing the area again asks the same questions in the same order (`AreaGeometry` is
/// deterministic), so each is answered by the next kept answer. A question that is not the next
/// kept one (a record from another program's placing, say) is answered "missing" and marks the
/// replay `diverged`: the caller then looks again.
final class ReplayedAreaSource: AreaSource {
    private let lookups: AreaLookups
    private var nextWay = 0
    private var nextNode = 0
    /// Whether a question was not the next kept one.
    private(set) var diverged = false

    /// A replay of `lookups`.
    init(_ lookups: AreaLookups) {
        self.lookups = lookups
    }

    func location(of id: Int64) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        guard nextNode < lookups.nodes.count, lookups.nodes[nextNode].id == id else {
            diverged = true
            return nil
        }
        nextNode += 1
        return lookups.nodes[nextNode - 1].location
    }

    func nodes(of id: Int64) -> [Int64]? {
        guard nextWay < lookups.ways.count, lookups.ways[nextWay].id == id else {
            diverged = true
            return nil
        }
        nextWay += 1
        return lookups.ways[nextWay - 1].nodes
    }

    /// Whether every kept answer was asked for, and nothing else.
    var isComplete: Bool { !diverged && nextWay == lookups.ways.count && nextNode == lookups.nodes.count }
}
