import Foundation
import Spots
import Testing

@testable import SpotServe

@Suite("Routes")
struct RouteTests {
    @Test("each path names its route; a variable part is read or refused with 404; a wrong method is a 405")
    func routes() throws {
        #expect(try Route.of(method: "GET", path: "/api") == .photonSearch)
        #expect(try Route.of(method: "GET", path: "/api/") == .photonSearch)
        #expect(try Route.of(method: "HEAD", path: "/v1/search") == .search)
        #expect(try Route.of(method: "POST", path: "/v1/batch") == .batch)
        #expect(try Route.of(method: "GET", path: "/v1/spots/w45") == .spot(OSMRef(.way, 45)))
        #expect(try Route.of(method: "GET", path: "/v1/clusters/12/leaves") == .clusterLeaves(12))
        #expect(try Route.of(method: "GET", path: "/v1/clusters/0/children") == .clusterChildren(0))
        #expect(try Route.of(method: "GET", path: "/") == .page)
        #expect(try Route.of(method: "GET", path: "/web/leaflet.js") == .webFile("leaflet.js"))
        #expect(try Route.of(method: "GET", path: "/v1/basemap") == .basemap)
        #expect(try Route.of(method: "GET", path: "/tiles/12/2331/1185.png") == .tile(z: 12, x: 2331, y: 1185))
        for path in [
            "/tiles/3/8/0.png", "/tiles/3/0/0.jpg", "/tiles/-1/0/0.png", "/tiles/25/0/0.png", "/tiles/a/0/0.png",
            "/web/vendor/leaflet.js",
        ] {
            #expect(throws: Route.Miss.self, "\(path)") { try Route.of(method: "GET", path: path) }
        }
        for path in ["/v1", "/v1/search/x", "/v1/clusters/-1/children", "/v1/clusters/1/parents", "/v1/spots/q1"] {
            #expect(throws: Route.Miss.self, "\(path)") { try Route.of(method: "GET", path: path) }
        }
        do {
            _ = try Route.of(method: "DELETE", path: "/v1/index")
            Issue.record("DELETE /v1/index has a route")
        } catch {
            #expect(error.status == 405 && error.allow == "GET, HEAD")
        }
    }

    @Test("the OpenAPI file describes every route, and no other")
    func openAPI() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("docs/serve-openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(Set(paths.keys) == Set(Route.names))
    }
}
