import Foundation

/// The refresh's log on standard error: one line per stage with a timestamp, its duration and
/// its counts; as text for people or as one JSON object per line (snake_case keys) for log
/// collectors.
public struct RefreshLog: Sendable {
    /// How lines are written.
    public enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    /// How lines are written.
    public let format: Format
    private let write: @Sendable (String) -> Void

    /// A log in `format` that hands each line (with its newline) to `write`.
    public init(format: Format, write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.write = write
    }

    /// Logs that `stage` took `seconds` and what it counted (counts sorted by name), with a
    /// free-text `message` when given.
    func stage(_ stage: String, seconds: Double, counts: [String: Int] = [:], message: String? = nil) {
        let time = ISO8601DateFormatter().string(from: Date())
        let duration = String(format: "%.3f", seconds)
        switch format {
        case .text:
            let figures = counts.keys.sorted().map { "\($0) \(counts[$0]!)" }
            write(
                ([time, stage, duration + " s"] + figures + (message.map { [$0] } ?? [])).joined(separator: "  ") + "\n"
            )
        case .json:
            var fields = ["\"time\":\"\(time)\"", "\"stage\":\(jsonString(stage))", "\"duration_s\":\(duration)"]
            fields += counts.keys.sorted().map { "\(jsonString($0)):\(counts[$0]!)" }
            if let message { fields.append("\"message\":\(jsonString(message))") }
            write("{" + fields.joined(separator: ",") + "}\n")
        }
    }

    /// Runs `body` as stage `stage`, logging its duration and the counts it returns.
    func timed<T>(_ stage: String, _ body: () throws -> (T, counts: [String: Int], message: String?)) rethrows -> T {
        let started = Date()
        let (value, counts, message) = try body()
        self.stage(stage, seconds: Date().timeIntervalSince(started), counts: counts, message: message)
        return value
    }

    private func jsonString(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\""
    }
}
