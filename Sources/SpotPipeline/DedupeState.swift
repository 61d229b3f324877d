import Spots

/// The dedupe stage's work in progress: the candidates, merged in place pass by pass, with what
/// each is compared by. A place's survivor takes its head's slot and the other slots are
/// marked removed, so positions stay valid from pass to pass.
struct DedupeState {
    private(set) var candidates: [SpotCandidate]
    /// Positions in OSM type then id order of the candidates as they came.
    let order: [Int]
    /// Each candidate's `name` as a key (`NameKey`); nil when it has none.
    let exactKeys: [String?]
    /// Each candidate's word sets (`DedupeNames`), with its merged members' once merged.
    private(set) var wordSets: [WordSets]
    /// Slots whose candidate was merged into another.
    private(set) var removed: [Bool]

    /// The state of `candidates` before any merge, their names read with `names`.
    init(candidates: consuming [SpotCandidate], names: DedupeNames) {
        let candidates = candidates
        order = candidates.indices.sorted { candidates[$0].spot.ref < candidates[$1].spot.ref }
        var folded: [String: FoldedName?] = [:]
        func fold(_ name: String) -> FoldedName? {
            if let known = folded[name] { return known }
            let fresh = FoldedName(name)
            folded[name] = .some(fresh)
            return fresh
        }
        let compared = candidates.map { names.compared($0, folding: fold) }
        exactKeys = compared.map(\.exactKey)
        wordSets = compared.map(\.wordSets)
        self.candidates = candidates
        removed = Array(repeating: false, count: candidates.count)
    }

    /// What spots must share to be one place: the category, or the selecting tag when there is none.
    func categoryKey(_ position: Int) -> String {
        candidates[position].spot.category?.rawValue ?? candidates[position].spot.tag
    }

    /// What spots must share for their word sets to be compared: the category and the selecting
    /// tag, since each tag's own generic words are taken out ("Ressun autokoulu", a driving
    /// school, and "Ressun lukio", a school, are both "ressun").
    func wordSetScope(_ position: Int) -> String {
        categoryKey(position) + "\u{0}" + candidates[position].spot.tag
    }

    /// The positions not yet merged away, in OSM type then id order of the spots now there.
    func remainingPositions() -> [Int] {
        candidates.indices.filter { !removed[$0] }.sorted { candidates[$0].spot.ref < candidates[$1].spot.ref }
    }

    /// Pass 1: folds each area into the first node inside it (in type then id order) of its
    /// category and `name`; failing that, into the first such node that gives one of its word
    /// sets, of its selecting tag, and that nothing tells apart from it (`DedupeStage.areApart`).
    mutating func foldAreas(report: inout StageReport) {
        guard candidates.contains(where: { $0.area != nil }) else { return }
        var nodes = NodeKeys()
        for position in order where candidates[position].spot.ref.type == .node {
            if let key = exactKeys[position] {
                nodes.byName[categoryKey(position) + "\u{0}" + key, default: []].append(position)
            }
            let scope = wordSetScope(position) + "\u{0}"
            for set in wordSets[position].own { nodes.byOwnSet[scope + set, default: []].append(position) }
            for set in wordSets[position].all { nodes.bySet[scope + set, default: []].append(position) }
        }
        for area in order {
            guard let node = node(holding: area, among: nodes) else { continue }
            DedupeStage.fold(candidates[area], into: &candidates[node], rule: .nodeInArea, report: &report)
            wordSets[node].formUnion(wordSets[area])
            removed[area] = true
        }
    }

    /// The nodes, in order, by category and `name` key, and by category, tag and word set (of
    /// their own names, and of all).
    private struct NodeKeys {
        var byName: [String: [Int]] = [:]
        var byOwnSet: [String: [Int]] = [:]
        var bySet: [String: [Int]] = [:]
    }

    /// The node that takes the area at `area` (nil for a node or open way): the first inside it
    /// of its name, or else the first inside it whose word sets meet its own (`WordSets.meet`)
    /// and that is not told apart from it.
    private func node(holding area: Int, among nodes: NodeKeys) -> Int? {
        guard let shape = candidates[area].area else { return nil }
        func isInside(_ node: Int) -> Bool { shape.contains(candidates[node].spot.coordinate) }
        if let key = exactKeys[area], let node = nodes.byName[categoryKey(area) + "\u{0}" + key]?.first(where: isInside)
        {
            return node
        }
        let scope = wordSetScope(area) + "\u{0}"
        let meeting =
            wordSets[area].own.flatMap { nodes.bySet[scope + $0] ?? [] }
            + wordSets[area].all.flatMap { nodes.byOwnSet[scope + $0] ?? [] }
        return
            meeting
            .filter { isInside($0) && !DedupeStage.areApart(candidates[area], candidates[$0]) }
            .min { candidates[$0].spot.ref < candidates[$1].spot.ref }
    }

    /// Merges each place of `places` (positions, head first) into one candidate by `rule`: the
    /// survivor (`DedupeStage.merge`) takes the head's slot, with every member's word sets.
    mutating func merge(_ places: [[Int]], rule: DedupeStage.Rule, report: inout StageReport) {
        for place in places where place.count > 1 {
            let survivor = DedupeStage.merge(place.map { candidates[$0] }, rule: rule, report: &report)
            candidates[place[0]] = survivor
            for member in place.dropFirst() {
                wordSets[place[0]].formUnion(wordSets[member])
                removed[member] = true
            }
        }
    }

    /// The candidates left, one per place.
    consuming func remaining() -> [SpotCandidate] {
        var candidates = candidates
        let removed = removed
        candidates.retain { position, _ in !removed[position] }
        return candidates
    }
}
