import Foundation
import SpotTestSupport
import Testing

/// nginx and openssl, where installed (Debian's packages; CI installs them).
private let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
private let openssl = ["/usr/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// A free TCP port on 127.0.0.1 (bound and released: another process could take it first, which
/// only fails the test).
private func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(socket, pointer, length) == 0 ? getsockname(socket, pointer, &length) : -1
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

@Suite(
    "Samples/deploy: nginx in front of two servers", .serialized,
    .enabled(if: nginx != nil && openssl != nil, "nginx or openssl is not installed (apt install nginx openssl)"))
struct DeployTests {
    /// nginx running the sample site, its upstreams `ports`, its ports and paths moved into
    /// `folder`, with a self-signed certificate; the HTTPS port it listens on.
    private func startNginx(in folder: TemporaryFolder, upstreams ports: [Int]) throws -> (Process, Int) {
        let key = folder.path("site.key")
        let certificate = folder.path("site.pem")
        let made = try SpotsCLI.runTool([
            openssl!, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-keyout", key, "-out", certificate,
        ])
        try #require(made.status == 0, "openssl: \(made.stderr)")
        let (http, https) = (try freePort(), try freePort())
        var site = try String(
            contentsOf: SpotsCLI.root.appendingPathComponent("Samples/deploy/nginx-spots.conf"), encoding: .utf8)
        for (from, to) in [
            ("server 127.0.0.1:2322", "server 127.0.0.1:\(ports[0])"),
            ("server 127.0.0.1:2323", "server 127.0.0.1:\(ports[1])"),
            ("/var/cache/nginx/spots", folder.path("cache")), ("listen [::]:80;", ""),
            ("listen [::]:443 ssl http2;", ""),
            ("listen 80;", "listen 127.0.0.1:\(http);"),
            ("listen 443 ssl http2;", "listen 127.0.0.1:\(https) ssl http2;"),
            ("/etc/ssl/certs/places.example.org.pem", certificate), ("/etc/ssl/private/places.example.org.key", key),
        ] {
            #expect(site.contains(from), "the sample site no longer holds '\(from)'")
            site = site.replacingOccurrences(of: from, with: to)
        }
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map {
            "\($0)_temp_path \(folder.path($0));"
        }
        let main = """
            user root;
            pid \(folder.path("nginx.pid"));
            error_log \(folder.path("error.log"));
            events { worker_connections 512; }
            http {
                access_log off;
                \(temporary.joined(separator: "\n    "))
                include \(try folder.write(site, to: "site.conf"));
            }
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx!)
        process.arguments = [
            "-e", folder.path("error.log"), "-c", try folder.write(main, to: "nginx.conf"), "-g", "daemon off;",
        ]
        try process.run()
        return (process, https)
    }

    /// The status of GET of each of `targets` through nginx, with one curl.
    private func curl(_ port: Int, _ targets: [String]) throws -> [String] {
        let run = try SpotsCLI.runTool(
            ["curl", "-k", "-s", "-w", "%{http_code}\\n"]
                + targets.flatMap { ["-o", "/dev/null", "https://127.0.0.1:\(port)\($0)"] })
        return run.output.split(separator: "\n").map(String.init)
    }

    @Test(
        "answers come through nginx from both servers; a new index published under both while requests flow loses none")
    func balancedAndPublished() throws {
        try withSampleIndex { folder, index in
            let servers = try [ServeProcess(index: index), ServeProcess(index: index)]
            let (nginx, port) = try startNginx(in: folder, upstreams: servers.map(\.port))
            defer {
                kill(nginx.processIdentifier, SIGQUIT)
                nginx.waitUntilExit()
            }
            var ready = false
            for _ in 0..<50 where !ready {
                ready = (try? curl(port, ["/healthz"])) == ["200"]
                if !ready { usleep(100_000) }
            }
            try #require(ready, "nginx did not answer: \(folder.contents("error.log") ?? "")")
            let direct = try servers[0].get("/v1/search?q=museum&near=60.1699,24.9384&limit=3").text
            let through = try SpotsCLI.runTool([
                "curl", "-k", "-s", "https://127.0.0.1:\(port)/v1/search?q=museum&near=60.1699,24.9384&limit=3",
            ])
            #expect(through.output == direct)

            // Publish the two indexes in turn, renamed over the path, while 600 distinct requests
            // (no cache hits) go through nginx.
            let builds = [folder.path("a.spots"), folder.path("b.spots")]
            try #require(try SpotsCLI.run(["build", himeji, "-o", builds[0], "-q"]).status == 0)
            try #require(try SpotsCLI.run(["build", helsinki, himeji, "-o", builds[1], "-q"]).status == 0)
            let publishing = Flag()
            let publisher = Thread {
                var turn = 0
                while !publishing.isSet {
                    let next = folder.path("next.spots")
                    try? FileManager.default.removeItem(atPath: next)
                    try? FileManager.default.copyItem(atPath: builds[turn % 2], toPath: next)
                    rename(next, index)
                    turn += 1
                    usleep(300_000)
                }
            }
            publisher.start()
            let targets = (0..<600).map {
                "/v1/search?q=cafe&near=60.1699,24.9384&limit=\(1 + $0 % 500)&radius=\(1000 + $0)"
            }
            let codes = try curl(port, targets)
            publishing.set()
            #expect(codes.count == 600 && codes.allSatisfy { $0 == "200" }, "lost: \(codes.filter { $0 != "200" })")
            for server in servers {
                #expect(try server.wait(for: "/healthz") { !$0.text.contains("\"generation\":1,") })
                #expect(server.stop() == 0)
            }
        }
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
