import OSMXML
import SpotIndex
import Spots

/// Reads spot records out of OSM elements: every node, way and multipolygon relation with an
/// `amenity` or `tourism` tag (amenity selects when both are there; the tourism value is kept in
/// the context, for the select stage to fall back on), with its attributes and the tags the
/// category table consults. It decides nothing else: the stages do. Keys are compared as bytes
/// and Strings made only for selected objects. A node whose coordinate is impossible, or an
/// object whose id is beyond what the index stores (`SpotIndexWriter.storableIDs`, far beyond
/// OpenStreetMap's), is counted and skipped.
///
/// With `areas` (not `--no-areas`) the extractor also collects what ways and relations need for
/// a point (`AreaCollector`): node records are made as they are read, area records by
/// `finish()` after the last input. Without, only nodes are read (the reader's filter then
/// delivers nothing else).
struct SpotExtractor: OSMElementHandler {
    /// The tag keys that make an object a spot, in order of precedence.
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
    /// Tagged relations that are not multipolygons (sites, routes): no area, no spot.
    private(set) var otherRelations = 0
    /// Areas that got no point, by reason (`AreaCollector.Failure`).
    private(set) var areaFailures: [String: Int] = [:]
    /// Node locations, way node lists and pending areas; nil for nodes only.
    private var areas: AreaCollector?

    init(contextKeys: Set<String>, areas: Bool) {
        self.contextKeys = contextKeys.sorted().map { Array($0.utf8) }
        self.areas = areas ? AreaCollector() : nil
    }

    /// What the reader must deliver: tagged nodes, and with areas every node and way too (bare
    /// when untagged) and tagged relations.
    static func filter(areas: Bool) -> OSMElementFilter {
        areas
            ? OSMElementFilter(types: [.node, .way, .relation], tagKeys: selectingKeys, bareTypes: [.node, .way])
            : OSMElementFilter(types: [.node], tagKeys: selectingKeys)
    }

    mutating func handle(_ element: OSMElement) {
        switch element.type {
        case .node:
            let coordinate = element.latitudeE7.flatMap { latitude in
                element.longitudeE7.flatMap { Coordinate(latitudeE7: latitude, longitudeE7: $0) }
            }
            if let coordinate {
                areas?.nodes.append(id: element.id, latitudeE7: coordinate.latitudeE7, longitudeE7: coordinate.longitudeE7)
            }
            guard element.tagCount > 0, let record = record(for: element, type: .node, at: coordinate) else { return }
            records.append(record)
        case .way:
            areas?.addWay(element)
            guard element.tagCount > 0, let record = record(for: element, type: .way, at: .origin) else { return }
            areas?.addArea(record, shape: .way)
        case .relation:
            guard let record = record(for: element, type: .relation, at: .origin) else { return }
            guard element.value(forKey: "type")?.equals("multipolygon") == true else {
                otherRelations += 1
                return
            }
            areas?.addArea(record, shape: AreaCollector.multipolygon(element))
        }
    }

    /// Ends reading: gives every pending area its point and adds its record, counting the areas
    /// that got none.
    mutating func finish() {
        guard var collector = areas else { return }
        let (resolved, failures) = collector.resolve()
        records += resolved
        for failure in failures { areaFailures[failure.rawValue, default: 0] += 1 }
        areas = nil
    }

    /// Hands over the records, leaving none here: the stages then own the only copy and can
    /// change it in place.
    mutating func takeRecords() -> [SpotRecord] {
        defer { records = [] }
        return records
    }

    /// The record of a selected element at `coordinate` (a placeholder for areas until
    /// `finish()`), or nil when the element has no selecting tag, its coordinate is impossible
    /// (nil) or its id cannot be stored.
    private mutating func record(for element: OSMElement, type: OSMType, at coordinate: Coordinate?) -> SpotRecord? {
        let selecting = element.value(forKey: "amenity").map { ("amenity", $0) }
            ?? element.value(forKey: "tourism").map { ("tourism", $0) }
        guard let (key, value) = selecting else { return nil }
        guard let coordinate else {
            badCoordinates += 1
            return nil
        }
        guard SpotIndexWriter.storableIDs.contains(element.id) else {
            badIDs += 1
            return nil
        }
        var record = SpotRecord(
            spot: Spot(ref: OSMRef(type, element.id), coordinate: coordinate, tagKey: key, kind: value.string, category: nil),
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
        return record
    }
}

extension Coordinate {
    /// 0° N 0° E: where a record stands until its point is known.
    fileprivate static let origin = Coordinate(latitudeE7: 0, longitudeE7: 0)!
}
