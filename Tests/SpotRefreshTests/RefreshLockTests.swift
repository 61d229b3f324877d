import Foundation
import SpotTestSupport
import Testing

@testable import SpotRefresh

@Suite("Refresh lock")
struct RefreshLockTests {
    @Test("a second holder of the same output is refused, naming the first's pid, until the first lets go")
    func refusesSecondHolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("city.spots")
        var first: RefreshLock? = try RefreshLock(output: output)
        #expect(first?.path == folder.path(".city.spots.lock"))
        #expect {
            _ = try RefreshLock(output: output)
        } throws: { error in
            guard let error = error as? RefreshError else { return false }
            return error.kind == .locked && error.message.contains("pid \(ProcessInfo.processInfo.processIdentifier)")
        }
        first = nil
        _ = try RefreshLock(output: output)
    }

    @Test("outputs in one folder have locks of their own")
    func locksEachOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let city = try RefreshLock(output: folder.path("city.spots"))
        let region = try RefreshLock(output: folder.path("region.spots"))
        #expect(city.path != region.path)
    }
}
