import Foundation
import SpotJSON

/// The server's log on standard error: one line per event (started, reloaded, refused,
/// stopping, stopped) and, with the access log, one per request; as text or as JSON lines.
public final class ServerLog: @unchecked Sendable {
    // Unchecked: writes are serialized by `lock`; the settings are immutable.

    /// How lines are written.
    public enum Format: String, CaseIterable, Sendable {
        /// `2026-12-04T20:01:02Z reloaded generation=2 spots=530`.
        case text
        /// `{"time":"2026-12-04T20:01:02Z","event":"reloaded","generation":2,"spots":530}`.
        case json
    }

    private let format: Format
    /// Whether each request is logged.
    let accessLog: Bool
    private let lock = NSLock()

    /// A log written as `format`, with one line per request when `accessLog`.
    public init(format: Format, accessLog: Bool) {
        self.format = format
        self.accessLog = accessLog
    }

    /// Logs `event` with its fields, in order.
    func event(_ event: String, _ fields: [(String, JSONValue)] = []) {
        let time = ISO8601DateFormatter().string(from: Date())
        let line: String
        switch format {
        case .json:
            var bytes = Array("{\"time\":".utf8)
            JSONText.appendString(time, to: &bytes)
            bytes += Array(",\"event\":".utf8)
            JSONText.appendString(event, to: &bytes)
            for (key, value) in fields {
                bytes.append(UInt8(ascii: ","))
                JSONText.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                bytes += Array(value.text(.compact).utf8)
            }
            line = String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self)
        case .text:
            let rendered = fields.map { key, value in
                if case .string(let text) = value, !text.contains(" "), !text.isEmpty { return "\(key)=\(text)" }
                return "\(key)=\(value.text(.compact))"
            }
            line = ([time, event] + rendered).joined(separator: " ")
        }
        lock.withLock { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
