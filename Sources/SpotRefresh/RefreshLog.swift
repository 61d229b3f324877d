import Foundation
import SpotJSON

/// The refresh's log on standard error: one line per stage with a timestamp, its duration and
/// its counts, a line for each other event (a hold, a refused build's report, a failure), and
/// last a result line saying how the run ended; as text for people or as one JSON object per
/// line for log collectors: `time`, `level` (info, warning, error), `event` (`stage`, `result`,
/// …), then the event's fields (a stage's `stage`, `duration_s` and `counts`; a result's
/// `outcome` and `exit_code`; `message`).
public struct RefreshLog: Sendable {
    /// How lines are written.
    public enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    /// How much a line matters.
    public enum Level: String, Sendable {
        case info, warning, error
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
        let duration = String(format: "%.3f", seconds)
        switch format {
        case .text:
            let figures = counts.keys.sorted().map { "\($0) \(counts[$0]!)" }
            line(([stage, duration + " s"] + figures + (message.map { [$0] } ?? [])).joined(separator: "  "))
        case .json:
            let counted = JSONText.object(
                counts.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }, escaping: .short)
            var fields = [("stage", Self.json(stage)), ("duration_s", duration), ("counts", counted)]
            if let message { fields.append(("message", Self.json(message))) }
            object(level: .info, event: "stage", fields)
        }
    }

    /// Logs `event` at `level` with `message` and, in JSON, the extra `fields` (values already
    /// JSON).
    public func event(_ event: String, level: Level, message: String, fields: [(String, String)] = []) {
        switch format {
        case .text: line(([event] + (level == .info ? [] : [level.rawValue]) + [message]).joined(separator: "  "))
        case .json: object(level: level, event: event, fields + [("message", Self.json(message))])
        }
    }

    /// Logs the last line of a run: how it ended, its exit code and, in JSON, why it failed (in
    /// text the error line that follows says why).
    public func result(_ ending: RefreshEnding, exitCode: Int32, reason: String? = nil) {
        let level: Level = ending == .failed ? .error : ending == .refused || ending == .locked ? .warning : .info
        switch format {
        case .text: line("result  \(ending.rawValue)  exit \(exitCode)")
        case .json:
            let fields = [("outcome", Self.json(ending.rawValue)), ("exit_code", "\(exitCode)")]
            object(level: level, event: "result", fields + (reason.map { [("reason", Self.json($0))] } ?? []))
        }
    }

    private func line(_ text: String) {
        write(ISO8601DateFormatter().string(from: Date()) + "  " + text + "\n")
    }

    private func object(level: Level, event: String, _ fields: [(String, String)]) {
        let time = ISO8601DateFormatter().string(from: Date())
        let all =
            [("time", Self.json(time)), ("level", Self.json(level.rawValue)), ("event", Self.json(event))] + fields
        write(JSONText.object(all, escaping: .short) + "\n")
    }

    /// Runs `body` as stage `stage`, logging its duration and the counts it returns.
    func timed<T>(_ stage: String, _ body: () throws -> (T, counts: [String: Int], message: String?)) rethrows -> T {
        let started = Date()
        let (value, counts, message) = try body()
        self.stage(stage, seconds: Date().timeIntervalSince(started), counts: counts, message: message)
        return value
    }

    /// `text` as a JSON string, escaped as the log's lines have always been (as Foundation's
    /// `JSONSerialization` escaped them: `JSONText.Escaping.short`).
    public static func json(_ text: String) -> String { JSONText.string(text, escaping: .short) }
}
