import Foundation
import SpotOutput
import SpotPipeline
import SpotState

/// Writes a line to standard error; a closed standard error loses it, and nothing else happens.
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}

/// Where machine-readable output goes: the `OutputTarget` that `-o` names (standard output
/// without it), written in large pieces.
final class OutputSink {
    private let file: OutputFile
    private var buffer: [UInt8] = []

    /// Opens `target` for writing.
    init(_ target: OutputTarget) throws {
        file = try target.open()
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered and makes it the output.
    func finish() throws {
        try flush()
        try file.commit()
    }

    /// Makes the written `index` the output at `path` and, with `state`, the state file written
    /// by it its pair beside it (`StatePair`: the state first as NAME.state.next, then the index,
    /// then the state renamed into place).
    func finish(
        index: [UInt8], at path: String, pairedWith state: ((StatePairWriter) throws -> BaseReference)?
    ) throws {
        guard let state else { return try finish() }
        let pending = try StatePair.prepare(forIndex: path, identity: Array(index.prefix(32)), write: state)
        do {
            try finish()
        } catch {
            pending.discard()
            throw error
        }
        try pending.finish()
    }

    /// Writes what is buffered so far (a batch's answers to the lines read so far, which a
    /// client waiting on them then reads).
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A progress bar on standard error with bytes, rate and ETA, drawn only when standard error is
/// a terminal, at most ten times a second.
final class ProgressBar {
    private let enabled: Bool
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func update(done: Int, total: Int?) {
        guard enabled, Date().timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = Date()
        let elapsed = max(lastDrawn.timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed
        var line = "\(Self.bytes(done))"
        if let total, total > 0 {
            let fraction = min(Double(done) / Double(total), 1)
            let filled = Int(fraction * 30)
            let eta = rate > 0 ? Int(Double(total - done) / rate) : 0
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
            let rateAndETA = "\(Self.bytes(Int(rate)))/s  ETA \(eta / 60):" + String(format: "%02d", eta % 60)
            line = "[" + bar + "] " + line + " / \(Self.bytes(total))  " + rateAndETA
        } else {
            line += "  \(Self.bytes(Int(rate)))/s"
        }
        FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
        drawn = true
    }

    /// Clears the bar.
    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        drawn = false
    }

    static func bytes(_ count: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
