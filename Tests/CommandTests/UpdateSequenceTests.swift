import Foundation
import SpotTestSupport
import Testing

/// The replication sequence an update records: a change file laid out as replication servers lay
/// it out (NNN.osc beside NNN.state.txt) gives it, and `spots inspect` shows it with the state.
@Suite("spots update records the replication sequence")
struct UpdateSequenceTests {
    @Test("a change beside its NNN.state.txt records its sequenceNumber; inspect shows the state")
    func sequenceRecorded() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let before = try SpotsCLI.run(["inspect", index])
            #expect(
                before.output.contains(
                    "state             \(folder.path("h.state")) (base h.base-1.state, overlay 0 nodes"),
                "\(before.output)")
            try FileManager.default.createDirectory(
                atPath: folder.path("changes/000/004"), withIntermediateDirectories: true)
            let change = try UpdateFiles.write(UpdateFiles.known, "changes/000/004/321.osc", in: folder)
            try folder.write(
                "#Sat Dec 05 20:21:03 UTC 2026\nsequenceNumber=4321\n", to: "changes/000/004/321.state.txt")
            let run = try SpotsCLI.run(["update", index, change, "-q"])
            try #require(run.status == 0, "\(run.stderr)")
            let after = try SpotsCLI.run(["inspect", index])
            // The tiny sample's change outgrows an eighth of its base: compacted into base 2.
            #expect(after.output.contains("(base h.base-2.state, sequence 4321, overlay 0 nodes"), "\(after.output)")
        }
    }
}
