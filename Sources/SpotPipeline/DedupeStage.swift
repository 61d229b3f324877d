import Foundation
import Spots

/// Merges spots that are one place, by the rule that README.md states for users under
/// "Deduplication"; each function below does one step of it (`foldAreas`, `places`, `merge`).
/// A grid with cells one distance wide finds the group heads near a spot (`HeadGrid`), so the
/// stage runs in near-linear time.
struct DedupeStage: Stage {
    let name = "dedupe"
    let settings: DedupeSettings

    /// Leaves one candidate for each place of `candidates`, in no particular order (the collect
    /// stage sorts). The candidates of a group of same-name spots are replaced in place by its
    /// places, and the slots left over are removed, so that no second array of all candidates is
    /// made.
    func run(_ candidates: inout [SpotCandidate], report: inout StageReport) {
        guard settings.enabled else { return }
        let order = candidates.indices.sorted { candidates[$0].spot.ref < candidates[$1].spot.ref }
        var groups: [String: [Int]] = [:]
        for index in order {
            let spot = candidates[index].spot
            guard let key = spot.name.map(NameKey.normalize), !key.isEmpty else { continue }
            groups[(spot.category?.rawValue ?? spot.tag) + "\u{0}" + key, default: []].append(index)
        }
        var removed = [Bool](repeating: false, count: candidates.count)
        for members in groups.values where members.count > 1 {
            let radius = settings.radius(for: candidates[members[0]].spot.category)
            let group = Self.foldAreas(members.map { candidates[$0] }, report: &report)
            let places = Self.places(group, radius: radius).map { Self.merge($0, report: &report) }
            for (position, member) in members.enumerated() {
                if position < places.count { candidates[member] = places[position] } else { removed[member] = true }
            }
        }
        candidates.retain { position, _ in !removed[position] }
    }

    /// Splits same-name candidates (in order) into places: greedy groups around their heads.
    static func places(_ candidates: [SpotCandidate], radius: Double) -> [[SpotCandidate]] {
        guard candidates.count > 1 else { return [candidates] }
        var grid = HeadGrid(
            radius: radius, maxAbsoluteLatitude: candidates.map { abs($0.spot.coordinate.latitude) }.max()!)
        var groups: [[SpotCandidate]] = []
        for candidate in candidates {
            let coordinate = candidate.spot.coordinate
            let head = grid.heads(near: coordinate)
                .filter { groups[$0][0].spot.coordinate.distance(to: coordinate) <= radius }
                .min()
            if let head {
                groups[head].append(candidate)
            } else {
                grid.insert(groups.count, at: coordinate)
                groups.append([candidate])
            }
        }
        return groups
    }

    /// Same-name candidates (in order, so nodes first) with each area that holds a node folded into
    /// the first such node.
    static func foldAreas(_ candidates: [SpotCandidate], report: inout StageReport) -> [SpotCandidate] {
        var kept = candidates
        var folded = IndexSet()
        for (position, candidate) in candidates.enumerated() {
            guard let area = candidate.area,
                let node = kept.indices.first(where: {
                    kept[$0].spot.ref.type == .node && area.contains(kept[$0].spot.coordinate)
                })
            else { continue }
            fold(candidate, into: &kept[node], report: &report)
            folded.insert(position)
        }
        return kept.enumerated().filter { !folded.contains($0.offset) }.map(\.element)
    }

    /// One candidate for a place: the richest survives, filled from the rest.
    static func merge(_ place: [SpotCandidate], report: inout StageReport) -> SpotCandidate {
        guard place.count > 1 else { return place[0] }
        var richest = 0
        for position in place.indices.dropFirst()
        where place[position].spot.attributeTags.count > place[richest].spot.attributeTags.count {
            richest = position
        }
        var survivor = place[richest]
        for (position, other) in place.enumerated() where position != richest {
            fold(other, into: &survivor, report: &report)
        }
        return survivor
    }

    /// Merges `other` into `survivor`: its attributes fill the missing ones (and its wikipedia
    /// flag), its reference (and what was merged into it) joins `merged`.
    static func fold(_ other: SpotCandidate, into survivor: inout SpotCandidate, report: inout StageReport) {
        report.drop("duplicates_merged")
        for (key, value) in other.spot.attributeTags
        where !survivor.spot.attributeTags.contains(where: { $0.key == key }) {
            survivor.spot.setAttribute(key: key, value: value)
        }
        survivor.spot.merged = (survivor.spot.merged + [other.spot.ref] + other.spot.merged).sorted()
        survivor.spot.hasWikipedia = survivor.spot.hasWikipedia || other.spot.hasWikipedia
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

    func heads(near coordinate: Coordinate) -> [Int] {
        let row = row(coordinate)
        let column = column(coordinate)
        var found: [Int] = []
        for dRow in -1...1 {
            for wrapped in Set([-1, 0, 1].map { ((column + $0) % columns + columns) % columns }) {
                found += cells[key(row + dRow, wrapped)] ?? []
            }
        }
        return found
    }

    private func row(_ coordinate: Coordinate) -> Int {
        Int(((coordinate.latitude + 90) / cellLatitude).rounded(.down))
    }
    private func column(_ coordinate: Coordinate) -> Int {
        Int(((coordinate.longitude + 180) / cellLongitude).rounded(.down)) % columns
    }
    private func key(_ row: Int, _ column: Int) -> Int { row * (columns + 1) + column }
}
