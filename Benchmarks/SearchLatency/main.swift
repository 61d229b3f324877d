import Dispatch
import Foundation
import ProcessSupport
import SeededRandom
import SpotIndex
import SpotSearch
import SpotText
import Spots

// search-latency INDEX [COUNT]: the time to open INDEX, and the latency of COUNT text-prefix
// requests without a place and near the spot they came from, and COUNT nearest-20 requests
// (random spots of the index, seeded), as p50 / p99 / max.
// Run by Benchmarks/search.sh; `swift run -c release search-latency city.spots` alone works too.

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

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: search-latency INDEX [COUNT]\n".utf8))
    exit(64)
}
let path = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
// As `--batch` does: the memory a request frees is kept for the next.
ProcessMemory.keepFreedForNextRequests()
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
