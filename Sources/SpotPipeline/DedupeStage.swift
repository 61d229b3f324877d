import Foundation
import SpotText
import Spots

/// Merges spots that are one place, by the rules that docs/build.md states for users under
/// "Deduplication", one pass each, in this order:
///
/// 1. `node_in_area`: an area folds into the first node inside it of its category that has its
///    name, or else of its selecting tag too whose word sets meet its own
///    (`DedupeState.foldAreas`);
/// 2. `exact_name`: same-category spots of one normalized `name` within the category's
///    distance of their group's head (`places`, `merge`);
/// 3. `word_set`: the places left, of one category and selecting tag, within the distance of
///    their group's head, whose word sets meet (`DedupeNames`, `WordSets.meet`) and that no
///    Wikidata item or house number tells apart (`areApart`).
///
/// Address points take no part: one is never folded into a place, nor a place into one.
///
/// Each pass merges as it goes, so a later one compares the places the earlier ones made:
/// what the exact rule merged stays merged, and a place's word sets are its members'. A grid
/// with cells one distance wide finds the group heads near a spot (`HeadGrid`), and names are
/// compared by hashing, so the stage runs in near-linear time.
struct DedupeStage: Stage {
    let name = "dedupe"
    let settings: DedupeSettings
    /// How names are compared: the generic words of each category and tag.
    let names: DedupeNames

    /// The rules by which spots merge, as the report counts the merges.
    enum Rule: String {
        case nodeInArea = "node_in_area"
        case exactName = "exact_name"
        case wordSet = "word_set"
    }

    /// Leaves one candidate for each place of `candidates`, in no particular order (the collect
    /// stage sorts). The passes merge in place (`DedupeState`), so that no second array of all
    /// candidates is made.
    func run(_ candidates: inout [SpotCandidate], report: inout StageReport) {
        guard settings.enabled else { return }
        let addressPoints = candidates.filter { $0.spot.resultType == .address }
        if !addressPoints.isEmpty { candidates.removeAll { $0.spot.resultType == .address } }
        var state = DedupeState(candidates: candidates, names: names)
        candidates = []  // the state holds them while it merges
        state.foldAreas(report: &report)
        let byName = groups(of: state.remainingPositions().filter { state.exactKeys[$0] != nil }) {
            state.categoryKey($0) + "\u{0}" + state.exactKeys[$0]!
        }
        for members in byName where members.count > 1 {
            state.merge(places(members, in: state) { _, _ in true }, rule: .exactName, report: &report)
        }
        let byTag = groups(
            of: state.remainingPositions().filter { !state.wordSets[$0].isEmpty }, by: state.wordSetScope)
        for members in byTag where members.count > 1 {
            let places = places(members, in: state) { head, member in
                // Places of one name were made, or kept apart, by the exact rule.
                let sameName = state.exactKeys[head] != nil && state.exactKeys[head] == state.exactKeys[member]
                return !sameName && state.wordSets[head].meet(state.wordSets[member])
                    && !Self.areApart(state.candidates[head], state.candidates[member])
            }
            state.merge(places, rule: .wordSet, report: &report)
        }
        candidates = state.remaining() + addressPoints
    }

    /// `positions` (in order) grouped by `key`, each group in order; the groups in the order of
    /// their first members.
    private func groups(of positions: [Int], by key: (Int) -> String) -> [[Int]] {
        var groups: [String: Int] = [:]
        var members: [[Int]] = []
        for position in positions {
            let group = key(position)
            if let index = groups[group] {
                members[index].append(position)
            } else {
                groups[group] = members.count
                members.append([position])
            }
        }
        return members
    }

    /// The places of `members` (of one category, in order) within the category's distance.
    private func places(_ members: [Int], in state: DedupeState, joins: (_ head: Int, _ member: Int) -> Bool) -> [[Int]]
    {
        let radius = settings.radius(for: state.candidates[members[0]].spot.category)
        return Self.places(members, at: { state.candidates[$0].spot.coordinate }, radius: radius, joins: joins)
    }

    /// Whether two spots are told apart by what they carry, whatever their names: different
    /// `wikidata` or `brand:wikidata` items, or different house numbers.
    static func areApart(_ one: SpotCandidate, _ other: SpotCandidate) -> Bool {
        func differ(_ a: String?, _ b: String?) -> Bool { a != nil && b != nil && a != b }
        return differ(one.spot.details[.wikidata], other.spot.details[.wikidata])
            || differ(one.context["brand:wikidata"], other.context["brand:wikidata"])
            || differ(
                one.spot.address["housenumber"].map(NameKey.normalize),
                other.spot.address["housenumber"].map(NameKey.normalize))
    }

    /// Splits `members` (positions, in order) into places: each member joins the first head
    /// within `radius` that `joins` accepts, or becomes a head.
    static func places(
        _ members: [Int], at coordinate: (Int) -> Coordinate, radius: Double,
        joins: (_ head: Int, _ member: Int) -> Bool
    ) -> [[Int]] {
        guard members.count > 1 else { return [members] }
        var grid = HeadGrid(radius: radius, maxAbsoluteLatitude: members.map { abs(coordinate($0).latitude) }.max()!)
        var groups: [[Int]] = []
        for member in members {
            let point = coordinate(member)
            let head = grid.firstHead(near: point) {
                coordinate(groups[$0][0]).distance(to: point) <= radius && joins(groups[$0][0], member)
            }
            if let head {
                groups[head].append(member)
            } else {
                grid.insert(groups.count, at: point)
                groups.append([member])
            }
        }
        return groups
    }

    /// One candidate for a place: the richest survives, filled from the rest.
    static func merge(_ place: [SpotCandidate], rule: Rule, report: inout StageReport) -> SpotCandidate {
        guard place.count > 1 else { return place[0] }
        var richest = 0
        for position in place.indices.dropFirst()
        where place[position].spot.attributeTags.count > place[richest].spot.attributeTags.count {
            richest = position
        }
        var survivor = place[richest]
        for (position, other) in place.enumerated() where position != richest {
            fold(other, into: &survivor, rule: rule, report: &report)
        }
        return survivor
    }

    /// Merges `other` into `survivor` by `rule`: its attributes and context fill the missing
    /// ones (and its wikipedia flag), its reference (and what was merged into it) joins `merged`.
    static func fold(_ other: SpotCandidate, into survivor: inout SpotCandidate, rule: Rule, report: inout StageReport)
    {
        report.drop(rule.rawValue)
        for (key, value) in other.spot.attributeTags
        where !survivor.spot.attributeTags.contains(where: { $0.key == key }) {
            survivor.spot.setAttribute(key: key, value: value)
        }
        survivor.spot.merged = (survivor.spot.merged + [other.spot.ref] + other.spot.merged).sorted()
        survivor.spot.hasWikipedia = survivor.spot.hasWikipedia || other.spot.hasWikipedia
        survivor.context.merge(other.context) { own, _ in own }
    }
}

/// Group heads by grid cell: cells one distance tall, and wide enough in longitude at the
/// group's highest latitude; a spot's candidates are the heads in its cell and the eight around
/// it (columns wrap at the antimeridian).
struct HeadGrid {
    private let cellLatitude: Double
    private let cellLongitude: Double
    private let columns: Int
    private var cells: [Int: [Int]] = [:]

    init(radius: Double, maxAbsoluteLatitude: Double) {
        let metresPerDegree = Coordinate.earthRadius * Double.pi / 180
        cellLatitude = max(radius, 0.01) / metresPerDegree
        let widest = min(90, maxAbsoluteLatitude + cellLatitude) * Double.pi / 180
        cellLongitude = min(360, cellLatitude / max(cos(widest), 1e-9))
        columns = Int((360 / cellLongitude).rounded(.up))
    }

    mutating func insert(_ head: Int, at coordinate: Coordinate) {
        cells[key(row(coordinate), column(coordinate)), default: []].append(head)
    }

    /// The first head (the smallest number) in the cells around `coordinate` that `accepts`.
    func firstHead(near coordinate: Coordinate, where accepts: (Int) -> Bool) -> Int? {
        let row = row(coordinate)
        let column = column(coordinate)
        var first: Int?
        for dRow in -1...1 {
            // With fewer than three columns a cell is met twice, which changes no minimum.
            for dColumn in -1...1 {
                let neighbour = (column + dColumn + columns) % columns
                for head in cells[key(row + dRow, neighbour)] ?? [] where head < first ?? .max && accepts(head) {
                    first = head
                }
            }
        }
        return first
    }

    private func row(_ coordinate: Coordinate) -> Int {
        Int(((coordinate.latitude + 90) / cellLatitude).rounded(.down))
    }
    private func column(_ coordinate: Coordinate) -> Int {
        Int(((coordinate.longitude + 180) / cellLongitude).rounded(.down)) % columns
    }
    private func key(_ row: Int, _ column: Int) -> Int { row * (columns + 1) + column }
}
