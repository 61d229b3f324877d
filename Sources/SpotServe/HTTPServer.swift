import CMicroHTTPD
import Foundation

/// One HTTP request as libmicrohttpd parsed it: the method, the path (percent-decoded by it),
/// the query string's arguments (decoded, in order, repeats kept), the headers asked for and the
/// body.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let arguments: [(name: String, value: String)]
    /// The `Origin` header, for CORS.
    public let origin: String?
    /// The `If-None-Match` header: the entity tags of the page's files the browser holds.
    public let ifNoneMatch: String?
    public let body: [UInt8]
    /// Whether the body was cut short at `HTTPServer.Settings.maximumBodyBytes`.
    public let bodyTooLarge: Bool
}

/// One HTTP answer: a status, a content type, extra headers and the body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var headers: [(name: String, value: String)] = []
    public var body: [UInt8]

    /// An answer of `status` holding `body` of `contentType`.
    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// The HTTP/1.1 server: GNU libmicrohttpd's thread pool with epoll, its connection limit and
/// idle timeout, on a listening socket this type binds (so that port 0 gives a free port whose
/// number it knows). No HTTP is parsed here: request lines, headers, query strings and bodies
/// are libmicrohttpd's.
///
/// Requests are answered off libmicrohttpd's threads. libmicrohttpd gives each of its threads
/// a share of the connections; answering on those threads would make every connection of a
/// thread wait behind its slowest request. So a complete request is handed, with its
/// connection suspended, to one queue served by `settings.threads` workers in arrival order,
/// and the worker that answers it resumes the connection, whose thread then sends the answer:
/// a quick request waits only for a free worker, never behind a slow one on its thread.
public final class HTTPServer: @unchecked Sendable {
    // Unchecked: `daemon` is set once in init and only read after; `openConnections` is changed
    // under `lock`; `handle` is immutable and Sendable.

    /// How the server runs.
    public struct Settings: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one.
        public var port: UInt16 = 2322
        /// The pool's threads.
        public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        /// Connections held at once; more are refused at accept.
        public var maximumConnections = 1024
        /// Seconds a connection may stay idle (or send slowly) before it is closed.
        public var timeoutSeconds = 30
        /// The largest request body read; a larger one is answered from what was read, flagged.
        public var maximumBodyBytes = 16 << 20

        public init() {}
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The address it listens on, as `host:port` (IPv6 in brackets).
    public let address: String
    public let settings: Settings
    private let handle: @Sendable (HTTPRequest) -> HTTPResponse
    /// The one queue of complete requests, answered in arrival order by `settings.threads` workers.
    private let workers: WorkQueue
    private var daemon: OpaquePointer?
    private let lock = NSLock()
    private var openConnections = 0
    private var startedRequests = 0
    /// Set by `stop()`: requests are answered on libmicrohttpd's threads from then on, so that no
    /// connection is suspended when the daemon stops (libmicrohttpd forbids it).
    private var stopping = false

    /// Starts serving `handle` as `settings` say.
    public init(settings: Settings, handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(StartError) {
        self.settings = settings
        self.handle = handle
        workers = WorkQueue(threads: settings.threads)
        let (socket, port) = try Self.listeningSocket(host: settings.host, port: settings.port)
        address = (settings.host.contains(":") ? "[\(settings.host)]" : settings.host) + ":\(port)"
        let flags = UInt32(
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let completed = unsafeBitCast(
            HTTPServer.requestCompleted as MHD_RequestCompletedCallback, to: UnsafeRawPointer.self)
        let notified = unsafeBitCast(
            HTTPServer.connectionNotified as MHD_NotifyConnectionCallback, to: UnsafeRawPointer.self)
        let options: [CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, socket,
            MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(settings.threads),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(settings.maximumConnections),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(settings.timeoutSeconds),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, OpaquePointer(completed), OpaquePointer(context),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, OpaquePointer(notified), OpaquePointer(context),
            MHD_OPTION.END.rawValue,
        ]
        daemon = withVaList(options) { list in
            MHD_start_daemon_va(flags, 0, nil, nil, HTTPServer.accessHandler, context, list)
        }
        guard daemon != nil else {
            close(socket)
            workers.finish()
            throw StartError(description: "cannot start the HTTP server on \(address)")
        }
    }

    deinit { stop() }

    /// Connections open now.
    public var connectionCount: Int { lock.withLock { openConnections } }

    /// Requests whose headers have come and whose answer is not yet sent.
    public var requestCount: Int { lock.withLock { startedRequests } }

    /// Stops accepting connections; those open are served until they close.
    public func quiesce() {
        guard let daemon else { return }
        let socket = MHD_quiesce_daemon(daemon)
        if socket >= 0 { close(socket) }
    }

    /// Stops the server: the requests handed to the workers are answered, then every
    /// connection is closed and the threads are joined.
    public func stop() {
        guard let daemon else { return }
        self.daemon = nil
        lock.withLock { stopping = true }
        workers.finish()
        MHD_stop_daemon(daemon)
    }

    /// A listening TCP socket bound to `host`:`port` (an IPv4 or IPv6 literal, read by
    /// getaddrinfo), and the port it got.
    private static func listeningSocket(host: String, port: UInt16) throws(StartError) -> (Int32, UInt16) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found?.pointee else {
            throw StartError(description: "--listen: '\(host)' is not an IP address")
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw StartError(description: "cannot open a socket: \(Self.errnoText())") }
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, info.ai_addr, info.ai_addrlen) == 0, listen(socket, 512) == 0 else {
            let reason = Self.errnoText()
            close(socket)
            throw StartError(description: "cannot listen on \(host):\(port): \(reason)")
        }
        var local = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &localLength) }
        }
        // The port is at byte 2 in both sockaddr_in and sockaddr_in6.
        let boundPort = withUnsafeBytes(of: local) { bytes in
            UInt16(bigEndian: bytes.load(fromByteOffset: 2, as: UInt16.self))
        }
        return (socket, boundPort)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// What one request gathers between libmicrohttpd's calls: its body so far, then (set by
    /// the worker that answered it, read by the connection's thread once resumed) its answer.
    private final class PendingRequest: @unchecked Sendable {
        // Unchecked: body and tooLarge are touched by the connection's thread alone; answer
        // under `lock`.
        var body: [UInt8] = []
        var tooLarge = false
        var dispatched = false
        private let lock = NSLock()
        private var storedAnswer: HTTPResponse?
        var answer: HTTPResponse? {
            get { lock.withLock { storedAnswer } }
            set { lock.withLock { storedAnswer = newValue } }
        }
    }

    private static let accessHandler: MHD_AccessHandlerCallback = {
        context, connection, url, method, _, uploadData, uploadSize, pending in
        guard let context, let connection, let pending, let uploadSize else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        guard let opaque = pending.pointee else {
            pending.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
            server.lock.withLock { server.startedRequests += 1 }
            return MHD_Result.YES
        }
        let request = Unmanaged<PendingRequest>.fromOpaque(opaque).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            if let uploadData, request.body.count + count <= server.settings.maximumBodyBytes {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            } else {
                request.tooLarge = true
            }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        if let answer = request.answer {
            request.answer = nil  // libmicrohttpd copies it: one copy waits to be sent, not two
            return respond(answer, on: connection)
        }
        guard !request.dispatched else { return MHD_Result.YES }  // resumed before its answer: not by us
        request.dispatched = true
        let parsed = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
            arguments: arguments(of: connection), origin: header("Origin", of: connection),
            ifNoneMatch: header("If-None-Match", of: connection), body: request.body, bodyTooLarge: request.tooLarge)
        let suspended = SuspendedConnection(connection)
        let handedOver = server.lock.withLock {
            guard !server.stopping else { return false }
            MHD_suspend_connection(connection)
            server.workers.add {
                request.answer = server.handle(parsed)
                MHD_resume_connection(suspended.connection)
            }
            return true
        }
        return handedOver ? MHD_Result.YES : respond(server.handle(parsed), on: connection)
    }

    /// A suspended connection, handed to the worker that resumes it (libmicrohttpd's resume is
    /// safe from any thread).
    private struct SuspendedConnection: @unchecked Sendable {
        let connection: OpaquePointer

        init(_ connection: OpaquePointer) {
            self.connection = connection
        }
    }

    /// The query string's arguments, decoded, in order; an argument without `=` has an empty value.
    private static func arguments(of connection: OpaquePointer) -> [(name: String, value: String)] {
        final class Collected { var pairs: [(name: String, value: String)] = [] }
        let collected = Collected()
        let iterator: MHD_KeyValueIterator = { context, _, key, value in
            guard let context, let key else { return MHD_Result.YES }
            let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            collected.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return MHD_Result.YES
        }
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(
                connection, MHD_ValueKind.GET_ARGUMENT_KIND, iterator, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.pairs
    }

    private static func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    private static func respond(_ answer: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let response = answer.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let response else { return MHD_Result.NO }
        defer { MHD_destroy_response(response) }
        _ = MHD_add_response_header(response, "Content-Type", answer.contentType)
        for (name, value) in answer.headers { _ = MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(answer.status), response)
    }

    private static let requestCompleted: MHD_RequestCompletedCallback = { context, _, pending, _ in
        guard let context, let pending, let opaque = pending.pointee else { return }
        Unmanaged<PendingRequest>.fromOpaque(opaque).release()
        pending.pointee = nil
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.lock.withLock { server.startedRequests -= 1 }
    }

    private static let connectionNotified: MHD_NotifyConnectionCallback = { context, _, _, code in
        guard let context else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.lock.withLock { server.openConnections += code == .CONNECTION_NOTIFY_STARTED ? 1 : -1 }
    }
}
