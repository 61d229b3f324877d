import Foundation
import SpotTestSupport
import Testing

/// Debian's chromium and chromedriver, and its python3 with Selenium (python3-selenium), where
/// installed (CI installs them).
private let browserReady: Bool = {
    let tools = ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
    guard tools.allSatisfy(FileManager.default.isExecutableFile(atPath:)) else { return false }
    return (try? SpotsCLI.runTool(["/usr/bin/python3", "-c", "import selenium"]).status) == 0
}()

/// The browser checks (Selenium).
private let pageCheck = SpotsCLI.root.appendingPathComponent("Tests/Web/page_check.py").path

/// The page's own files, as index.html names them and the server answers them.
private let pageFiles = [
    "/", "/web/style.css", "/web/app.js", "/web/api.js", "/web/strings.js", "/web/map.js", "/web/search.js",
    "/web/sheet.js", "/web/leaflet.js", "/web/leaflet.css", "/web/leaflet.markercluster.js", "/web/MarkerCluster.css",
]

@Suite("spots serve's map page")
struct WebPageTests {
    @Test("/ answers the page, each file it loads is served with its type, and all of them total at most 300 KB")
    func servesThePage() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let page = try server.get("/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
            for reference in ["web/leaflet.js", "web/leaflet.markercluster.js", "web/app.js", "web/style.css"] {
                #expect(page.text.contains(reference), "index.html does not load \(reference)")
            }
            var total = 0
            for file in pageFiles {
                let answer = try server.get(file)
                #expect(answer.status == 200, "\(file)")
                total += answer.body.count
            }
            #expect(try server.get("/web/app.js").headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(try server.get("/web/LICENSE-leaflet.txt").text.contains("BSD 2-Clause"))
            #expect(total <= 300_000, "the page's files total \(total) bytes")
            #expect(try server.get("/web/nothing.js").status == 404)
        }
    }

    @Test("a browser holding a file's bytes is answered 304 Not Modified")
    func revalidates() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let first = try server.get("/web/leaflet.js")
            let tag = try #require(first.headers["etag"])
            #expect(first.headers["cache-control"] == "no-cache")
            let again = try LoopbackHTTP.request(
                port: server.port, "GET", "/web/leaflet.js", headers: ["If-None-Match": "\"other\", \(tag)"])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            let changed = try LoopbackHTTP.request(
                port: server.port, "GET", "/web/leaflet.js", headers: ["If-None-Match": "\"other\""])
            #expect(changed.status == 200)
        }
    }

    @Test("/v1/basemap: none by default; a tile server with its credit; a folder's tiles served at /tiles/")
    func basemaps() throws {
        try withSampleIndex { folder, index in
            #expect(try ServeProcess(index: index).get("/v1/basemap").text == #"{"tiles":null}"#)
            let template = "https://tiles.example.org/{z}/{x}/{y}.png"
            let server = try ServeProcess(index: index, ["--tiles", template, "--tiles-attribution", "© Example"])
            #expect(
                try server.get("/v1/basemap").text
                    == #"{"tiles":{"attribution":"© Example","max_zoom":19,"url":"\#(template)"}}"#)
            #expect(try server.get("/tiles/1/0/0.png").status == 404)

            let tiles = folder.path("tiles")
            try FileManager.default.createDirectory(atPath: tiles + "/12/2331", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: tiles + "/3/4", withIntermediateDirectories: true)
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            try png.write(to: URL(fileURLWithPath: tiles + "/12/2331/1185.png"))
            let local = try ServeProcess(index: index, ["--tiles-dir", tiles])
            let basemap = try local.get("/v1/basemap").text
            #expect(basemap.contains(#""max_zoom":12"#) && basemap.contains("tiles"), "\(basemap)")
            let tile = try local.get("/tiles/12/2331/1185.png")
            #expect(tile.status == 200)
            #expect(tile.headers["content-type"] == "image/png")
            #expect(tile.body == png)
            #expect(try local.get("/tiles/12/2331/1186.png").status == 404)
            #expect(try local.get("/tiles/3/8/0.png").status == 404, "x beyond the zoom's grid")
            #expect(try local.get("/tiles/3/../../etc.png").status == 404)
        }
    }

    @Test(
        "tile options that cannot work are refused with a line naming the option, and exit 64",
        arguments: [
            ["--tiles", "https://tiles.example.org/{z}/{x}/{y}.png"],
            ["--tiles", "https://tiles.example.org/tile.png", "--tiles-attribution", "x"],
            ["--tiles-attribution", "x"],
            ["--tiles-dir", "/nonexistent/tiles"],
            ["--tiles", "https://t.example.org/{z}/{x}/{y}.png", "--tiles-attribution", "x", "--tiles-dir", "/tmp"],
        ])
    func refusesTileOptions(_ options: [String]) throws {
        try withSampleIndex { _, index in
            let run = try SpotsCLI.run(["serve", index, "--listen", "127.0.0.1:0"] + options)
            #expect(run.status == 64, "\(options): \(run.stderr)")
            let first = run.stderr.split(separator: "\n").first ?? ""
            #expect(first.hasPrefix("spots: --tiles"), "\(run.stderr)")
        }
    }

    @Test(
        "in chromium: search, pins, sheet, clusters, chips, list, shared link, location, Japanese, both layouts",
        .enabled(
            if: browserReady,
            "chromium, chromium-driver or python3-selenium is not installed (apt install chromium chromium-driver python3-selenium)"
        ))
    func inABrowser() throws {
        try withSampleIndex { _, index in
            let server = try ServeProcess(index: index)
            let run = try SpotsCLI.runTool(["/usr/bin/python3", pageCheck, "http://127.0.0.1:\(server.port)"])
            #expect(run.status == 0, "\(run.output)\(run.stderr)")
            #expect(run.output.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count >= 12, "\(run.output)")
        }
    }

    @Test(
        "in chromium: a folder's tiles are drawn under the pins, enlarged past its highest zoom",
        .enabled(if: browserReady, "chromium, chromium-driver or python3-selenium is not installed"))
    func tilesInABrowser() throws {
        try withSampleIndex { folder, index in
            // Any PNG will do as every tile of zooms 0 to 2: the check reads which tiles are drawn.
            let png = try Data(contentsOf: SpotsCLI.root.appendingPathComponent("Samples/web-phone.png"))
            for zoom in 0...2 {
                for x in 0..<(1 << zoom) {
                    let column = folder.path("tiles/\(zoom)/\(x)")
                    try FileManager.default.createDirectory(atPath: column, withIntermediateDirectories: true)
                    for y in 0..<(1 << zoom) { try png.write(to: URL(fileURLWithPath: "\(column)/\(y).png")) }
                }
            }
            let server = try ServeProcess(
                index: index, ["--tiles-dir", folder.path("tiles"), "--tiles-attribution", "test"])
            let run = try SpotsCLI.runTool([
                "/usr/bin/python3", pageCheck, "http://127.0.0.1:\(server.port)", "--tiles",
            ])
            #expect(run.status == 0, "\(run.output)\(run.stderr)")
            #expect(run.output.contains("ok    tiles_are_drawn"), "\(run.output)")
        }
    }
}
