import Foundation
import SpotCluster
import SpotIndex
import SpotTestSupport
import Spots
import Testing

@Suite("Damaged cluster levels")
struct ClusterDamageTests {
    /// A small clustered index: 80 spots in two towns of 40, so that there are clusters above
    /// and below the detail threshold, several zooms' trees and blocks of CDET and CMEM.
    static let fixture = clusteredIndex(
        townSpots(80, seed: 21).enumerated().map { position, spot in
            var spot = spot
            spot.coordinate = Coordinate(
                latitudeE7: 601_700_000 + Int32(position % 40) * 2_000,
                longitudeE7: (position < 40 ? 1 : -1) * 249_400_000 + Int32(position % 7) * 3_000)!
            spot.address = [:]
            spot.names = [:]
            return spot
        })

    /// Reads everything the cluster levels offer; returns the sections named by the errors
    /// thrown. Any other error, or a crash, fails the test.
    static func exercise(_ reader: SpotIndexReader) -> [String] {
        var failures: [String] = []
        func attempt(_ body: () throws -> Void) {
            do {
                try body()
            } catch let error as IndexError {
                #expect(error.kind == .corrupt)
                failures.append(error.section ?? "-")
            } catch {
                Issue.record("\(error) is not an IndexError")
            }
        }
        guard let levels = reader.clusterLevels else { return ["no levels"] }
        for id in 0..<levels.count {
            attempt { _ = try levels.coordinate(ofCluster: id) }
            attempt { _ = try levels.visibleFrom(cluster: id) }
            attempt { _ = try reader.cluster(id) }
            attempt { _ = try reader.leaves(ofCluster: id, limit: .max, offset: 0) }
            attempt { _ = try reader.children(ofCluster: id) }
        }
        for zoom in 0...levels.settings.maxZoom + 1 {
            attempt { _ = try reader.shown(atZoom: zoom) }
        }
        for spot in 0..<reader.count { attempt { _ = try levels.visibleFrom(spot: spot) } }
        return failures
    }

    @Test("the fixture opens and reads cleanly")
    func fixtureIsValid() throws {
        try withTemporaryFile(Self.fixture) { path in
            let reader = try SpotIndexReader(path: path)
            #expect(Self.exercise(reader).isEmpty)
            let levels = try #require(reader.clusterLevels)
            #expect((0..<levels.count).contains { (try? reader.cluster($0).count) ?? 0 > 32 })
            #expect(levels.memberCount > 64)
        }
    }

    @Test(
        "flipping bytes of a cluster section, with its checksum recomputed, never crashes: open or each read fails with IndexError naming a section, or succeeds",
        arguments: ["CLUS", "CTRE", "CDET", "CMEM", "SVIS"])
    func resealedFlips(name: String) throws {
        var caught = 0
        try withScratchFile { write in
            for position in Self.fixture.section(name).range {
                for mask: UInt8 in [0x01, 0xFF] {
                    var bytes = Self.fixture
                    bytes[position] ^= mask
                    bytes.resealSection(name)
                    let path = try write(bytes)
                    do throws(IndexError) {
                        let failures = Self.exercise(try SpotIndexReader(path: path))
                        #expect(
                            failures.allSatisfy { ["CLUS", "CDET", "CMEM", "SVIS", "SPOT"].contains($0) }, "\(failures)"
                        )
                        caught += failures.isEmpty ? 0 : 1
                    } catch {
                        // Damage to one section may show as a mismatch with another (a count in CLUS, a length of CTRE).
                        #expect(
                            error.kind == .corrupt
                                && ["CLUS", "CTRE", "CDET", "CMEM", "SVIS"].contains(error.section ?? ""), "\(error)")
                        caught += 1
                    }
                }
            }
        }
        #expect(caught > 0)
    }

    /// The fixture with `value` stored at `offset` of section `name`, resealed.
    static func patched<T: FixedWidthInteger>(_ name: String, at offset: Int, _ value: T) -> [UInt8] {
        var bytes = fixture
        bytes.store(value, at: fixture.section(name).offset + offset)
        bytes.resealSection(name)
        return bytes
    }

    @Test("out-of-range header values are refused on open, naming the section")
    func hostileHeaders() throws {
        let clus = Self.fixture.contents(of: "CLUS")
        let namesStart = 32 + 4 * 18
        let cases: [(bytes: [UInt8], section: String)] = [
            (Self.patched("CLUS", at: 0, UInt32(25)), "CLUS"),  // max zoom
            (Self.patched("CLUS", at: 4, UInt32.max), "CLUS"),  // cluster count
            (Self.patched("CLUS", at: 8, UInt32(1_000)), "CLUS"),  // more members than spots
            (Self.patched("CLUS", at: 16, Double.nan.bitPattern), "CLUS"),  // radius
            (Self.patched("CLUS", at: 24, Double(0).bitPattern), "CLUS"),  // extent
            (Self.patched("CLUS", at: 32, UInt32(1)), "CLUS"),  // zoom starts not from 0
            (Self.patched("CLUS", at: 32 + 4 * 5, UInt32.max), "CLUS"),  // zoom starts not ascending
            (Self.patched("CLUS", at: namesStart, UInt32(clus.count)), "CLUS"),  // names past the end
            (Self.patched("CLUS", at: namesStart + 4, UInt8(ascii: "Z")), "CLUS"),  // an unknown category
            (Self.patched("CTRE", at: 0, UInt32(1)), "CTRE"),  // node size
            (Self.patched("CTRE", at: 4, UInt32(1)), "CTRE"),  // reserved
            (Self.patched("CDET", at: 0, UInt32(0)), "CDET"),  // block size
            (Self.patched("CMEM", at: 0, UInt32(0)), "CMEM"),  // block size
        ]
        for (number, (bytes, section)) in cases.enumerated() {
            let error = try openingError(bytes)
            #expect(
                error?.kind == .corrupt && error?.section == section, "case \(number): \(String(describing: error))")
        }
        let raw = RawIndex(Self.fixture)
        for name in ["CTRE", "SVIS"] {
            let error = try openingError(raw.replacing(name, with: raw.contents(name) + [0, 0, 0, 0, 0, 0, 0, 0]))
            #expect(error?.section == name, "a longer \(name)")
        }
        let withoutOne = RawIndex.assemble(raw.sectionContents.filter { $0.name != "CMEM" })
        #expect(try openingError(withoutOne)?.description.contains("cluster section CMEM is missing") == true)
        let withoutAll = RawIndex.assemble(
            raw.sectionContents.filter { !["CLUS", "CTRE", "CDET", "CMEM", "SVIS"].contains($0.name) })
        #expect(try openingError(withoutAll) == nil)
    }

    @Test("out-of-range values read later throw IndexError naming their section")
    func hostileValues() throws {
        let raw = RawIndex(Self.fixture)
        let clus = raw.contents("CLUS")
        let count = Int(clus.load(UInt32.self, at: 4))
        let pointsStart = clus.count - 9 * count
        let cases: [(bytes: [UInt8], section: String)] = [
            (Self.patched("CLUS", at: pointsStart, Int32.max), "CLUS"),  // a cluster's latitude
            (Self.patched("CLUS", at: clus.count - 1, UInt8(200)), "CLUS"),  // shown from above its zoom
            (Self.patched("CDET", at: 4, UInt32.max), "CDET"),  // a block offset past the entries
            (Self.patched("CMEM", at: 4, UInt32.max), "CMEM"),  // a block offset past the entries
            // a spot shown from above the maximum zoom + 1
            (Self.patched("SVIS", at: raw.spots.count - 1, UInt8(18)), "SVIS"),
        ]
        for (bytes, section) in cases {
            try withTemporaryFile(bytes) { path in
                let failures = Self.exercise(try SpotIndexReader(path: path))
                #expect(failures.contains(section), "\(section): \(failures)")
            }
        }
    }
}
