import Foundation
import Testing

@testable import SpotPipeline
@testable import Spots

/// ../shared/data's extracts, found from this file; absent on a user's machine.
private let extractFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
private let extracts = ((try? FileManager.default.contentsOfDirectory(atPath: extractFolder.path)) ?? [])
    .filter { $0.hasSuffix(".osm.gz") }.sorted()

/// The candidates of `path` as the dedupe stage gets them, and the stage the build runs.
private func candidatesBeforeDedupe(_ path: String) throws -> (candidates: [SpotCandidate], stage: DedupeStage) {
    var pipeline = try Pipeline.defaults()
    pipeline.inputs = [path]
    let build = SpotBuild(pipeline: pipeline)
    var read = try build.readInputs()
    var candidates = read.takeCandidates()
    let stages = build.stages
    let dedupe = try #require(stages.compactMap { $0 as? DedupeStage }.first)
    for stage in stages.prefix(while: { !($0 is DedupeStage) }) { _ = stage.run(&candidates) }
    return (candidates, dedupe)
}

/// What deduplicating originals with copies added found: twins merged with their originals,
/// and merges that join what is not one place.
private struct TwinOutcome {
    var twins = 0, found = 0, falseMerges = 0

    /// Adds `other`'s counts.
    mutating func add(_ other: TwinOutcome) {
        twins += other.twins
        found += other.found
        falseMerges += other.falseMerges
    }
}

extension TwinOutcome {
    /// `stage` over `originals` and `copies`; `twins` says whether copies are twins (to be merged
    /// with their originals) or controls (to stay apart). Two originals that the stage merges on
    /// their own are one place.
    init(_ stage: DedupeStage, originals: [SpotCandidate], copies: [TwinPlaces.Copy], twins: Bool) {
        let place = Self.places(stage, originals)
        let originalOfCopy = Dictionary(uniqueKeysWithValues: copies.map { ($0.candidate.spot.ref, $0.original) })
        let (spots, _) = stage.output(for: originals + copies.map(\.candidate))
        self.twins = twins ? copies.count : 0
        for spot in spots {
            let refs = [spot.spot.ref] + spot.spot.merged
            let copiesHere = refs.filter { originalOfCopy[$0] != nil }
            let originalPlaces = Set(refs.compactMap { place[originalOfCopy[$0] ?? $0] })
            if originalPlaces.count > 1 || (!twins && !copiesHere.isEmpty && refs.count > 1) {
                falseMerges += 1
            } else if twins {
                found +=
                    copiesHere.filter { copy in refs.contains { place[$0] == place[originalOfCopy[copy]!] } }
                    .count
            }
        }
    }

    /// For each original's reference, the reference of the spot it ends in on its own.
    private static func places(_ stage: DedupeStage, _ originals: [SpotCandidate]) -> [OSMRef: OSMRef] {
        var place: [OSMRef: OSMRef] = [:]
        for spot in stage.output(for: originals).candidates.map(\.spot) {
            for ref in [spot.ref] + spot.merged { place[ref] = spot.ref }
        }
        return place
    }
}

@Suite(
    "Deduplication of twins made from real extracts",
    .enabled(if: !extracts.isEmpty, "../shared/data is absent: the twin tests are skipped"))
struct DedupeTwinTests {
    @Test("twins are merged with their originals (recall at least 0.9); branches and other categories are not")
    func twinsOfRealSpots() throws {
        var totals: [TwinPlaces.Kind: TwinOutcome] = [:]
        var controls = TwinOutcome()
        for extract in extracts {
            let (originals, stage) = try candidatesBeforeDedupe(extractFolder.appendingPathComponent(extract).path)
            var twins = TwinPlaces(originals: originals, names: stage.names)
            let named = twins.isolated
            for kind in TwinPlaces.Kind.allCases {
                let copies = named.compactMap { twins.twin(of: $0, kind: kind) }
                totals[kind, default: TwinOutcome()].add(
                    TwinOutcome(stage, originals: originals, copies: copies, twins: true))
            }
            let branches = named.map { twins.branch(of: $0) }
            controls.add(TwinOutcome(stage, originals: originals, copies: branches, twins: false))
            let others = named.map { twins.otherCategory(of: $0) }
            controls.add(TwinOutcome(stage, originals: originals, copies: others, twins: false))
        }
        var found = 0
        var made = 0
        for kind in TwinPlaces.Kind.allCases {
            let outcome = totals[kind]!
            print("twins, \(kind.rawValue): \(outcome.found) of \(outcome.twins) merged, \(outcome.falseMerges) false")
            #expect(outcome.falseMerges == 0, "\(kind.rawValue)")
            found += outcome.found
            made += outcome.twins
        }
        print("twins: recall \(Double(found) / Double(made)); controls: \(controls.falseMerges) merged")
        #expect(made > 1000)
        #expect(Double(found) >= 0.9 * Double(made))
        #expect(controls.falseMerges == 0)
    }
}
