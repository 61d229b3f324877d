import SpotIndex
import SpotSearch

// The server's routes and query-string readers, then the answer, on a small index: the input's
// first byte picks the method, the rest up to the first '?' is the path, after it the query
// string's arguments (split at '&' and the first '='; libmicrohttpd hands them over decoded, so
// they are taken as they are), and after a newline the body. Errors are answers (400, 404,
// 405, 413); a crash, a sanitizer report or a hang is a finding. Scripts/fuzz compiles this
// file with Sources/SpotServe (to reach its internal types) against the modules it imports, and
// builds the index from Samples/himeji-castle.osm.

private let router = RequestRouter(
    metrics: ServerMetrics(), log: ServerLog(format: .json, accessLog: false), corsOrigin: "*", basemap: Basemap(),
    load: { ServerLoad(connections: 0, requests: 0) })
private let index: LoadedIndex = {
    // One index for every input: the seed built by Scripts/fuzz.
    try! LoadedIndex(path: ".build/fuzz/serve.spots", generation: 1)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServe(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let method = ["GET", "POST", "HEAD", "OPTIONS", "PUT"][Int(bytes[0]) % 5]
    let rest = bytes.dropFirst()
    let lineEnd = rest.firstIndex(of: 0x0A) ?? rest.endIndex
    let line = String(decoding: rest[..<lineEnd], as: UTF8.self)
    let body = lineEnd < rest.endIndex ? Array(rest[(lineEnd + 1)...]) : []
    let (path, query) =
        line.firstIndex(of: "?").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
        ?? (line, "")
    let arguments = query.split(separator: "&").map { pair -> (name: String, value: String) in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }
    let request = HTTPRequest(
        method: method, path: path.isEmpty ? "/" : path, arguments: arguments, origin: nil, ifNoneMatch: nil,
        body: body,
        bodyTooLarge: false)
    _ = router.answer(request, on: index)
    return 0
}
