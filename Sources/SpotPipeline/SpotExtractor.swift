import OSMInput
import SpotIndex
import SpotIndexWriting
import Spots

/// Reads spot candidates out of OSM elements: every node, way and multipolygon relation that the
/// selection selects (`SpotSelection`: a tag of one of its keys, the first present selecting,
/// the later keys' values kept in the context for the select stage to fall back on; with
/// address points, a house number), with its attributes and the tags the category table
/// consults. An address point keeps its `addr:*` tags alone. It decides nothing else: the stages do. Keys are compared as bytes
/// and Strings made only for selected objects. A node whose coordinate is impossible, or an
/// object whose id is beyond what the index stores (`SpotIndexWriter.storableIDs`, far beyond
/// OpenStreetMap's), is counted and skipped.
///
/// Selected nodes are kept compactly while the inputs are read (`PendingNodes`); `finish()`
/// makes their candidates after the last input. With `areas` (not `--no-areas`) the extractor also
/// collects what ways and relations need for a point (`AreaCollector`), and `finish()` adds the
/// area candidates after the nodes'. Without, only nodes are read (the reader's filter then
/// delivers nothing else).
struct SpotExtractor: OSMElementHandler {
    /// The keys a spot keeps as they are (`Spot.attributeKeys`), as bytes to compare tags with.
    private static let attributeKeys = Spot.attributeKeys.map { Array($0.utf8) }

    /// What makes an object a spot.
    let selection: SpotSelection
    /// Keys of other tags to keep as context.
    let contextKeys: [[UInt8]]
    /// The candidates, once `finish()` has made them.
    private(set) var candidates: [SpotCandidate] = []
    /// Selected nodes until `finish()`.
    private var pendingNodes = PendingNodes()
    private(set) var badCoordinates = 0
    private(set) var badIDs = 0
    /// Tagged relations that are not multipolygons (sites, routes): no area, no spot.
    private(set) var otherRelations = 0
    /// Areas that got no point, by reason (`AreaCollector.Failure`).
    private(set) var areaFailures: [String: Int] = [:]
    /// Node locations, way node lists and pending areas; nil for nodes only.
    private var areas: AreaCollector?

    init(selection: SpotSelection, contextKeys: Set<String>, areas: Bool) {
        self.selection = selection
        self.contextKeys = contextKeys.sorted().map { Array($0.utf8) }
        self.areas = areas ? AreaCollector() : nil
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
            let contextKeys = contextKeys
            let selection = selection
            pendingNodes.append(element, at: coordinate) {
                Self.isCandidateTag($0, selection: selection, contextKeys: contextKeys)
            }
        case .way:
            areas?.addWay(element)
            guard element.tagCount > 0, let coordinate = accepted(element, at: .origin) else { return }
            let candidate = candidate(for: element, type: .way, at: coordinate)
            areas?.addArea(candidate, shape: .way)
        case .relation:
            guard let coordinate = accepted(element, at: .origin) else { return }
            guard element.value(forKey: "type")?.equals("multipolygon") == true else {
                otherRelations += 1
                return
            }
            let candidate = candidate(for: element, type: .relation, at: coordinate)
            areas?.addArea(candidate, shape: AreaCollector.multipolygon(element))
        }
    }

    /// Ends reading: makes the selected nodes' candidates, then gives every pending area its point
    /// and adds its candidate, counting the areas that got none.
    mutating func finish() {
        var nodes = pendingNodes
        pendingNodes = PendingNodes()
        candidates.reserveCapacity(nodes.count)
        nodes.drain { node, coordinate in candidates.append(candidate(for: node, type: .node, at: coordinate)) }
        guard var collector = areas else { return }
        let (resolved, failures) = collector.resolve()
        candidates += resolved
        for failure in failures { areaFailures[failure.rawValue, default: 0] += 1 }
        areas = nil
    }

    /// Hands over the candidates, leaving none here: the stages then own the only copy and can
    /// change it in place.
    mutating func takeCandidates() -> [SpotCandidate] {
        defer { candidates = [] }
        return candidates
    }

    /// The coordinate of an element with a selecting tag, when it can be a spot: not when its
    /// coordinate is impossible (nil) or its id cannot be stored, which are counted.
    private mutating func accepted(_ element: OSMElement, at coordinate: Coordinate?) -> Coordinate? {
        guard selection.selects(element) else { return nil }
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

    /// Whether a candidate is made of tags with this key: selecting, attribute or context.
    private static func isCandidateTag(_ key: OSMBytes, selection: SpotSelection, contextKeys: [[UInt8]]) -> Bool {
        selection.position(ofKey: key) != nil || key.hasPrefix("name:") || key.hasPrefix("addr:")
            || key.equals("wikipedia") || key.hasPrefix("wikipedia:")
            || attributeKeys.contains { $0.elementsEqual(key.buffer) }
            || contextKeys.contains { $0.elementsEqual(key.buffer) }
    }

    /// The candidate of an accepted element at `coordinate` (a placeholder for areas until
    /// `finish()`).
    private func candidate(for element: some TaggedElement, type: OSMType, at coordinate: Coordinate) -> SpotCandidate {
        let (key, value, position) = selection.selectingTag(of: element)
        var candidate = SpotCandidate(
            spot: Spot(ref: OSMRef(type, element.id), coordinate: coordinate, tagKey: key, kind: value, category: nil),
            version: element.version)
        let isAddressPoint = position == selection.keys.count
        if isAddressPoint { candidate.spot.resultType = .address }
        for index in 0..<element.tagCount {
            let tag = element.tag(at: index)
            // An address point is its address: no name, no details.
            guard !isAddressPoint || tag.key.hasPrefix("addr:") else { continue }
            if tag.key.hasPrefix("name:") || tag.key.hasPrefix("addr:")
                || Self.attributeKeys.contains(where: { $0.elementsEqual(tag.key.buffer) })
            {
                candidate.spot.setAttribute(key: tag.key.string, value: tag.value.string)
            } else if tag.key.equals("wikipedia") || tag.key.hasPrefix("wikipedia:") {
                candidate.spot.hasWikipedia = true
            } else if contextKeys.contains(where: { $0.elementsEqual(tag.key.buffer) })
                || selection.position(ofKey: tag.key).map({ $0 > position }) == true
            {
                candidate.context[tag.key.string] = tag.value.string
            }
        }
        return candidate
    }
}

extension Coordinate {
    /// 0° N 0° E: where a candidate stands until its point is known.
    fileprivate static let origin = Coordinate(latitudeE7: 0, longitudeE7: 0)!
}
