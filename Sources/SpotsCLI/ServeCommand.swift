import Foundation
import SpotServe

/// `spots serve INDEX`: the index over HTTP, with Photon's API and Spots' own, until SIGTERM.
enum ServeCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["--listen"], valueName: "host:port",
            help: """
                Where to listen (default 127.0.0.1:2322); port 0
                picks a free one. [::1]:2322 for IPv6.
                """),
        OptionSpec(names: ["--threads"], valueName: "n", help: "Threads answering requests (default: the cores)."),
        OptionSpec(
            names: ["--cors"], valueName: "origin",
            help: "Allow browsers of this origin (* for any) to call the API."),
        OptionSpec(
            names: ["--max-connections"], valueName: "n", help: "Connections held at once (default 1024)."),
        OptionSpec(
            names: ["--timeout"], valueName: "seconds",
            help: """
                Close a connection idle this long (default 30);
                also the longest wait for requests at SIGTERM.
                """),
        OptionSpec(
            names: ["--tiles"], valueName: "url",
            help: """
                Raster tiles under the map page's pins, from a tile
                server: https://host/{z}/{x}/{y}.png.
                """),
        OptionSpec(
            names: ["--tiles-dir"], valueName: "dir",
            help: "Raster tiles from a folder of {z}/{x}/{y}.png, served at /tiles/."),
        OptionSpec(
            names: ["--tiles-attribution"], valueName: "text",
            help: "The tiles' credit on the map (needed with --tiles)."),
        .choice(["--log-format"], of: ServerLog.Format.self, help: "text (default) or json lines on stderr."),
        OptionSpec(names: ["--access-log"], valueName: nil, help: "Log every request."),
        Help.option,
    ]

    static let help = Help(
        command: "serve",
        overview: "Serve an index over HTTP: a map page (/), Photon's API (/api, ...) and Spots' (/v1/...).",
        arguments: [Help.index],
        options: options,
        discussion: """
            The first line on standard output is one JSON object naming the address it listens
            on ({"listening":"127.0.0.1:2322",...}). A new index published under the same path
            (spots refresh, build -O) is opened, verified and swapped in without a restart; a
            damaged one is refused and logged, and the old one keeps serving. SIGHUP checks the
            path at once; SIGTERM and SIGINT stop accepting, let requests in flight finish and
            exit 0. Routes, parameters and answers: docs/serve.md.
            """)

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        var settings = SpotServer.Settings()
        if let listen = arguments.value("--listen") {
            (settings.http.host, settings.http.port) = try address(listen)
        }
        if let threads = try arguments.integer("--threads", in: 1...1024) { settings.http.threads = threads }
        if let connections = try arguments.integer("--max-connections", in: 1...100_000) {
            settings.http.maximumConnections = connections
        }
        if let timeout = try arguments.integer("--timeout", in: 1...86_400) { settings.http.timeoutSeconds = timeout }
        settings.corsOrigin = arguments.value("--cors")
        settings.basemap = try basemap(arguments)
        let format = try arguments.choice("--log-format", as: ServerLog.Format.self) ?? .text
        let server = try SpotServer(
            path: path, settings: settings, log: ServerLog(format: format, accessLog: arguments.flag("--access-log")))
        // Written at once, not buffered: a script or test reads it to find the port.
        FileHandle.standardOutput.write(Data((server.startLine + "\n").utf8))
        server.run()
    }

    /// The tiles of `--tiles` or `--tiles-dir` (not both), credited by `--tiles-attribution`.
    private static func basemap(_ arguments: Arguments) throws -> Basemap {
        let attribution = arguments.value("--tiles-attribution")
        switch (arguments.value("--tiles"), arguments.value("--tiles-dir")) {
        case (nil, nil):
            guard attribution == nil else { throw UsageError("--tiles-attribution: needs --tiles or --tiles-dir") }
            return Basemap()
        case (let template?, nil):
            guard template.contains("{z}"), template.contains("{x}"), template.contains("{y}") else {
                throw UsageError("--tiles: expected a URL template with {z}, {x} and {y}, not '\(template)'")
            }
            guard let attribution, !attribution.isEmpty else {
                throw UsageError("--tiles: needs --tiles-attribution, the credit the tile server asks for")
            }
            return Basemap(urlTemplate: template, attribution: attribution)
        case (nil, let folder?):
            do {
                return try Basemap(folder: folder, attribution: attribution ?? "")
            } catch {
                throw UsageError("--tiles-dir: \(error.description)")
            }
        case (_?, _?):
            throw UsageError("--tiles and --tiles-dir: give one of them")
        }
    }

    /// The host and port of `--listen`: `HOST:PORT`, an IPv6 host in brackets.
    private static func address(_ text: String) throws(UsageError) -> (String, UInt16) {
        let refusal = UsageError("--listen: expected HOST:PORT such as 127.0.0.1:2322 or [::1]:0, not '\(text)'")
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw refusal
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw refusal }
        return (host, port)
    }
}
