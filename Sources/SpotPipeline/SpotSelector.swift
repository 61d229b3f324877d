import OSMXML
import Spots

/// Turns OSM nodes tagged `amenity` or `tourism` into spots, keeping one record per OSM object.
///
/// Keys are compared as bytes; Strings are made only for nodes that become spots. A node whose
/// coordinate is impossible is skipped and counted. The same object met twice (two overlapping
/// inputs, or twice in one) stays one record: the higher version, or the first on a tie.
struct SpotSelector: OSMElementHandler {
    /// The tag keys that make a node a spot, in order of precedence (amenity wins).
    static let selectingKeys = ["amenity", "tourism"]

    let categories: CategoryTable
    private(set) var spots: [OSMRef: (spot: Spot, version: Int64)] = [:]
    private(set) var badCoordinates = 0
    private(set) var repeatedObjects = 0

    init(categories: CategoryTable) {
        self.categories = categories
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
        let ref = OSMRef(.node, element.id)
        if let existing = spots[ref] {
            repeatedObjects += 1
            guard element.version > existing.version else { return }
        }
        let kind = value.string
        var spot = Spot(
            ref: ref, coordinate: coordinate, tagKey: key, kind: kind,
            category: categories.category(key: key, value: kind))
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            if tag.key.equals("name") || tag.key.hasPrefix("name:") || tag.key.hasPrefix("addr:")
                || Self.detailKeys.contains(where: tag.key.equals)
            {
                spot.setAttribute(key: tag.key.string, value: tag.value.string)
            }
        }
        spots[ref] = (spot, element.version)
    }

    /// `Spot.Detail` keys as static strings, for byte comparison.
    private static let detailKeys: [StaticString] = ["phone", "website", "opening_hours", "cuisine", "wikidata"]
}
