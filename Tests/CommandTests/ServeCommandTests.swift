import Foundation
import SpotTestSupport
import Testing

/// A `spots serve` process on a free loopback port, stopped (SIGTERM, then SIGKILL after 10 s)
/// when the test is done with it.
final class ServeProcess {
    let process = Process()
    let port: Int
    private let errors: Pipe
    private let output: Pipe

    /// Starts `spots serve index` with `arguments` and reads the port from its first line.
    init(index: String, _ arguments: [String] = []) throws {
        process.executableURL = SpotsCLI.executable
        process.arguments = ["serve", index, "--listen", "127.0.0.1:0"] + arguments
        output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let line = try Self.firstLine(of: output.fileHandleForReading)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let listening = try #require(object["listening"] as? String)
        port = try #require(Int(listening.split(separator: ":").last ?? ""))
        #expect(listening.hasPrefix("127.0.0.1:"))
    }

    deinit { stop() }

    /// Sends SIGTERM and waits for the exit (SIGKILL after 10 s); the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What it wrote to standard error, once stopped.
    var log: String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    func get(_ target: String) throws -> LoopbackHTTP.Response { try LoopbackHTTP.request(port: port, "GET", target) }

    /// Polls `target` until `condition` holds of its answer, for at most `seconds`.
    func wait(for target: String, seconds: Double = 10, until condition: (LoopbackHTTP.Response) -> Bool) throws
        -> Bool
    {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let answer = try? get(target), condition(answer) { return true }
            usleep(50_000)
        }
        return false
    }

    private static func firstLine(of handle: FileHandle) throws -> String {
        var bytes: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == 0x0A { break }
            bytes.append(first)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@Suite("spots serve", .serialized)
struct ServeCommandTests {
    /// The answer line `spots search --batch` gives `request`, without its line break.
    private func batchAnswer(_ index: String, _ request: String, command: String = "search") throws -> String {
        let run = try SpotsCLI.run([command, index, "--batch", "-"], stdin: Data((request + "\n").utf8))
        try #require(run.status == 0, "\(run.stderr)")
        return String(run.output.dropLast())
    }

    @Test("each route of Spots' API answers what the command line answers, byte for byte")
    func routesMatchTheCommandLine() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let cases = [
                (
                    "/v1/search?q=museum&near=60.1699,24.9384&limit=3",
                    #"{"query":"museum","near":[60.1699,24.9384],"limit":3}"#
                ),
                ("/v1/search?query=kiasma&explain=true", #"{"query":"kiasma","explain":true}"#),
                (
                    "/v1/search?near=60.1699,24.9384&radius=300&categories=cafe,nightlife",
                    #"{"near":[60.1699,24.9384],"radius":300,"categories":["cafe","nightlife"]}"#
                ),
                ("/v1/search?q=%E3%82%AB%E3%83%95%E3%82%A7&language=ja", #"{"query":"カフェ","language":"ja"}"#),
            ]
            for (target, line) in cases {
                let answer = try server.get(target)
                #expect(answer.status == 200, "\(target)")
                #expect(answer.text == (try batchAnswer(index, line)), "\(target)")
            }
            let clusters = try server.get("/v1/clusters?bbox=24.90,60.15,24.98,60.19&zoom=13")
            #expect(
                clusters.text
                    == (try batchAnswer(index, #"{"bbox":[24.90,60.15,24.98,60.19],"zoom":13}"#, command: "cluster")))
            let batch = try LoopbackHTTP.request(
                port: server.port, "POST", "/v1/batch", body: Data("{\"query\":\"cafe\"}\n{\"limit\":\"x\"}\n".utf8))
            #expect(batch.status == 200)
            let lines = batch.text.split(separator: "\n").map(String.init)
            #expect(
                lines == [try batchAnswer(index, #"{"query":"cafe"}"#), #"{"error":"limit: expected a whole number"}"#])
            #expect(server.stop() == 0)
        }
    }

    @Test("a spot by reference, the index, health, Photon's status and the metrics")
    func otherRoutes() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let export = try SpotsCLI.run(["export", index]).output.split(separator: "\n")[0]
            let first = try #require(try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: Any])
            let ref = "\((first["osm_type"] as? String ?? "node").prefix(1))\(first["osm_id"] as? Int ?? 0)"
            let spot = try server.get("/v1/spots/\(ref)")
            #expect(spot.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: spot.body) as? [String: Any])
            #expect(object["osm_id"] as? Int == first["osm_id"] as? Int)
            #expect(try server.get("/v1/spots/n1").status == 404)
            #expect(try server.get("/v1/spots/x1").status == 404)
            let description = try #require(
                try JSONSerialization.jsonObject(with: server.get("/v1/index").body) as? [String: Any])
            #expect(description["spots"] as? Int == 785 && description["checksums"] as? String == "ok")
            #expect(try server.get("/healthz").text == #"{"generation":1,"status":"ok"}"#)
            #expect(try server.get("/status").status == 200)
            let metrics = try server.get("/metrics")
            #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
            for line in metrics.text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: " ")
                #expect(parts.count == 2 && Double(parts[1]) != nil, "not a Prometheus sample: \(line)")
            }
            #expect(metrics.text.contains(#"spots_http_requests_total{route="/v1/spots/{ref}",status="404"} 1"#))
            #expect(metrics.text.contains(#"spots_http_requests_total{route="unmatched",status="404"} 1"#))
            #expect(metrics.text.contains("spots_index_spots 785"))
            #expect(server.stop() == 0)
        }
    }

    @Test(
        "bad requests are refused with one JSON error naming the parameter",
        arguments: [
            ("GET", "/v1/search?q=cafe&limit=1001", 400, "limit: at most 1000"),
            ("GET", "/v1/search?q=" + String(repeating: "a", count: 1025), 400, "query: at most 1024 bytes"),
            ("GET", "/v1/search?q=cafe&colour=red", 400, "unknown parameter \\\"colour\\\""),
            ("GET", "/v1/search?near=91,0", 400, "near: expected [lat, lon]"),
            ("GET", "/v1/search?bbox=25,60.2,24.9,60.1", 400, "bbox: expected [minlon, minlat, maxlon, maxlat]"),
            ("GET", "/v1/nothing", 404, "no route /v1/nothing"),
            ("POST", "/v1/search", 405, "/v1/search answers GET and HEAD, not POST"),
            ("GET", "/v1/batch", 405, "/v1/batch answers POST, not GET"),
            ("GET", "/v1/clusters/999999/children", 404, "no cluster 999999"),
        ])
    func refusals(_ method: String, _ target: String, _ status: Int, _ message: String) throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let answer = try LoopbackHTTP.request(port: server.port, method, target)
            #expect(answer.status == status)
            #expect(answer.text.hasPrefix(#"{"error":""#) && answer.text.contains(message), "\(answer.text)")
            #expect(server.stop() == 0)
        }
    }

    @Test("a batch over 10,000 lines is refused with 413; the server answers the next request")
    func batchLimit() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let body = Data(String(repeating: "{\"limit\":1}\n", count: 10_001).utf8)
            #expect(try LoopbackHTTP.request(port: server.port, "POST", "/v1/batch", body: body).status == 413)
            #expect(try server.get("/healthz").status == 200)
            #expect(server.stop() == 0)
        }
    }

    @Test("malformed HTTP gets an error or a closed connection, never a crash: the next request is answered")
    func malformedHTTP() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index, ["--timeout", "2"])
            let junk: [Data] = [
                Data("GARBAGE\r\n\r\n".utf8),
                Data("GET /healthz HTTP/9.9\r\n\r\n".utf8),
                Data(
                    ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 200_000) + "\r\n\r\n")
                        .utf8),
                Data("POST /v1/batch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n{\"query\":\"cafe\"}\n".utf8),
                Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }),
                Data("GET /v1/search?q=%ZZ%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
            ]
            for bytes in junk {
                _ = try? LoopbackHTTP.exchange(port: server.port, bytes, timeout: 5)
                #expect(try server.get("/healthz").status == 200)
            }
            #expect(server.stop() == 0)
        }
    }

    @Test("a slow client is cut off by the timeout, and connections over the limit are refused")
    func slowClientsAndFloods() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index, ["--timeout", "2", "--max-connections", "2"])
            let start = Date()
            let partial = try LoopbackHTTP.exchange(
                port: server.port, Data("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8), timeout: 8)
            #expect(partial.isEmpty && Date().timeIntervalSince(start) < 6, "a half-sent request held its connection")
            let held = (0..<2).map { _ in LoopbackHTTP.Held(port: server.port) }
            usleep(200_000)
            let refused = try LoopbackHTTP.exchange(
                port: server.port, Data("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                timeout: 1.5)
            #expect(refused.isEmpty, "a third connection was served over --max-connections 2")
            for connection in held { connection.close() }
            #expect(try server.wait(for: "/healthz") { $0.status == 200 })
            #expect(server.stop() == 0)
        }
    }

    @Test(
        "a new index published under the path is swapped in; a damaged or missing one is refused and the old one serves"
    )
    func reload() throws {
        try withSampleIndex { folder, index in
            let server = try ServeProcess(index: index)
            let next = folder.path("next.spots")
            try #require(try SpotsCLI.run(["build", himeji, "-o", next, "-q"]).status == 0)
            #expect(rename(next, index) == 0)
            #expect(try server.wait(for: "/healthz") { $0.text.contains("\"generation\":2") })
            let spots = try #require(
                try JSONSerialization.jsonObject(with: server.get("/v1/index").body) as? [String: Any])
            #expect((spots["spots"] as? Int ?? 0) < 785)
            let damaged = try folder.write(Array(repeating: 0x55, count: 4096), to: "damaged.spots")
            #expect(rename(damaged, index) == 0)
            #expect(try server.wait(for: "/metrics") { $0.text.contains("spots_index_refused_reloads_total 1") })
            #expect(try server.get("/healthz").text.contains("\"generation\":2"))
            #expect(unlink(index) == 0)
            #expect(try server.wait(for: "/metrics") { $0.text.contains("spots_index_refused_reloads_total 2") })
            #expect(try server.get("/v1/search?q=castle").status == 200)
            #expect(server.stop() == 0)
            let log = server.log
            #expect(log.contains("reloaded") && log.contains("refused"))
        }
    }

    @Test("SIGTERM while requests are in flight lets them finish, then exits 0")
    func stopsGracefully() throws {
        try withSampleIndex { _, index in
            // A thread for each batch and one more to answer the scrape that sees them connected.
            let server = try ServeProcess(index: index, ["--threads", "6"])
            let port = server.port
            let body = Data(String(repeating: "{\"query\":\"cafe kahvila\",\"limit\":50}\n", count: 300).utf8)
            let answers = LockedArray()
            let group = DispatchGroup()
            for _ in 0..<4 {
                group.enter()
                // A thread each (the global queue may run them one after another).
                Thread {
                    let answer = try? LoopbackHTTP.request(port: port, "POST", "/v1/batch", body: body, timeout: 30)
                    answers.append(answer.map { ($0.status, $0.text.split(separator: "\n").count) })
                    group.leave()
                }.start()
            }
            // Stopped once the four are connected (the scrape is the fifth connection); a request
            // whose connection waits for a busy thread is taken up while the server drains.
            let connected = try server.wait(for: "/metrics") { answer in
                answer.text.split(separator: "\n").contains { line in
                    line.hasPrefix("spots_http_open_connections ") && Int(line.split(separator: " ")[1]) ?? 0 >= 5
                }
            }
            #expect(connected, "the four batch requests never were connected together")
            #expect(server.stop() == 0)
            group.wait()
            for answer in answers.values {
                #expect(
                    answer?.0 == 200 && answer?.1 == 300, "a request in flight was cut: \(String(describing: answer))")
            }
        }
    }
}

/// Answers gathered from several threads.
final class LockedArray: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(Int, Int)?] = []
    func append(_ item: (Int, Int)?) { lock.withLock { items.append(item) } }
    var values: [(Int, Int)?] { lock.withLock { items } }
}
