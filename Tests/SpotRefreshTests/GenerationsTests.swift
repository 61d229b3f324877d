import Foundation
import SpotTestSupport
import Testing

@testable import SpotRefresh

@Suite("Generations")
struct GenerationsTests {
    /// Publishes a file holding `text` as the current index of `generations`.
    func publish(_ text: String, _ generations: Generations, in folder: TemporaryFolder) throws {
        let file = try folder.write(text, to: "new.spots")
        try generations.publish(file)
    }

    @Test("publishing shifts each generation down one: the current index becomes NAME.1.spots")
    func rotates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generations = Generations(output: folder.path("city.spots"), keep: 3)
        for text in ["first", "second", "third"] { try publish(text, generations, in: folder) }
        #expect(folder.contents("city.spots") == "third")
        #expect(folder.contents("city.1.spots") == "second")
        #expect(folder.contents("city.2.spots") == "first")
        #expect(!FileManager.default.fileExists(atPath: folder.path("new.spots")))
    }

    @Test("only `keep` generations are kept, the current one included", arguments: [1, 2, 3])
    func keepsN(keep: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generations = Generations(output: folder.path("city.spots"), keep: keep)
        for text in ["first", "second", "third", "fourth"] { try publish(text, generations, in: folder) }
        let kept = (0..<keep).map { folder.contents($0 == 0 ? "city.spots" : "city.\($0).spots") }
        #expect(kept == ["fourth", "third", "second"].prefix(keep).map(Optional.some))
        #expect(folder.contents("city.\(keep).spots") == nil)
    }

    @Test("rollback makes generation 1 current, keeps the replaced index as NAME.rolledback.spots")
    func rollsBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generations = Generations(output: folder.path("city.spots"), keep: 3)
        for text in ["first", "second", "third"] { try publish(text, generations, in: folder) }
        try generations.rollback()
        #expect(folder.contents("city.spots") == "second")
        #expect(folder.contents("city.1.spots") == "first")
        #expect(folder.contents("city.2.spots") == nil)
        #expect(folder.contents("city.rolledback.spots") == "third")
    }

    @Test("rollback with no previous generation is refused and changes nothing")
    func refusesRollbackWithoutPrevious() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generations = Generations(output: folder.path("city.spots"), keep: 3)
        try publish("only", generations, in: folder)
        #expect {
            try generations.rollback()
        } throws: { error in
            (error as? RefreshError)?.kind == .nothingToRollBack
        }
        #expect(folder.contents("city.spots") == "only")
    }

    @Test("the side files are named after the output: rejected, rolled back, candidate")
    func namesSideFiles() {
        let generations = Generations(output: "/data/out/city.spots", keep: 3)
        #expect(generations.path(0) == "/data/out/city.spots" && generations.path(2) == "/data/out/city.2.spots")
        #expect(generations.rejected == "/data/out/city.rejected.spots")
        #expect(generations.rolledBack == "/data/out/city.rolledback.spots")
        #expect(generations.candidate == "/data/out/.city.candidate.spots")
    }
}
