import Foundation

/// A client for tests of `spots serve`: raw bytes over a TCP connection to 127.0.0.1, so that a
/// test can send malformed HTTP too. Every read waits at most `timeout` seconds.
public enum LoopbackHTTP {
    /// An answer: the status, the headers (names lowercased) and the body.
    public struct Response: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why a request got no answer.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `method` `target` (a path with its query string) on `port`, with `headers` and `body` if given.
    public static func request(
        port: Int, _ method: String = "GET", _ target: String, headers: [String: String] = [:], body: Data? = nil,
        timeout: Double = 10
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\nContent-Type: application/x-ndjson\r\n" }
        let bytes = Data((head + "\r\n").utf8) + (body ?? Data())
        return try parse(exchange(port: port, bytes, timeout: timeout))
    }

    /// Sends `bytes` as they are and returns everything the server sends until it closes the
    /// connection (or `timeout` passes).
    public static func exchange(port: Int, _ bytes: Data, timeout: Double = 10) throws -> Data {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to port \(port): \(errno)") }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { break }
            sent += count
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }

    /// A connection opened and left idle, as a flood or a slow client holds one, until `close()`.
    public final class Held: @unchecked Sendable {
        private var socket: Int32

        /// Connects to `port` and sends nothing.
        public init(port: Int) {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = LoopbackHTTP.address(port: port)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }

        /// Closes the connection.
        public func close() {
            if socket >= 0 { Glibc.close(socket) }
            socket = -1
        }

        deinit { close() }
    }

    /// 127.0.0.1:`port` as a socket address.
    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// The response `data` holds: its status line, headers and the body after them.
    public static func parse(_ data: Data) throws -> Response {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no complete response: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Data(data[end.upperBound...]))
    }
}
