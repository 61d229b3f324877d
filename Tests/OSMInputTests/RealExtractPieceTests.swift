import Foundation
import Testing

@testable import OSMInput

/// ../shared/data, found from this file.
let sharedData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
/// The extracts there.
let sharedExtracts = ((try? FileManager.default.contentsOfDirectory(atPath: sharedData.path)) ?? [])
    .filter { $0.hasSuffix(".osm.gz") || $0.hasSuffix(".osm") }.sorted()

@Suite(
    "Real extracts in pieces",
    .enabled(if: !sharedExtracts.isEmpty, "../shared/data is absent: real-data tests skipped"))
struct RealExtractPieceTests {
    @Test("an extract reads the same in pieces on several threads, most pieces parsed apart", arguments: sharedExtracts)
    func readsTheSame(_ name: String) throws {
        let path = sharedData.appendingPathComponent(name).path
        // Every element with small pieces; what a build keeps with the default pieces.
        let everything: [(threads: Int, pieceSize: Int)] = [(4, 16 << 10), (3, 4096), (1, 4096)]
        let build: [(threads: Int, pieceSize: Int)] = [(2, OSMReader.defaultPieceSize)]
        let plan: [(filter: OSMElementFilter, runs: [(threads: Int, pieceSize: Int)])] = [
            (allTypes, everything), (poiNodes, build), (areaElements, build),
        ]
        for (filter, runs) in plan {
            let reference = readOutcome(path, threads: 1, filter: filter, expatAlone: true)
            #expect(reference.error == nil && reference.summary.parallelPieces == 0)
            #expect(reference.summary.nodes > 1000)
            for (threads, pieceSize) in runs {
                let outcome = readOutcome(path, threads: threads, pieceSize: pieceSize, filter: filter)
                let same = outcome.matches(reference)
                #expect(same, "\(threads) threads, pieces of \(pieceSize): \(outcome.difference(from: reference))")
                // Every element larger than a piece makes two or three pieces sequential.
                let summary = outcome.summary
                if pieceSize < 1 << 20 {
                    let factor = pieceSize > 8192 ? 2 : 1
                    #expect(summary.parallelPieces > factor * summary.sequentialPieces, "\(summary)")
                }
            }
        }
    }
}
