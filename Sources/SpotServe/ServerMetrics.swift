import Foundation

/// What `/metrics` counts, in Prometheus's text format: requests by route and status, a latency
/// histogram by route, reloads and refused reloads; beside them, read when asked, the open
/// connections and the served index's spots, build time and generation.
final class ServerMetrics: @unchecked Sendable {
    // Unchecked: every stored var is read and written under `lock` only.

    /// The histogram's upper bounds, in seconds.
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct Latency {
        var buckets = [Int](repeating: 0, count: ServerMetrics.bounds.count)
        var count = 0
        var sum = 0.0
    }

    private let lock = NSLock()
    private var requests: [String: [Int: Int]] = [:]
    private var latencies: [String: Latency] = Dictionary(uniqueKeysWithValues: Route.names.map { ($0, Latency()) })
    private var reloads = 0
    private var refusedReloads = 0

    /// Counts a request of `route` (a `Route.name`, or "unmatched") answered with `status` in
    /// `seconds`.
    func count(route: String, status: Int, seconds: Double) {
        lock.withLock {
            requests[route, default: [:]][status, default: 0] += 1
            var latency = latencies[route] ?? Latency()
            latency.count += 1
            latency.sum += seconds
            if let bucket = Self.bounds.firstIndex(where: { seconds <= $0 }) { latency.buckets[bucket] += 1 }
            latencies[route] = latency
        }
    }

    /// Counts a reload of the index, or a refused one.
    func countReload(refused: Bool) {
        lock.withLock {
            if refused { refusedReloads += 1 } else { reloads += 1 }
        }
    }

    /// The text of `/metrics`, with the gauges of `index` and of the server's `load` now.
    func text(index: LoadedIndex, load: ServerLoad) -> String {
        lock.withLock {
            var lines: [String] = []
            func family(_ name: String, _ type: String, _ help: String) {
                lines.append("# HELP \(name) \(help)")
                lines.append("# TYPE \(name) \(type)")
            }
            family("spots_http_requests_total", "counter", "Requests answered, by route and status.")
            for (route, byStatus) in requests.sorted(by: { $0.key < $1.key }) {
                for (status, count) in byStatus.sorted(by: { $0.key < $1.key }) {
                    lines.append("spots_http_requests_total{route=\"\(route)\",status=\"\(status)\"} \(count)")
                }
            }
            family("spots_http_request_duration_seconds", "histogram", "Time to answer a request, by route.")
            for (route, latency) in latencies.sorted(by: { $0.key < $1.key }) {
                var cumulative = 0
                for (bound, count) in zip(Self.bounds, latency.buckets) {
                    cumulative += count
                    lines.append(
                        "spots_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(cumulative)")
                }
                lines.append(
                    "spots_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(latency.count)")
                lines.append("spots_http_request_duration_seconds_sum{route=\"\(route)\"} \(latency.sum)")
                lines.append("spots_http_request_duration_seconds_count{route=\"\(route)\"} \(latency.count)")
            }
            family("spots_http_open_connections", "gauge", "Connections open now.")
            lines.append("spots_http_open_connections \(load.connections)")
            family(
                "spots_http_requests_in_flight", "gauge",
                "Requests whose headers have come and whose answer is not yet sent (this one among them).")
            lines.append("spots_http_requests_in_flight \(load.requests)")
            family("spots_index_spots", "gauge", "Spots in the index served.")
            lines.append("spots_index_spots \(index.search.index.count)")
            family(
                "spots_index_build_time_seconds", "gauge", "The served index's build time, Unix seconds (0: unknown).")
            lines.append("spots_index_build_time_seconds \(Self.unixSeconds(index.buildTime))")
            family("spots_index_generation", "gauge", "1 for the index served at start, one more per index swapped in.")
            lines.append("spots_index_generation \(index.generation)")
            family("spots_index_reloads_total", "counter", "New index files swapped in.")
            lines.append("spots_index_reloads_total \(reloads)")
            family("spots_index_refused_reloads_total", "counter", "New index files refused (unreadable or damaged).")
            lines.append("spots_index_refused_reloads_total \(refusedReloads)")
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private static func unixSeconds(_ time: String?) -> Int {
        guard let time, let date = ISO8601DateFormatter().date(from: time) else { return 0 }
        return Int(date.timeIntervalSince1970)
    }
}
