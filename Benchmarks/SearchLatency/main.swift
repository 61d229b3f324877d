import Dispatch
import Foundation
import ProcessSupport
import SeededRandom
import SpotIndex
import SpotJSON
import SpotSearch
import SpotText
import Spots

// search-latency INDEX [COUNT]: the time to open INDEX, and the latency of COUNT text-prefix
// requests without a place and near the spot they came from, and COUNT nearest-20 requests
// (random spots of the index, seeded), as p50 / p99 / max.
// search-latency INDEX --requests FILE...: each FILE holds `spots search --batch` lines (query,
// near, limit are read); prints, per file, "NAME p50 p99 max COUNT" in ms of SpotSearch.search
// inside one process (no process start, open, parse or JSON output); with SEARCH_LATENCY_SLOWEST=N
// in the environment, also the N slowest requests of each file on stderr, slowest first.
// Run by Benchmarks/search.sh and compare.sh (COUNT) and typos.sh (--requests);
// `swift run -c release search-latency city.spots` alone works too.

func milliseconds(_ start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
}

func summary(_ name: String, _ samples: [Double]) -> String {
    let sorted = samples.sorted()
    func at(_ fraction: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] }
    return String(
        format: "%@  p50 %.3f ms  p99 %.3f ms  max %.3f ms  (%d requests)", name, at(0.5), at(0.99), sorted.last!,
        sorted.count)
}

/// The query, near and limit of one `--batch` line; nil for a line that is not an object.
func request(_ line: Substring) -> SearchRequest? {
    guard case .object(let object)? = try? JSONValue(parsing: line.utf8) else { return nil }
    var request = SearchRequest()
    if case .string(let query)? = object["query"] { request.naturalLanguageQuery = query }
    if case .array(let pair)? = object["near"], case let numbers = pair.compactMap(\.double), numbers.count == 2,
        let latitude = Int32(exactly: (numbers[0] * 1e7).rounded()),
        let longitude = Int32(exactly: (numbers[1] * 1e7).rounded())
    {
        request.near = Coordinate(latitudeE7: latitude, longitudeE7: longitude)
    }
    if let limit = object["limit"]?.double { request.limit = Int(limit) }
    return request
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, arguments.count == 2 || arguments[2] != "--requests" || arguments.count > 3 else {
    FileHandle.standardError.write(Data("usage: search-latency INDEX [COUNT] | INDEX --requests FILE...\n".utf8))
    exit(64)
}
let path = arguments[1]
// As `--batch` does: the memory a request frees is kept for the next.
ProcessMemory.keepFreedForNextRequests()
if arguments.count > 2, arguments[2] == "--requests" {
    do {
        let search = try SpotSearch(index: try SpotIndexReader(path: path))
        for file in arguments.dropFirst(3) {
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            let requests = lines.compactMap(request)
            guard requests.count == lines.count else {
                FileHandle.standardError.write(Data("search-latency: \(file): a line is not a request\n".utf8))
                exit(1)
            }
            var samples: [Double] = []
            for request in requests {
                let start = DispatchTime.now()
                _ = try search.search(request)
                samples.append(milliseconds(start))
            }
            let slowest = Int(ProcessInfo.processInfo.environment["SEARCH_LATENCY_SLOWEST"] ?? "") ?? 0
            for (line, ms) in zip(lines, samples).sorted(by: { $0.1 > $1.1 }).prefix(slowest) {
                FileHandle.standardError.write(Data(String(format: "%8.3f ms  %@\n", ms, String(line)).utf8))
            }
            samples.sort()
            func at(_ fraction: Double) -> Double {
                samples.isEmpty ? 0 : samples[min(samples.count - 1, Int(Double(samples.count) * fraction))]
            }
            print(
                String(
                    format: "%@ %.3f %.3f %.3f %d", (file as NSString).lastPathComponent, at(0.5), at(0.99),
                    samples.last ?? 0, samples.count))
        }
    } catch {
        FileHandle.standardError.write(Data("search-latency: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
do {
    var opens: [Double] = []
    for _ in 0..<200 {
        let start = DispatchTime.now()
        _ = try SpotIndexReader(path: path)
        opens.append(milliseconds(start))
    }
    print(summary("open                ", opens))
    let index = try SpotIndexReader(path: path)
    let search = try SpotSearch(index: index)
    var random = SplitMix64(seed: 2026)
    var prefixes: [String] = []
    var points: [Coordinate] = []
    var prefixPoints: [Coordinate] = []
    while prefixes.count < count {
        let spot = Int.random(in: 0..<index.count, using: &random)
        points.append(try index.coordinate(at: spot))
        guard let name = try index.name(at: spot), let word = SearchText.words(name).randomElement(using: &random),
            word.count >= 3
        else { continue }
        prefixes.append(String(word.prefix(Int.random(in: 3...5, using: &random))))
        prefixPoints.append(points[points.count - 1])
    }
    var text: [Double] = []
    for prefix in prefixes {
        let start = DispatchTime.now()
        _ = try search.search(SearchRequest(naturalLanguageQuery: prefix, limit: 20))
        text.append(milliseconds(start))
    }
    print(summary("text prefix, top 20 ", text))
    // The same prefixes asked at the point of the spot they came from: every candidate scored.
    var textNear: [Double] = []
    for (prefix, point) in zip(prefixes, prefixPoints) {
        let start = DispatchTime.now()
        _ = try search.search(SearchRequest(naturalLanguageQuery: prefix, near: point, limit: 20))
        textNear.append(milliseconds(start))
    }
    print(summary("text prefix near    ", textNear))
    var near: [Double] = []
    for point in points.prefix(count) {
        let start = DispatchTime.now()
        _ = try search.search(SearchRequest(near: point, radius: 1000, limit: 20))
        near.append(milliseconds(start))
    }
    print(summary("within 1 km, top 20 ", near))
} catch {
    FileHandle.standardError.write(Data("search-latency: \(error)\n".utf8))
    exit(1)
}
