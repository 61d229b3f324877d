import Foundation
import SpotOutput
import SpotTestSupport
import Testing

@Suite("AtomicOutput")
struct AtomicOutputTests {
    @Test("commit replaces the output; until then it holds what it held")
    func commitReplaces() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("out.bin")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let output = try AtomicOutput(path: path)
        try output.write(Array("new".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        try output.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.bin"])
    }

    @Test("an output that is discarded or dropped leaves nothing behind")
    func discardLeavesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("out.bin")
        do {
            let output = try AtomicOutput(path: path)
            try output.write(Array("partial".utf8))
        }
        let discarded = try AtomicOutput(path: path)
        discarded.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("stale temporaries of dead processes are removed; a live process's are kept")
    func removesStaleTemporaries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dead = folder.url.appendingPathComponent(".out.bin.tmp.2147483646")
        let live = folder.url.appendingPathComponent(".out.bin.tmp.1")  // init, always running
        for url in [dead, live] { try Data().write(to: url) }
        let output = try AtomicOutput(path: folder.path("out.bin"))
        output.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [".out.bin.tmp.1"])
    }

    @Test("a missing directory or a directory in the way cannot be created")
    func refusesUncreatable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect { try AtomicOutput(path: folder.url.path + "/missing/out.bin") } throws: {
            ($0 as! OutputError).kind == .cannotCreate
        }
        #expect { try AtomicOutput(path: folder.url.path) } throws: { ($0 as! OutputError).kind == .cannotCreate }
    }
}
