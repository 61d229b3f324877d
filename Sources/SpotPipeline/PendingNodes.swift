import OSMInput
import Spots

/// What the extractor reads of an element: its id, version and tags, as bytes.
protocol TaggedElement: OSMTagged {
    /// The OSM id.
    var id: Int64 { get }
    /// The `version` attribute, 0 when absent.
    var version: Int64 { get }
}

extension OSMElement: TaggedElement {}

/// Selected nodes kept compactly while the input is read: id, version, coordinate and the tags
/// a candidate is made of, as bytes in one arena, about a quarter of a candidate's memory. The
/// extractor makes the candidates after the last input, once the reader's buffers are freed, so
/// that the two never add up: this keeps a build's peak memory nearly flat with input size.
struct PendingNodes {
    /// One node, and how many of the tags in `tagLengths` are its.
    private struct Node {
        var id: Int64
        var version: Int64
        var coordinate: Coordinate
        var tagCount: UInt32
    }

    private var nodes: [Node] = []
    /// The length of each kept tag's key and value, node after node. Lengths rather than
    /// offsets, so that no total (the arena of a planet) has to fit in 32 bits; one tag's do, as
    /// they do in the reader's batches.
    private var tagLengths: [(key: UInt32, value: UInt32)] = []
    /// Each kept tag's key then value, node after node.
    private var bytes: [UInt8] = []

    /// Nodes kept.
    var count: Int { nodes.count }

    /// Keeps `element` at `coordinate` with the tags whose keys `keep` accepts.
    mutating func append(_ element: OSMElement, at coordinate: Coordinate, keeping keep: (OSMBytes) -> Bool) {
        var kept: UInt32 = 0
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            guard keep(tag.key) else { continue }
            bytes.append(contentsOf: tag.key.buffer)
            bytes.append(contentsOf: tag.value.buffer)
            tagLengths.append((UInt32(tag.key.buffer.count), UInt32(tag.value.buffer.count)))
            kept += 1
        }
        nodes.append(Node(id: element.id, version: element.version, coordinate: coordinate, tagCount: kept))
    }

    /// Calls `body` with each node kept, in order, and its coordinate; then empties the store.
    mutating func drain(_ body: (StoredNode, Coordinate) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            tagLengths.withUnsafeBufferPointer { tagLengths in
                var firstTag = 0
                var firstByte = 0
                for node in nodes {
                    let tags = UnsafeBufferPointer(rebasing: tagLengths[firstTag..<firstTag + Int(node.tagCount)])
                    let stored = StoredNode(
                        id: node.id, version: node.version, tagLengths: tags,
                        bytes: UnsafeBufferPointer(rebasing: bytes[firstByte...]))
                    body(stored, node.coordinate)
                    firstTag += tags.count
                    for tag in tags { firstByte += Int(tag.key) + Int(tag.value) }
                }
            }
        }
        self = PendingNodes()
    }
}

/// A node kept by `PendingNodes`, as the extractor reads it; valid only during `drain`'s call.
struct StoredNode: TaggedElement {
    let id: Int64
    let version: Int64
    /// The length of each of its tags' key and value.
    fileprivate let tagLengths: UnsafeBufferPointer<(key: UInt32, value: UInt32)>
    /// Its first tag's key, followed by the rest of its tags (and those of the nodes after it).
    fileprivate let bytes: UnsafeBufferPointer<UInt8>

    var tagCount: Int { tagLengths.count }

    func tag(at index: Int) -> (key: OSMBytes, value: OSMBytes) {
        var start = 0
        for earlier in tagLengths[..<index] { start += Int(earlier.key) + Int(earlier.value) }
        let (key, value) = (Int(tagLengths[index].key), Int(tagLengths[index].value))
        return (
            OSMBytes(UnsafeBufferPointer(rebasing: bytes[start..<start + key])),
            OSMBytes(UnsafeBufferPointer(rebasing: bytes[start + key..<start + key + value]))
        )
    }
}
