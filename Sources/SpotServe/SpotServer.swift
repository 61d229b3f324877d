import Foundation
import SpotExport
import SpotIndex
import SpotJSON
import SpotRequests
import SpotSearch

/// `spots serve`: one index file over HTTP. Every request takes the index served when it
/// starts and is answered by the `RequestRouter`. `run()` watches the index's path and the
/// signals until SIGTERM or SIGINT.
public final class SpotServer: @unchecked Sendable {
    // Unchecked: `http` is set once in init; the rest is immutable or Sendable.

    /// How the server runs, beside the HTTP settings.
    public struct Settings: Sendable {
        public var http = HTTPServer.Settings()
        /// The `Access-Control-Allow-Origin` every answer carries (`*` for any), or nil.
        public var corsOrigin: String?
        /// Seconds between checks of the index's path for a newly published file.
        public var reloadCheckSeconds = 1.0
        /// The tiles the map page draws (none by default).
        public var basemap = Basemap()

        public init() {}
    }

    public let served: ServedIndex
    private let settings: Settings
    private let log: ServerLog
    private let metrics = ServerMetrics()
    private let router: RequestRouter
    private var http: HTTPServer?
    /// Set at SIGTERM: answers close their connections.
    private let draining = Flag()

    /// Opens the index at `path` (refusing a damaged one) and starts listening; SIGTERM, SIGINT
    /// and SIGHUP are caught from here on, for `run()`.
    public init(path: String, settings: Settings, log: ServerLog) throws {
        served = try ServedIndex(path: path)
        self.settings = settings
        self.log = log
        let connections = Connections()
        router = RequestRouter(
            metrics: metrics, log: log, corsOrigin: settings.corsOrigin, basemap: settings.basemap
        ) { connections.load }
        SignalPipe.install([SIGTERM, SIGINT, SIGHUP])
        let http = try HTTPServer(settings: settings.http) { [unowned self] request in self.answer(request) }
        connections.server = http
        self.http = http
    }

    /// The address it listens on, `host:port`.
    public var address: String { http?.address ?? "" }

    /// The first line of standard output: where it listens and what it serves, as JSON.
    public var startLine: String {
        let index = served.current
        return JSONValue.object([
            "listening": .string(address), "index": .string(served.path),
            "spots": .number(Double(index.search.index.count)), "generation": .number(Double(index.generation)),
        ]).text(.compact)
    }

    /// Serves until SIGTERM or SIGINT: checks the index's path every `reloadCheckSeconds` (and at
    /// once on SIGHUP), then stops accepting, lets the requests in flight finish (at most the
    /// connection timeout) and closes every connection.
    public func run() {
        log.event(
            "started", [("listening", .string(address)), ("spots", .number(Double(served.current.search.index.count)))])
        while true {
            switch SignalPipe.wait(seconds: settings.reloadCheckSeconds) {
            case SIGTERM, SIGINT:
                stop()
                return
            case SIGHUP:
                reload(force: true)
            default:
                reload(force: false)
            }
        }
    }

    private func reload(force: Bool) {
        switch served.reloadIfChanged(force: force) {
        case .unchanged:
            break
        case .reloaded(let generation):
            metrics.countReload(refused: false)
            log.event(
                "reloaded",
                [
                    ("generation", .number(Double(generation))),
                    ("spots", .number(Double(served.current.search.index.count))),
                ])
        case .refused(let reason):
            metrics.countReload(refused: true)
            log.event(
                "refused", [("reason", .string(reason)), ("generation", .number(Double(served.current.generation)))])
        }
    }

    /// Drains, then stops: answers from now on close their connections, and once no request has
    /// been in flight for a fifth of a second (connections waiting for a busy thread, even in
    /// the listening socket's backlog, are taken up within it), or the connection timeout has
    /// passed, it stops accepting and closes every connection.
    private func stop() {
        guard let http else { return }
        log.event("stopping", [("in_flight", .number(Double(http.requestCount)))])
        draining.set()
        let deadline = Date().addingTimeInterval(Double(settings.http.timeoutSeconds))
        var idleChecks = 0
        while idleChecks < 4, Date() < deadline {
            idleChecks = http.requestCount == 0 ? idleChecks + 1 : 0
            usleep(50_000)
        }
        http.quiesce()
        http.stop()
        log.event("stopped")
    }

    /// The answer to one request, from the index served when it came.
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        var response = router.answer(request, on: served.current)
        if draining.isSet { response.headers.append(("Connection", "close")) }
        return response
    }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    // Unchecked: `value` is read and written under `lock` only.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// The open connections and requests in flight of a server made after the router that reports
/// them.
final class Connections: @unchecked Sendable {
    // Unchecked: `server` is set once, before the first request.
    var server: HTTPServer?
    var load: ServerLoad { ServerLoad(connections: server?.connectionCount ?? 0, requests: server?.requestCount ?? 0) }
}

/// What a server holds now, for the metrics' gauges.
struct ServerLoad: Sendable {
    /// Connections open.
    let connections: Int
    /// Requests whose headers have come and whose answer is not yet sent.
    let requests: Int
}
