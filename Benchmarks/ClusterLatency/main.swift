import Dispatch
import Foundation
import ProcessSupport
import SpotIndex
import SpotJSON
import SpotSearch
import Spots

// cluster-latency INDEX FILE...: each FILE holds `spots cluster --batch` requests
// ({"bbox":[minlon,minlat,maxlon,maxlat],"zoom":z,"categories":[...]}); prints, per file, the
// latency of SpotSearch.clusters (with each cluster's details) inside one process as p50 / p99
// / max. Run by Benchmarks/cluster.sh; the process start and the JSON output that the batch
// timings include are left out here.

func request(_ line: Substring) -> ClusterRequest? {
    guard case .object(let object)? = try? JSONValue(parsing: line.utf8),
        case .array(let bbox)? = object["bbox"], case let box = bbox.compactMap(\.double), box.count == 4,
        let zoom = object["zoom"]?.double,
        let region = GeoBox(west: box[0], south: box[1], east: box[2], north: box[3])
    else { return nil }
    var categories: [Category]?
    if case .array(let names)? = object["categories"] {
        categories = names.compactMap { name in
            guard case .string(let name) = name else { return nil }
            return Category(rawValue: name)
        }
    }
    return ClusterRequest(
        region: region, zoom: Int(zoom),
        pointOfInterestFilter: categories.map { PointOfInterestFilter(including: Set($0)) })
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: cluster-latency INDEX FILE...\n".utf8))
    exit(64)
}
// As `--batch` does: the memory a request frees is kept for the next.
ProcessMemory.keepFreedForNextRequests()
do {
    let search = try SpotSearch(index: try SpotIndexReader(path: arguments[1]))
    for file in arguments.dropFirst(2) {
        let requests = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").compactMap(request)
        var samples: [Double] = []
        for request in requests {
            let start = DispatchTime.now()
            _ = try search.clusters(request)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
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
    FileHandle.standardError.write(Data("cluster-latency: \(error)\n".utf8))
    exit(1)
}
