import OSMGeometry
import OSMInput
import SpotState
import Spots

/// Makes spot candidates of records: a selected object's attributes, the tags the category table
/// consults as context, and its point (a node's own, an area's from `AreaGeometry`). The build
/// and an update call it alike, so an update's candidates are a build's.
struct CandidateMaker {
    /// The keys a spot keeps as they are (`Spot.attributeKeys`), as bytes to compare tags with.
    private static let attributeKeys = Spot.attributeKeys.map { Array($0.utf8) }

    /// What makes an object a spot.
    let selection: SpotSelection
    /// Keys of other tags to keep as context.
    let contextKeys: [[UInt8]]

    /// A maker for `selection`, keeping the tags of `contextKeys` as context.
    init(selection: SpotSelection, contextKeys: Set<String>) {
        self.selection = selection
        self.contextKeys = contextKeys.sorted().map { Array($0.utf8) }
    }

    /// Whether a candidate is made of tags with this key: selecting, attribute or context. A
    /// record keeps these tags alone.
    func isCandidateTag(_ key: OSMBytes) -> Bool {
        selection.position(ofKey: key) != nil || key.hasPrefix("name:") || key.hasPrefix("addr:")
            || key.equals("wikipedia") || key.hasPrefix("wikipedia:")
            || Self.attributeKeys.contains { $0.elementsEqual(key.buffer) }
            || contextKeys.contains { $0.elementsEqual(key.buffer) }
    }

    /// The candidates of `records`: the nodes', then the areas' (each in the records' order),
    /// areas placed with `areas` (nil: nodes only); the areas that got no point, by reason; and
    /// what placing each area looked up (`AreaLookups`, by record position; nil for nodes and
    /// for areas placed by replaying their record's own lookups, which `replays` allows).
    func candidates(
        of records: [StateRecord], areas: (some AreaSource)?, replays: (Int) -> Bool = { _ in false }
    ) throws(StateError) -> (candidates: [SpotCandidate], failures: [String: Int], lookups: [AreaLookups?]) {
        var candidates: [SpotCandidate] = []
        candidates.reserveCapacity(records.count)
        for record in records where record.header.type == .node {
            let coordinate = Coordinate(latitudeE7: record.header.latitudeE7, longitudeE7: record.header.longitudeE7)!
            candidates.append(candidate(for: record, at: coordinate))
        }
        var failures: [String: Int] = [:]
        var lookups = [AreaLookups?](repeating: nil, count: records.count)
        guard let areas else { return (candidates, failures, lookups) }
        let recorder = RecordingAreaSource(areas)
        for (position, record) in records.enumerated() where record.header.type != .node {
            var placed: Result<(Coordinate, Area?), AreaGeometry.Failure>?
            if replays(position) {
                let replay = ReplayedAreaSource(record.lookups.values)
                let result = try AreaGeometry.geometry(of: record, in: replay)
                if replay.isComplete { placed = result }
            }
            if placed == nil {
                placed = try AreaGeometry.geometry(of: record, in: recorder)
                lookups[position] = recorder.take()
            }
            switch placed! {
            case .success(let (point, polygon)):
                var area = candidate(for: record, at: point)
                area.area = polygon
                candidates.append(area)
            case .failure(let failure):
                failures[failure.rawValue, default: 0] += 1
            }
        }
        return (candidates, failures, lookups)
    }

    /// The candidate of a selected record at `coordinate`.
    private func candidate(for record: StateRecord, at coordinate: Coordinate) -> SpotCandidate {
        let (key, value, position) = selection.selectingTag(of: record)
        let type: OSMType =
            switch record.header.type! {
            case .node: .node
            case .way: .way
            case .relation: .relation
            }
        var candidate = SpotCandidate(
            spot: Spot(
                ref: OSMRef(type, record.header.id), coordinate: coordinate, tagKey: key, kind: value, category: nil),
            version: record.header.version)
        let isAddressPoint = position == selection.keys.count
        if isAddressPoint { candidate.spot.resultType = .address }
        for index in 0..<record.tagCount {
            let tag = record.tag(at: index)
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
