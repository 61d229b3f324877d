import OSMXML
import SpotIndex
import Spots

/// Reads spot records out of OSM elements: every node with an `amenity` or `tourism` tag
/// (amenity selects when both are there; the tourism value is kept in the context, for the
/// select stage to fall back on), with its attributes and the tags the category table
/// consults. It decides nothing else: the stages do. Keys are compared as bytes and Strings made only for these
/// nodes. A node whose coordinate is impossible, or whose id is beyond what the index stores
/// (`SpotIndexWriter.storableIDs`, far beyond OpenStreetMap's), is counted and skipped.
struct SpotExtractor: OSMElementHandler {
    /// The tag keys that make a node a spot, in order of precedence.
    static let selectingKeys = ["amenity", "tourism"]
    /// Spot attribute keys, as static strings for byte comparison (plus `name:*` and `addr:*`).
    private static let detailKeys: [StaticString] = [
        "name", "phone", "website", "opening_hours", "cuisine", "wikidata", "alt_name", "old_name", "official_name",
        "short_name", "loc_name",
    ]

    /// Keys of other tags to keep as context.
    let contextKeys: [[UInt8]]
    private(set) var records: [SpotRecord] = []
    private(set) var badCoordinates = 0
    private(set) var badIDs = 0

    init(contextKeys: Set<String>) {
        self.contextKeys = contextKeys.sorted().map { Array($0.utf8) }
    }

    mutating func handle(_ element: OSMElement) {
        guard element.type == .node else { return }
        let selecting = element.value(forKey: "amenity").map { ("amenity", $0) }
            ?? element.value(forKey: "tourism").map { ("tourism", $0) }
        guard let (key, value) = selecting else { return }
        guard let latitude = element.latitudeE7, let longitude = element.longitudeE7,
            let coordinate = Coordinate(latitudeE7: latitude, longitudeE7: longitude)
        else {
            badCoordinates += 1
            return
        }
        guard SpotIndexWriter.storableIDs.contains(element.id) else {
            badIDs += 1
            return
        }
        var record = SpotRecord(
            spot: Spot(ref: OSMRef(.node, element.id), coordinate: coordinate, tagKey: key, kind: value.string, category: nil),
            version: element.version)
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            if tag.key.hasPrefix("name:") || tag.key.hasPrefix("addr:") || Self.detailKeys.contains(where: tag.key.equals) {
                record.spot.setAttribute(key: tag.key.string, value: tag.value.string)
            } else if contextKeys.contains(where: { $0.elementsEqual(tag.key.buffer) })
                || (key == "amenity" && tag.key.equals("tourism"))
            {
                record.context[tag.key.string] = tag.value.string
            }
        }
        records.append(record)
    }
}
