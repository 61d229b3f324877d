import Foundation
import SpotExport
import SpotJSON
import SpotRequests
import SpotSearch

/// Routes a request (`Route`) to Spots' API (`SpotsAPI`), Photon's (`PhotonAPI`), the health
/// check or the metrics, adds the CORS header, and counts (`ServerMetrics`) and logs
/// (`ServerLog`) the answer. It holds no index: each request brings the one it is answered from.
struct RequestRouter: Sendable {
    let metrics: ServerMetrics
    let log: ServerLog
    /// The `Access-Control-Allow-Origin` of every answer, or nil.
    let corsOrigin: String?
    /// The tiles the map page draws, for `/v1/basemap` and `/tiles/…`.
    let basemap: Basemap
    /// The connections open and requests in flight now, for the metrics.
    let load: @Sendable () -> ServerLoad

    /// The answer to `request` from `index`, counted and logged.
    func answer(_ request: HTTPRequest, on index: LoadedIndex) -> HTTPResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        var routeName = "unmatched"
        var response: HTTPResponse
        if request.method == "OPTIONS", corsOrigin != nil {
            response = HTTPResponse(status: 204, contentType: "text/plain", body: [])
            response.headers = [
                ("Access-Control-Allow-Methods", "GET, HEAD, POST"), ("Access-Control-Allow-Headers", "Content-Type"),
            ]
        } else {
            do {
                let route = try Route.of(method: request.method, path: request.path)
                routeName = route.name
                response = answer(route, request, on: index)
            } catch {
                response = Self.refusal(status: error.status, error.message)
                if let allow = error.allow { response.headers.append(("Allow", allow)) }
            }
        }
        if let origin = corsOrigin { response.headers.append(("Access-Control-Allow-Origin", origin)) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        metrics.count(route: routeName, status: response.status, seconds: seconds)
        if log.accessLog {
            log.event(
                "request",
                [
                    ("method", .string(request.method)), ("path", .string(request.path)),
                    ("status", .number(Double(response.status))), ("ms", .number((seconds * 1e5).rounded() / 100)),
                ])
        }
        return response
    }

    private func answer(_ route: Route, _ request: HTTPRequest, on index: LoadedIndex) -> HTTPResponse {
        switch route {
        case .photonSearch: return PhotonAPI.search(request.arguments, on: index)
        case .photonReverse: return PhotonAPI.reverse(request.arguments, on: index)
        case .photonStatus: return PhotonAPI.status(of: index)
        case .healthz:
            let body = JSONValue.object(["status": .string("ok"), "generation": .number(Double(index.generation))])
            return HTTPResponse(status: 200, contentType: "application/json", body: Array(body.text(.compact).utf8))
        case .metrics:
            let text = metrics.text(index: index, load: load())
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Array(text.utf8))
        case .page, .webFile:
            let name = if case .webFile(let name) = route { name } else { "index.html" }
            return WebPage.answer(name, ifNoneMatch: request.ifNoneMatch)
                ?? Self.refusal(status: 404, "the page has no file \(name)")
        case .basemap:
            return HTTPResponse(status: 200, contentType: "application/json", body: basemap.description)
        case .tile(let z, let x, let y):
            return basemap.tile(z: z, x: x, y: y)
        default:
            do {
                return try SpotsAPI.answer(route, request, on: index)
            } catch let error as SpotsAPI.APIError {
                return Self.refusal(status: error.status, error.message)
            } catch let error as BatchRequestError {
                return Self.refusal(status: 400, error.description)
            } catch let error as SearchError {
                return Self.refusal(status: 400, error.description)
            } catch {
                log.event("failed", [("path", .string(request.path)), ("reason", .string("\(error)"))])
                return Self.refusal(status: 500, "\(error)")
            }
        }
    }

    /// `{"error":"..."}` with `status`.
    static func refusal(status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: BatchAnswer.error(message))
    }
}
