import Foundation
import SpotTestSupport
import Testing

/// `spots update` on the samples and small change files written here (no ../shared needed):
/// every refusal with its exit code and a one-line message naming the file, the index and its
/// state left byte for byte as they were with no temporary file beside them; `-o`; the pair's
/// roll-forward after a crash; the summary line.
@Suite("spots update: refusals, outputs and the state pair")
struct UpdateFailureTests {
    /// A refusal: the files it needs written into the folder (which holds h.spots and h.state,
    /// built from the Himeji sample with --keep-state), the arguments after `update`, the exit
    /// status and what the one line on stderr says (its first part names the file).
    struct Refusal: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let status: Int32
        let says: [String]
        let prepare: @Sendable (TemporaryFolder) throws -> [String]

        init(
            _ description: String, _ status: Int32, _ says: [String],
            prepare: @escaping @Sendable (TemporaryFolder) throws -> [String]
        ) {
            testDescription = description
            self.status = status
            self.says = says
            self.prepare = prepare
        }
    }

    /// The index and the known change, written into `folder`.
    static func indexAndChange(_ folder: TemporaryFolder) throws -> [String] {
        [folder.path("h.spots"), try UpdateFiles.write(UpdateFiles.known, "c.osc", in: folder)]
    }

    static let refusals: [Refusal] = [
        Refusal("no state beside the index", 66, ["h.state: no state beside", "--keep-state"]) { folder in
            try FileManager.default.removeItem(atPath: folder.path("h.state"))
            return try indexAndChange(folder)
        },
        Refusal("the state of another build", 65, ["h.state: is not the state of"]) { folder in
            let other = try TemporaryFolder()
            defer { other.remove() }
            try UpdateFiles.build([UpdateFiles.osmiumFixture], other.path("h.spots"))
            try FileManager.default.removeItem(atPath: folder.path("h.state"))
            try FileManager.default.copyItem(atPath: other.path("h.state"), toPath: folder.path("h.state"))
            return try indexAndChange(folder)
        },
        Refusal("a truncated state", 65, ["h.state: not a spots state file (no trailer)"]) { folder in
            let state = try Data(contentsOf: folder.url.appendingPathComponent("h.state"))
            try state.prefix(state.count - 40).write(to: folder.url.appendingPathComponent("h.state"))
            return try indexAndChange(folder)
        },
        Refusal("an index built with --no-dedupe, updated without", 65, ["h.spots: was built with other"]) { folder in
            try UpdateFiles.build([himeji], folder.path("h.spots"), flags: ["--no-dedupe"])
            return try indexAndChange(folder)
        },
        Refusal("an index built without --no-areas, updated with", 65, ["h.spots: was built with other"]) { folder in
            try indexAndChange(folder) + ["--no-areas"]
        },
        Refusal("an index built without a pipeline file, updated with one", 65, ["h.spots: was built with"]) {
            folder in
            try indexAndChange(folder) + ["--pipeline", try folder.write(#"{"areas": false}"#, to: "p.json")]
        },
        Refusal("an OSM extract given as a change", 65, ["himeji-castle.osm: line 3", "not an osmChange"]) { folder in
            [folder.path("h.spots"), himeji]
        },
        Refusal("bytes that are not XML given as a change", 65, ["noise.osc: "]) { folder in
            // Fixed noise (a linear congruential sequence): the same bytes on every run.
            var seed: UInt32 = 12345
            let bytes = (0..<1000).map { _ in
                seed = seed &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: seed >> 16)
            }
            return [folder.path("h.spots"), try folder.write(bytes, to: "noise.osc")]
        },
        Refusal("a truncated gzip change", 65, ["cut.osc.gz: byte ", "gzip"]) { folder in
            let gzipped = try UpdateFiles.gzip(try UpdateFiles.write(UpdateFiles.known, "whole.osc", in: folder))
            let cut = try folder.write(Array(gzipped.prefix(gzipped.count / 2)), to: "cut.osc.gz")
            return [folder.path("h.spots"), cut]
        },
        Refusal("an unknown action block", 65, ["unknown-action.osc: line 6, column 3: ", "frobnicate"]) { folder in
            [folder.path("h.spots"), UpdateFiles.oscFixture("unknown-action.osc")]
        },
        Refusal("a change cut inside a block", 65, ["truncated.osc: line 6, column 1: no element found"]) { folder in
            [folder.path("h.spots"), UpdateFiles.oscFixture("truncated.osc")]
        },
        Refusal("a good change, then a bad one", 65, ["unknown-action.osc: line 6"]) { folder in
            try indexAndChange(folder) + [UpdateFiles.oscFixture("unknown-action.osc")]
        },
        Refusal("a change file that does not exist", 66, ["absent.osc: "]) { folder in
            [folder.path("h.spots"), folder.path("absent.osc")]
        },
    ]

    @Test("a refused update exits with its status, names the file and leaves the folder as it was", arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        try withTemporaryFolder { folder in
            try UpdateFiles.build([himeji], folder.path("h.spots"))
            let arguments = try refusal.prepare(folder)
            let before = try UpdateFiles.contents(of: folder)
            let run = try SpotsCLI.run(["update"] + arguments)
            #expect(run.status == refusal.status, "\(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("spots: /"), "\(run.stderr)")
            for part in refusal.says { #expect(run.stderr.contains(part), "\(run.stderr)") }
            #expect(
                try UpdateFiles.contents(of: folder) == before, "the folder changed: \((try? folder.names()) ?? [])")
        }
    }

    @Test("a byte flipped in any section of the state, at its middle or its end, is refused (65)")
    func damagedSections() throws {
        try withTemporaryFolder { folder in
            // The Helsinki sample: its records span several 4 KiB blocks.
            let index = folder.path("h.spots")
            try UpdateFiles.build([helsinki], index)
            let change = try UpdateFiles.write(UpdateFiles.empty, "empty.osc", in: folder)
            let statePath = folder.url.appendingPathComponent("h.state")
            let good = try Data(contentsOf: statePath)
            let sections = UpdateFiles.sections(ofState: good)
            // META, the overlay's node and way tables and the records with their lookups.
            #expect(sections.count >= 8 && sections.first?.name == "META", "\(sections.map(\.name))")
            for section in sections where section.length > 0 {
                for offset in Set([section.offset + section.length / 2, section.offset + section.length - 1]) {
                    var damaged = good
                    damaged[offset] ^= 0x20
                    try damaged.write(to: statePath)
                    let before = try UpdateFiles.contents(of: folder)
                    let run = try SpotsCLI.run(["update", index, change])
                    #expect(run.status == 65, "\(section.name) byte \(offset): \(run.stderr)")
                    let lines = run.stderr.split(separator: "\n")
                    #expect(lines.count == 1 && lines[0].contains("h.state: section \(section.name)"), "\(run.stderr)")
                    #expect(run.stderr.contains("checksum mismatch"), "\(section.name): \(run.stderr)")
                    #expect(
                        try UpdateFiles.contents(of: folder) == before,
                        "\(section.name): \((try? folder.names()) ?? [])")
                }
            }
        }
    }

    @Test("-o writes NEW.spots and NEW.state and leaves the index and its state untouched")
    func outputElsewhere() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let change = try UpdateFiles.write(UpdateFiles.known, "c.osc", in: folder)
            let before = try UpdateFiles.contents(of: folder)
            let run = try SpotsCLI.run(["update", index, change, "-o", folder.path("new.spots"), "-q"])
            try #require(run.status == 0, "\(run.stderr)")
            let after = try UpdateFiles.contents(of: folder)
            #expect(after["new.spots"] != nil && after["new.state"] != nil)
            #expect(after.filter { before[$0.key] != nil } == before, "the index or its state changed")
            #expect(try UpdateFiles.leftovers(in: folder).isEmpty)
            // The new pair is a pair: it updates again, and the old one still does too.
            let empty = try UpdateFiles.write(UpdateFiles.empty, "empty.osc", in: folder)
            #expect(try SpotsCLI.run(["update", folder.path("new.spots"), empty, "-q"]).status == 0)
            #expect(try SpotsCLI.run(["update", index, empty, "-q"]).status == 0)
            #expect(try SpotsCLI.run(["export", folder.path("new.spots")]).output.contains("Castle View Cafe"))
        }
    }

    @Test("-o to an existing file without -O exits 73 and changes nothing; with -O it is replaced")
    func outputExists() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let change = try UpdateFiles.write(UpdateFiles.known, "c.osc", in: folder)
            try folder.write("not an index", to: "new.spots")
            let before = try UpdateFiles.contents(of: folder)
            let refused = try SpotsCLI.run(["update", index, change, "-o", folder.path("new.spots")])
            #expect(refused.status == 73, "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("new.spots"))
            #expect(try UpdateFiles.contents(of: folder) == before)
            let replaced = try SpotsCLI.run(["update", index, change, "-o", folder.path("new.spots"), "-O", "-q"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(
                folder.contents("new.spots") != "not an index"
                    && FileManager.default.fileExists(atPath: folder.path("new.state")))
        }
    }

    @Test("usage errors exit 64: build --keep-state to stdout, update without a change file")
    func usage() throws {
        try withTemporaryFolder { folder in
            let toStdout = try SpotsCLI.run(["build", himeji, "-o", "-", "--keep-state"])
            #expect(toStdout.status == 64 && toStdout.stdout.isEmpty, "\(toStdout.stderr)")
            #expect(toStdout.stderr.hasPrefix("spots: --keep-state"), "\(toStdout.stderr)")
            #expect(try folder.names().isEmpty)
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let before = try UpdateFiles.contents(of: folder)
            let missing = try SpotsCLI.run(["update", index])
            #expect(missing.status == 64, "\(missing.stderr)")
            #expect(missing.stderr.hasPrefix("spots: missing <change>"), "\(missing.stderr)")
            #expect(try UpdateFiles.contents(of: folder) == before)
        }
    }

    @Test("after a crash between the index's commit and the state's rename, update rolls forward")
    func rollsForward() throws {
        try withTemporaryFolder { folder in
            // A's pair is published; B's build over it is cut after its index's commit: B's
            // state still waits as NAME.state.next, A's state and both bases are there.
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let saved = try TemporaryFolder()
            defer { saved.remove() }
            let manager = FileManager.default
            for name in ["h.state", "h.base-1.state"] {
                try manager.copyItem(atPath: folder.path(name), toPath: saved.path(name))
            }
            let rebuild = try SpotsCLI.run([
                "build", UpdateFiles.osmiumFixture, "-o", index, "-O", "--keep-state", "-q",
            ])
            try #require(rebuild.status == 0, "\(rebuild.stderr)")
            try #require(manager.fileExists(atPath: folder.path("h.base-2.state")))
            try manager.moveItem(atPath: folder.path("h.state"), toPath: folder.path("h.state.next"))
            for name in ["h.state", "h.base-1.state"] {
                try manager.copyItem(atPath: saved.path(name), toPath: folder.path(name))
            }
            let expected = try TemporaryFolder()
            defer { expected.remove() }
            try UpdateFiles.build([UpdateFiles.osmiumFixture], expected.path("h.spots"))
            let change = try UpdateFiles.write(UpdateFiles.known, "c.osc", in: folder)
            let run = try SpotsCLI.run(["update", index, change, "-q"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                try UpdateFiles.leftovers(in: folder).isEmpty && manager.fileExists(atPath: folder.path("h.state"))
                    && !manager.fileExists(atPath: folder.path("h.base-1.state")))
            // The same update of B's own pair gives the same index.
            let direct = try SpotsCLI.run(["update", expected.path("h.spots"), change, "-q"])
            try #require(direct.status == 0, "\(direct.stderr)")
            #expect(try UpdateFiles.export(index) == UpdateFiles.export(expected.path("h.spots")))
        }
    }

    @Test("a damaged base file is refused (65) where an update reads it; a missing one is named (66)")
    func damagedBase() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("h.spots")
            try UpdateFiles.build([helsinki], index)
            let change = try UpdateFiles.write(UpdateFiles.empty, "empty.osc", in: folder)
            let basePath = folder.url.appendingPathComponent("h.base-1.state")
            let good = try Data(contentsOf: basePath)
            // The tables every update reads whole: the runs and fences of the node and way tables.
            for section in UpdateFiles.sections(ofState: good) where ["NRUN", "NFEN", "WFEN"].contains(section.name) {
                var damaged = good
                damaged[section.offset + section.length / 2] ^= 0x20
                try damaged.write(to: basePath)
                let run = try SpotsCLI.run(["update", index, change])
                #expect(run.status == 65, "\(section.name): \(run.stderr)")
                #expect(
                    run.stderr.contains("h.base-1.state: section \(section.name): checksum mismatch"), "\(run.stderr)")
            }
            try FileManager.default.removeItem(at: basePath)
            let missing = try SpotsCLI.run(["update", index, change])
            #expect(missing.status == 66 && missing.stderr.contains("h.base-1.state"), "\(missing.stderr)")
        }
    }

    @Test("a stale NAME.state.next that pairs with nothing is ignored: the update uses NAME.state")
    func staleNextIgnored() throws {
        try withTemporaryFolder { folder in
            let other = try TemporaryFolder()
            defer { other.remove() }
            try UpdateFiles.build([UpdateFiles.osmiumFixture], other.path("h.spots"))
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            try FileManager.default.copyItem(atPath: other.path("h.state"), toPath: folder.path("h.state.next"))
            let change = try UpdateFiles.write(UpdateFiles.known, "c.osc", in: folder)
            let run = try SpotsCLI.run(["update", index, change])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("(1 added, 1 removed, 1 modified)"), "\(run.stderr)")
            #expect(
                try UpdateFiles.leftovers(in: folder).isEmpty
                    && FileManager.default.fileExists(atPath: folder.path("h.state")))
            let spots = try UpdateFiles.export(index)
            #expect(spots.contains("Castle View Cafe") && spots.contains("Shirasagi Coffee House"))
        }
    }

    @Test("an empty osmChange changes no spot")
    func emptyChange() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let before = try UpdateFiles.export(index)
            let change = try UpdateFiles.write(UpdateFiles.empty, "empty.osc", in: folder)
            let run = try SpotsCLI.run(["update", index, change])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stderr.contains("(no spot changed)") && run.stderr.contains("(0 created, 0 modified, 0 deleted)"))
            #expect(try UpdateFiles.export(index) == before)
        }
    }

    @Test("the summary line counts a created cafe, a renamed place and a deleted one")
    func summary() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let change = try UpdateFiles.write(UpdateFiles.known, "c.osc", in: folder)
            let run = try SpotsCLI.run(["update", index, change])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(run.stderr)")
            let line = String(lines.first ?? "")
            #expect(line.hasPrefix("spots: updated \(index): 9 spots (1 added, 1 removed, 1 modified), "), "\(line)")
            #expect(line.contains(" from c.osc (1 created, 1 modified, 1 deleted), in "), "\(line)")
            let spots = try UpdateFiles.export(index)
            #expect(spots.contains("Castle View Cafe") && spots.contains("Shirasagi Coffee House"))
            #expect(!spots.contains("喫茶 白鷺") && !spots.contains("Ramen Tenshu"))
            // Applied again, every version is old: nothing changes, and the skips are counted.
            let again = try SpotsCLI.run(["update", index, change])
            #expect(again.status == 0 && again.stderr.contains("(no spot changed)"), "\(again.stderr)")
            #expect(again.stderr.contains("2 older versions skipped"), "\(again.stderr)")
            #expect(try UpdateFiles.export(index) == spots)
        }
    }
}
