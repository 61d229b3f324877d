import SpotExport
import SpotIndex
import SpotJSON
import SpotRequests
import SpotSearch
import Spots

/// Spots' own routes (`/v1/…`): the requests of `spots search --batch` and `spots cluster` as
/// query strings (every batch key a parameter of the same name and meaning), answered with the
/// bytes of the batch's answer lines.
enum SpotsAPI {
    /// The most results one request may ask for.
    static let maximumLimit = 1000
    /// The longest query text, in UTF-8 bytes.
    static let maximumQueryBytes = 1024
    /// The most lines of one `/v1/batch` body.
    static let maximumBatchLines = 10_000

    /// The answer of `route` (one of Spots' routes) to `request`, from `index`.
    static func answer(_ route: Route, _ request: HTTPRequest, on index: LoadedIndex) throws -> HTTPResponse {
        let search = index.search
        switch route {
        case .search:
            let object = try parameters(request, keys: SearchBatchRequest.keys, aliases: ["q": "query"])
            return try json(searchAnswer(SearchBatchRequest.parse(object), on: search))
        case .clusters:
            let parsed = try ClusterBatchRequest.parse(parameters(request, keys: ClusterBatchRequest.keys))
            let warnings = FarPlace.warnings(
                near: nil, region: parsed.region, extent: search.index.tree.bounds, option: false)
            return try json(BatchAnswer.results(try search.clusters(parsed), warnings: warnings, of: search.index))
        case .clusterChildren(let id):
            _ = try parameters(request, keys: [:])
            return try json(BatchAnswer.results(try known { try search.children(ofCluster: id) }, of: search.index))
        case .clusterLeaves(let id):
            let page = try parameters(request, keys: ["limit": .number, "offset": .number])
            let limit = try whole(page["limit"], "limit") ?? 10
            let offset = try whole(page["offset"], "offset") ?? 0
            let leaves = try known { try search.leaves(ofCluster: id, limit: limit, offset: offset) }
            return try json(BatchAnswer.results(leaves.map(ClusterItem.spot), of: search.index))
        case .spot(let ref):
            let language = try SearchBatchRequest.parse(parameters(request, keys: ["language": .string])).language
            guard let spot = try search.spot(for: ref) else { throw APIError(status: 404, "no spot for \(ref)") }
            let result = SearchResult(spot: spot, distance: nil, language: language)
            return json(SpotExporter.ndjson(spot, shown: result.displayName, distance: .some(nil)))
        case .batch:
            return try batch(request, on: search)
        case .index:
            _ = try parameters(request, keys: [:])
            return json(index.description)
        default:
            throw APIError(status: 404, "no route \(request.path)")
        }
    }

    /// A request refused: its status and the message of its `{"error":"..."}`.
    struct APIError: Error {
        let status: Int
        let message: String
        init(status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    /// The answer line of one search request (with its warnings), refused when it asks for
    /// nothing or goes past the server's limits.
    static func searchAnswer(_ request: SearchRequest, on search: SpotSearch) throws -> [UInt8] {
        guard request.limit <= maximumLimit else { throw BatchRequestError("limit: at most \(maximumLimit)") }
        guard (request.naturalLanguageQuery?.utf8.count ?? 0) <= maximumQueryBytes else {
            throw BatchRequestError("query: at most \(maximumQueryBytes) bytes")
        }
        let request = try SearchBatchRequest.checked(request)
        let warnings = FarPlace.warnings(
            near: request.near, region: request.region, extent: search.index.tree.bounds, option: false)
        return try BatchAnswer.results(
            try search.rankedSpots(request), language: request.language, warnings: warnings, of: search.index)
    }

    /// `POST /v1/batch`: one search request per line of the body, one answer line per request,
    /// a line that is not a valid request answered with its error as `spots search --batch` does.
    private static func batch(_ request: HTTPRequest, on search: SpotSearch) throws -> HTTPResponse {
        _ = try parameters(request, keys: [:])
        let lines = request.body.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard !request.bodyTooLarge, lines.count <= maximumBatchLines else {
            throw APIError(status: 413, "a batch holds at most \(maximumBatchLines) lines")
        }
        var answer: [UInt8] = []
        for line in lines {
            do {
                answer += try searchAnswer(SearchBatchRequest.parse(Array(line)), on: search)
            } catch let error as IndexError {
                throw error
            } catch {
                answer += BatchAnswer.error("\(error)")
            }
            answer.append(0x0A)
        }
        return HTTPResponse(status: 200, contentType: "application/x-ndjson", body: answer)
    }

    /// The query string read as a batch line's object of `keys`.
    private static func parameters(
        _ request: HTTPRequest, keys: [String: BatchValueType], aliases: [String: String] = [:]
    ) throws(BatchRequestError) -> [String: JSONValue] {
        try QueryStringFields.object(request.arguments, keys: keys, aliases: aliases)
    }

    /// A whole number of 0 or more given as `name`, or nil when absent.
    private static func whole(_ value: JSONValue?, _ name: String) throws(BatchRequestError) -> Int? {
        guard let value else { return nil }
        guard let number = value.double, number >= 0, number == number.rounded(), number < 1e9 else {
            throw BatchRequestError("\(name): expected a whole number")
        }
        return Int(number)
    }

    /// `body`, with a cluster the index does not hold a 404.
    private static func known<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SearchError {
            throw APIError(status: 404, error.description)
        }
    }

    private static func json(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: body)
    }
}
