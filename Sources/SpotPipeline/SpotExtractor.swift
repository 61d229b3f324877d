import OSMInput
import SpotIndexWriting
import SpotState
import Spots

/// Reads the selected objects out of OSM elements: every node, way and multipolygon relation
/// that the selection selects (`SpotSelection`: a tag of one of its keys, the first present
/// selecting, the later keys' values kept in the context for the select stage to fall back on;
/// with address points, a house number), as records (`RecordArena`) of the tags a candidate
/// is made of (`CandidateMaker.isCandidateTag`). It decides nothing else: the stages do. Keys
/// are compared as bytes. A node whose coordinate is impossible, or an object whose id is
/// beyond what the index stores (`SpotIndexWriter.storableIDs`, far beyond OpenStreetMap's),
/// is counted and skipped.
///
/// Records are about a quarter of a candidate's memory; the candidates are made after the last
/// input (`CandidateMaker`), once the reader's buffers are freed, so that the two never add up:
/// this keeps a build's peak memory nearly flat with input size. With `areas` (not
/// `--no-areas`) the extractor also keeps every node's location and every way's node list
/// (`BuildAreaSource`) for the areas' points. Without, only nodes are read (the reader's filter
/// then delivers nothing else).
struct SpotExtractor: OSMElementHandler {
    /// How candidates are made of the records.
    let maker: CandidateMaker
    /// The selected objects, in input order.
    private(set) var records = RecordArena()
    private(set) var badCoordinates = 0
    private(set) var badIDs = 0
    /// Tagged relations that are not multipolygons (sites, routes): no area, no spot.
    private(set) var otherRelations = 0
    /// Node locations and way node lists; nil for nodes only.
    let areas: BuildAreaSource?

    init(maker: CandidateMaker, areas: Bool) {
        self.maker = maker
        self.areas = areas ? BuildAreaSource() : nil
    }

    /// What the reader must deliver: tagged nodes, and with areas every node and way too (bare
    /// when untagged) and tagged relations.
    static func filter(_ selection: SpotSelection, areas: Bool) -> OSMElementFilter {
        areas
            ? OSMElementFilter(types: [.node, .way, .relation], tagKeys: selection.readKeys, bareTypes: [.node, .way])
            : OSMElementFilter(types: [.node], tagKeys: selection.readKeys)
    }

    mutating func handle(_ element: OSMElement) {
        switch element.type {
        case .node:
            let coordinate = element.latitudeE7.flatMap { latitude in
                element.longitudeE7.flatMap { Coordinate(latitudeE7: latitude, longitudeE7: $0) }
            }
            if let coordinate {
                areas?.nodes.append(
                    id: element.id, latitudeE7: coordinate.latitudeE7, longitudeE7: coordinate.longitudeE7)
            }
            guard element.tagCount > 0, let coordinate = accepted(element, at: coordinate) else { return }
            append(element, latitudeE7: coordinate.latitudeE7, longitudeE7: coordinate.longitudeE7)
        case .way:
            areas?.addWay(element)
            guard element.tagCount > 0, accepted(element, at: .origin) != nil else { return }
            append(element)
        case .relation:
            guard accepted(element, at: .origin) != nil else { return }
            guard element.value(forKey: "type")?.equals("multipolygon") == true else {
                otherRelations += 1
                return
            }
            append(element, members: AreaGeometry.members(of: element))
        }
    }

    /// Keeps a record of the selected `element`.
    private mutating func append(
        _ element: OSMElement, latitudeE7: Int32 = 0, longitudeE7: Int32 = 0, members: [RecordMember] = []
    ) {
        let maker = maker
        records.append(
            type: element.type, id: element.id, version: element.version, latitudeE7: latitudeE7,
            longitudeE7: longitudeE7, tags: element, keeping: { maker.isCandidateTag($0) }, members: members)
    }

    /// The coordinate of an element with a selecting tag, when it can be a spot: not when its
    /// coordinate is impossible (nil) or its id cannot be stored, which are counted.
    private mutating func accepted(_ element: OSMElement, at coordinate: Coordinate?) -> Coordinate? {
        guard maker.selection.selects(element) else { return nil }
        guard let coordinate else {
            badCoordinates += 1
            return nil
        }
        guard SpotIndexWriter.storableIDs.contains(element.id) else {
            badIDs += 1
            return nil
        }
        return coordinate
    }
}

extension Coordinate {
    /// 0° N 0° E: a placeholder for an area's point, which is known only after reading.
    static let origin = Coordinate(latitudeE7: 0, longitudeE7: 0)!
}
