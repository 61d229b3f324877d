// The PBF reader, two ways. The input as a file, read on the caller's thread and on three
// decoding threads: both must hand over the same elements (type, id, version, coordinates,
// tags, node references and members, byte for byte) and counts, or the same error. And the
// input's bytes decoded directly as one PrimitiveBlock and as one HeaderBlock, the messages
// inside the blobs (most mutations of a whole file only break its zlib data): they must decode
// or throw, never crash or read out of bounds. Tight limits make the limit checks part of it.
// Scripts/fuzz compiles this file with Sources/OSMInput into one module.

/// Everything the spot handlers read of an element.
private struct Element: Equatable {
    var type: OSMElementType
    var id: Int64
    var version: Int64
    var latitude: Int32?
    var longitude: Int32?
    var tags: [[UInt8]]
    var refs: [Int64]
    var members: [String]
}

/// Collects every element it is handed.
private struct Collector: OSMElementHandler {
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
                type: element.type, id: element.id, version: element.version, latitude: element.latitudeE7,
                longitude: element.longitudeE7, tags: tags, refs: Array(element.nodeRefs), members: members))
    }
}

/// What one read gave: the elements and counts, or the error.
private enum Outcome: Equatable {
    case read([Element], nodes: Int, ways: Int, relations: Int, deleted: Int, timestamp: String?)
    case failed(String)
}

private let limits = OSMReadLimits(maxElementBytes: 1 << 16, maxTags: 8, maxValueBytes: 64)
private let filter = OSMElementFilter(
    types: [.node, .way, .relation], tagKeys: ["amenity", "tourism"], bareTypes: [.node, .way])

private func read(_ path: String, threads: Int) -> Outcome {
    var collector = Collector()
    do throws(OSMInputError) {
        let summary = try OSMReader(file: path, filter: filter, limits: limits, threads: threads).read(into: &collector)
        return .read(
            collector.elements, nodes: summary.nodes, ways: summary.ways, relations: summary.relations,
            deleted: summary.deleted, timestamp: summary.newestTimestamp)
    } catch {
        return .failed(error.description)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPBF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var decoder = PrimitiveBlockDecoder(filter: filter, limits: limits)
    _ = try? decoder.decode(bytes)
    _ = try? PBFHeader(bytes).checkFeatures()
    guard InputFormat(head: Array(bytes.prefix(InputFormat.headLength))) == .pbf else { return 0 }
    withTemporaryFile(data, size) { path in
        let inOrder = read(path, threads: 1)
        let parallel = read(path, threads: 3)
        if inOrder != parallel {
            fatalError("1 and 3 threads differ:\n\(inOrder)\n\(parallel)")
        }
    }
    return 0
}
