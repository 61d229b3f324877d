// What the reader and pbf targets share: everything the spot handlers read of an element
// (type, id, version, line, coordinates, every tag byte for byte, node references, members),
// collected from a read, and a read's outcome, for reads on different threads and pieces to be
// compared. Scripts/fuzz compiles this file into those two targets.

/// Everything the spot handlers read of an element.
struct Element: Equatable {
    var type: OSMElementType
    var id: Int64
    var version: Int64
    var line: Int
    var latitude: Int32?
    var longitude: Int32?
    var tags: [[UInt8]]
    var refs: [Int64]
    var members: [String]
}

/// Collects every element it is handed.
struct Collector: OSMElementHandler {
    var elements: [Element] = []

    mutating func handle(_ element: OSMElement) {
        var tags: [[UInt8]] = []
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            tags.append(Array(tag.key.buffer) + [0] + Array(tag.value.buffer))
        }
        let members = (0..<element.memberCount).map { index in
            let member = element.member(at: index)
            return "\(String(describing: member.type)) \(String(describing: member.ref)) \(member.role.string)"
        }
        elements.append(
            Element(
                type: element.type, id: element.id, version: element.version, line: element.line,
                latitude: element.latitudeE7, longitude: element.longitudeE7, tags: tags,
                refs: Array(element.nodeRefs), members: members))
    }
}

/// What one read gave: the elements and counts, or the error.
enum Outcome: Equatable {
    case read([Element], nodes: Int, ways: Int, relations: Int, deleted: Int, timestamp: String?)
    case failed(String)

    /// The outcome of a read that handed `collector` its elements and returned `summary`.
    init(_ collector: Collector, _ summary: OSMReadSummary) {
        self = .read(
            collector.elements, nodes: summary.nodes, ways: summary.ways, relations: summary.relations,
            deleted: summary.deleted, timestamp: summary.newestTimestamp)
    }
}
