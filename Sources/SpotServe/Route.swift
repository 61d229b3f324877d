import Spots

/// What a request's method and path ask for: one of the server's routes, or why none.
enum Route: Equatable {
    case photonSearch, photonReverse, photonStatus
    case search, batch, clusters, index, basemap, healthz, metrics
    case spot(OSMRef)
    case clusterChildren(Int)
    case clusterLeaves(Int)
    /// The map page (`/`) and its files (`/web/leaflet.js`).
    case page
    case webFile(String)
    case tile(z: Int, x: Int, y: Int)

    /// The route's name as the metrics label it: the path with its variable part named.
    var name: String {
        switch self {
        case .photonSearch: "/api"
        case .photonReverse: "/reverse"
        case .photonStatus: "/status"
        case .search: "/v1/search"
        case .batch: "/v1/batch"
        case .clusters: "/v1/clusters"
        case .index: "/v1/index"
        case .basemap: "/v1/basemap"
        case .healthz: "/healthz"
        case .metrics: "/metrics"
        case .spot: "/v1/spots/{ref}"
        case .clusterChildren: "/v1/clusters/{id}/children"
        case .clusterLeaves: "/v1/clusters/{id}/leaves"
        case .page: "/"
        case .webFile: "/web/{file}"
        case .tile: "/tiles/{z}/{x}/{y}.png"
        }
    }

    /// Every route's name, for the metrics: each is listed from the start.
    static let names = [
        "/api", "/reverse", "/status", "/v1/search", "/v1/batch", "/v1/clusters", "/v1/index", "/v1/basemap",
        "/healthz", "/metrics", "/v1/spots/{ref}", "/v1/clusters/{id}/children", "/v1/clusters/{id}/leaves", "/",
        "/web/{file}", "/tiles/{z}/{x}/{y}.png",
    ]

    /// Why a method and path have no route: 404 for a path none has, 405 for a method the
    /// path's route does not answer.
    struct Miss: Error, Equatable {
        let status: Int
        let message: String
        /// The methods the path answers, for a 405's `Allow` header.
        var allow: String?
    }

    /// The route of `method` on `path` (percent-decoded, without the query string).
    static func of(method: String, path: String) throws(Miss) -> Route {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let route: Route
        switch parts {
        case [""], ["index.html"]: route = .page
        case let parts where parts.count == 2 && parts[0] == "web": route = .webFile(parts[1])
        case let parts where parts.count == 4 && parts[0] == "tiles":
            guard let tile = tile(parts[1], parts[2], parts[3]) else {
                throw Miss(status: 404, message: "no tile \(path)")
            }
            route = tile
        case ["api"], ["api", ""]: route = .photonSearch
        case ["reverse"], ["reverse", ""]: route = .photonReverse
        case ["status"]: route = .photonStatus
        case ["v1", "search"]: route = .search
        case ["v1", "batch"]: route = .batch
        case ["v1", "clusters"]: route = .clusters
        case ["v1", "index"]: route = .index
        case ["v1", "basemap"]: route = .basemap
        case ["healthz"]: route = .healthz
        case ["metrics"]: route = .metrics
        case let parts where parts.count == 3 && parts[0] == "v1" && parts[1] == "spots":
            guard let ref = OSMRef(parsing: parts[2]) else {
                throw Miss(status: 404, message: "'\(parts[2])' is not a reference like n123, w45 or r6")
            }
            route = .spot(ref)
        case let parts where parts.count == 4 && parts[0] == "v1" && parts[1] == "clusters":
            guard let id = Int(parts[2]), id >= 0, parts[3] == "children" || parts[3] == "leaves" else {
                throw Miss(status: 404, message: "no route \(path)")
            }
            route = parts[3] == "children" ? .clusterChildren(id) : .clusterLeaves(id)
        default:
            throw Miss(status: 404, message: "no route \(path)")
        }
        let allowed = route == .batch ? ["POST"] : ["GET", "HEAD"]
        guard allowed.contains(method) else {
            throw Miss(
                status: 405, message: "\(route.name) answers \(allowed.joined(separator: " and ")), not \(method)",
                allow: allowed.joined(separator: ", "))
        }
        return route
    }

    /// The tile of `/tiles/{z}/{x}/{y}.png`, when z, x and y are whole numbers on the tile grid.
    private static func tile(_ z: String, _ x: String, _ y: String) -> Route? {
        guard y.hasSuffix(".png"), let z = Int(z), (0...Basemap.maximumZoom).contains(z), let x = Int(x),
            let y = Int(y.dropLast(4)), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y)
        else { return nil }
        return .tile(z: z, x: x, y: y)
    }
}
