import Foundation
import SpotTestSupport
import Testing

/// `spots serve` follows an index updated in place by `spots update`, answering every request
/// while the pair is published.
@Suite("spots serve follows spots update")
struct UpdateServeTests {
    @Test("a renamed place is served under its new name after an update in place; no request fails meanwhile")
    func servesTheUpdate() throws {
        try withTemporaryFolder { folder in
            let index = folder.path("h.spots")
            try UpdateFiles.build([himeji], index)
            let server = try ServeProcess(index: index)
            defer { server.stop() }
            let target = "/v1/spots/n3010000014"
            let first = try server.get(target)
            try #require(first.status == 200, "\(first.text)")
            #expect(Self.name(first) == "喫茶 白鷺")

            // Requests in a loop on another thread, bounded in count and time, until told to stop.
            let port = server.port
            let log = RequestLog()
            let done = DispatchSemaphore(value: 0)
            Thread {
                let deadline = Date().addingTimeInterval(15)
                var count = 0
                while !log.stopped, count < 2000, Date() < deadline {
                    count += 1
                    do {
                        let answer = try LoopbackHTTP.request(port: port, "GET", target, timeout: 5)
                        let name = Self.name(answer)
                        if answer.status != 200 || (name != "喫茶 白鷺" && name != "Shirasagi Coffee House") {
                            log.fail("\(answer.status): \(answer.text)")
                        } else {
                            log.succeed()
                        }
                    } catch {
                        log.fail("\(error)")
                    }
                }
                done.signal()
            }.start()

            let change = try UpdateFiles.write(UpdateFiles.known, "c.osc", in: folder)
            let update = try SpotsCLI.run(["update", index, change, "-q"])
            #expect(update.status == 0, "\(update.stderr)")
            let renamed = try server.wait(for: target, seconds: 10) { Self.name($0) == "Shirasagi Coffee House" }
            #expect(renamed, "the server still answers the old name 10 s after the update")
            #expect(try server.get("/healthz").text.contains("\"generation\":2"))
            #expect(try server.get("/v1/spots/n3010000016").status == 404, "the deleted restaurant is still served")
            #expect(try server.get("/v1/spots/n3010000099").status == 200, "the created cafe is not served")
            log.stop()
            #expect(done.wait(timeout: .now() + 20) == .success)
            #expect(log.failures.isEmpty, "failed requests during the update: \(log.failures.prefix(3))")
            #expect(log.successes > 0)
            #expect(server.stop() == 0)
            #expect(server.log.contains("reloaded"), "\(server.log)")
        }
    }

    /// The `name` of a spot's answer.
    static func name(_ answer: LoopbackHTTP.Response) -> String? {
        (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["name"] as? String
    }
}

/// What the request loop saw, shared with the test's thread.
final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var failed: [String] = []
    private var succeeded = 0
    private var isStopped = false
    func fail(_ message: String) { lock.withLock { failed.append(message) } }
    func succeed() { lock.withLock { succeeded += 1 } }
    func stop() { lock.withLock { isStopped = true } }
    var stopped: Bool { lock.withLock { isStopped } }
    var failures: [String] { lock.withLock { failed } }
    var successes: Int { lock.withLock { succeeded } }
}
