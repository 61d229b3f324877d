import Foundation
import SpotOutput
import SpotPipeline

/// The refresh's Prometheus metrics (text exposition format), written after every run to the
/// file `--metrics` (or the pipeline's `metrics`) names, atomically, as node_exporter's textfile
/// collector requires: a temporary file in the same folder renamed over it. Each metric has
/// `# HELP` and `# TYPE` lines and the label `pipeline="NAME"`.
public enum RefreshMetrics {
    /// The metrics of `status`.
    public static func text(of status: RefreshStatus) -> String {
        let label = "pipeline=\"\(escaped(status.pipeline))\""
        var lines: [String] = []
        func gauge(_ name: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            lines += ["# HELP spots_refresh_\(name) \(help)", "# TYPE spots_refresh_\(name) gauge"]
            lines += samples.map { "spots_refresh_\(name){\($0.labels)} \(number($0.value))" }
        }
        gauge(
            "last_run_timestamp_seconds", "When the last refresh run ended, in seconds since 1970.",
            [(label, seconds(status.time))])
        gauge(
            "last_success_timestamp_seconds",
            "When a refresh run last ended with the index good (published, unchanged or resumed); 0 if never.",
            [(label, status.lastSuccess.map(seconds) ?? 0)])
        gauge("duration_seconds", "How long the last refresh run took.", [(label, status.durationSeconds)])
        gauge(
            "spots", "Spots in the published index after the last run; 0 when none is published.",
            [(label, Double(status.spots ?? 0))])
        gauge(
            "outcome", "1 for how the last refresh run ended, 0 for the other outcomes.",
            RefreshEnding.allCases.map { ("\(label),outcome=\"\($0.rawValue)\"", $0 == status.outcome ? 1 : 0) })
        gauge("gate_failures", "Gates the last build failed.", [(label, Double(status.gateFailures.count))])
        gauge(
            "failure_info",
            "1, labelled with why the last refresh run failed; no sample after a run that did not fail.",
            status.reason.map { [("\(label),reason=\"\(escaped($0))\"", 1)] } ?? [])
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the metrics of `status` to `path` atomically.
    public static func write(_ status: RefreshStatus, to path: String) throws(OutputError) {
        let output = try AtomicOutput(path: path)
        try output.write(Array(text(of: status).utf8))
        try output.commit()
    }

    private static func seconds(_ time: String) -> Double {
        ISO8601DateFormatter().date(from: time)?.timeIntervalSince1970 ?? 0
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.3f", value)
    }

    /// A label value with backslash, quote and line break escaped.
    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
