import OSMXML
import Spots

/// What the extractor reads of an element: its id, version and tags, as bytes.
protocol TaggedElement {
    /// The OSM id.
    var id: Int64 { get }
    /// The `version` attribute, 0 when absent.
    var version: Int64 { get }
    /// How many tags it has.
    var tagCount: Int { get }
    /// The key and value of tag `index`, in document order.
    func tag(at index: Int) -> (key: OSMBytes, value: OSMBytes)
}

extension TaggedElement {
    /// The value of the first tag with key `key`, or nil.
    func value(forKey key: StaticString) -> OSMBytes? {
        for index in 0..<tagCount {
            let tag = tag(at: index)
            if tag.key.equals(key) { return tag.value }
        }
        return nil
    }
}

extension OSMElement: TaggedElement {}

/// Selected nodes kept compactly while the input is read: id, version, coordinate and the tags
/// a record is made of, as bytes in one arena, about a quarter of a record's memory. The
/// extractor makes the records after the last input, once the reader's buffers are freed, so
/// that the two never add up: this keeps a build's peak memory nearly flat with input size.
struct PendingNodes {
    /// One node: where its tags end in `tagEnds`.
    private struct Node {
        var id: Int64
        var version: Int64
        var coordinate: Coordinate
        var tagEnd: Int32
    }

    private var nodes: [Node] = []
    /// Where each tag's bytes end in `bytes`, and where its key ends.
    private var tagEnds: [(keyEnd: Int32, end: Int32)] = []
    private var bytes: [UInt8] = []

    /// Nodes kept.
    var count: Int { nodes.count }

    /// Keeps `element` at `coordinate` with the tags whose keys `keep` accepts.
    mutating func append(_ element: OSMElement, at coordinate: Coordinate, keeping keep: (OSMBytes) -> Bool) {
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            guard keep(tag.key) else { continue }
            bytes.append(contentsOf: tag.key.buffer)
            let keyEnd = Int32(bytes.count)
            bytes.append(contentsOf: tag.value.buffer)
            tagEnds.append((keyEnd, Int32(bytes.count)))
        }
        nodes.append(Node(id: element.id, version: element.version, coordinate: coordinate, tagEnd: Int32(tagEnds.count)))
    }

    /// Calls `body` with each node kept, in order, and its coordinate; then empties the store.
    mutating func drain(_ body: (StoredNode, Coordinate) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            tagEnds.withUnsafeBufferPointer { tagEnds in
                var firstTag = 0
                for node in nodes {
                    let firstByte = firstTag == 0 ? 0 : Int(tagEnds[firstTag - 1].end)
                    let tags = UnsafeBufferPointer(rebasing: tagEnds[firstTag..<Int(node.tagEnd)])
                    body(StoredNode(id: node.id, version: node.version, tags: tags, firstByte: firstByte, bytes: bytes), node.coordinate)
                    firstTag = Int(node.tagEnd)
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
    /// Where each of its tags' keys and values end in `bytes`.
    fileprivate let tags: UnsafeBufferPointer<(keyEnd: Int32, end: Int32)>
    /// Where its first tag starts in `bytes`.
    fileprivate let firstByte: Int
    fileprivate let bytes: UnsafeBufferPointer<UInt8>

    var tagCount: Int { tags.count }

    func tag(at index: Int) -> (key: OSMBytes, value: OSMBytes) {
        let start = index == 0 ? firstByte : Int(tags[index - 1].end)
        let (keyEnd, end) = (Int(tags[index].keyEnd), Int(tags[index].end))
        return (
            OSMBytes(UnsafeBufferPointer(rebasing: bytes[start..<keyEnd])),
            OSMBytes(UnsafeBufferPointer(rebasing: bytes[keyEnd..<end])))
    }
}
