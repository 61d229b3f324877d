import SpotExport
import SpotIndex
import SpotRequests
import SpotSearch

/// `spots cluster INDEX ...`: pin clusters for a map's viewport and zoom, a cluster's children
/// and leaves, and batches of viewports.
enum ClusterCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["--bbox"], valueName: "minlon,minlat,maxlon,maxlat",
            help: """
                The viewport: MINLON,MINLAT,MAXLON,MAXLAT (as GeoJSON and
                osmium say it); MINLON > MAXLON crosses 180°.
                """),
        OptionSpec(
            names: ["--zoom"], valueName: "z",
            help: """
                The map's zoom, 0 (the world in a 512-px tile) up;
                fractions are rounded down.
                """),
        OptionSpec(
            names: ["--category"], valueName: "c,...",
            help: """
                Only these categories (cafe,museum), clustered at
                query time.
                """),
        .choice(["--format"], of: ClusterFormat.self, help: "geojson (default) or ndjson."),
        OptionSpec(names: ["--children"], valueName: "id", help: "The clusters and spots cluster ID splits into."),
        OptionSpec(names: ["--leaves"], valueName: "id", help: "The spots of cluster ID, a page at a time."),
        OptionSpec(names: ["--limit"], valueName: "n", help: "With --leaves: at most this many spots (default 10)."),
        OptionSpec(names: ["--offset"], valueName: "k", help: "With --leaves: skip this many spots first (default 0)."),
        Help.batch,
        Help.batchThreads,
        Help.fileOutput,
        Help.overwrite,
        Help.option,
    ]

    static let help = Help(
        command: "cluster",
        overview: "Cluster an index's spots for a map: what supercluster gives a web map.",
        arguments: [Help.index],
        options: options,
        modes: [
            Help.Mode(
                required: ["--bbox", "--zoom"], optional: ["--category", "--format", "--output", "--overwrite"]),
            Help.Mode(required: ["--children"], optional: ["--format", "--output", "--overwrite"]),
            Help.Mode(
                required: ["--leaves"], optional: ["--format", "--limit", "--offset", "--output", "--overwrite"]),
            Help.Mode(required: ["--batch"], optional: ["--threads", "--output", "--overwrite"]),
        ],
        discussion: """
            Returns the clusters and single spots shown at the zoom whose points lie in the box.
            Clusters carry cluster_id, point_count, categories (category to count), expansion_zoom
            (where they split) and the bbox of their spots; a spot carries osm_type and osm_id.
            With --category the clusters are made at query time and have no id (cluster_id null).
            A cluster id the index does not hold is a usage error (exit 64). Batch requests:
            {"bbox":[minlon,minlat,maxlon,maxlat],"zoom":z,"categories":[...]}, categories
            optional; each answer is {"results":[...]} with the NDJSON objects, or {"error":"..."}.
            Without --format, -o's extension chooses: .ndjson or .jsonl NDJSON, .geojson or .json
            GeoJSON (.csv, .html and .txt are refused), any other GeoJSON.
            """)

    /// What a call asks for: one of the four modes.
    private enum Question {
        case viewport(ClusterRequest)
        case children(ofCluster: Int)
        case leaves(ofCluster: Int, limit: Int, offset: Int)
        case batch(file: String)
    }

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let format = try arguments.format(ClusterFormat.self)
        let question = try question(arguments)
        let batchFile: [String]
        if case .batch(let file) = question { batchFile = [file] } else { batchFile = [] }
        let output = try arguments.output(inputs: [path] + batchFile)
        let search = try SpotSearch(index: try SpotIndexReader(path: path))
        let extent = search.index.tree.bounds
        let items: [ClusterItem]
        switch question {
        case .batch(let file):
            return try BatchLines.run(file, to: output, threads: try arguments.threads()) { line in
                let request = try ClusterBatchRequest.parse(line)
                let warnings = FarPlace.warnings(near: nil, region: request.region, extent: extent, option: false)
                return try BatchAnswer.results(try search.clusters(request), warnings: warnings, of: search.index)
            }
        case .viewport(let request):
            for warning in FarPlace.warnings(near: nil, region: request.region, extent: extent, option: true) {
                printError("spots: warning: " + warning)
            }
            items = try search.clusters(request)
        case .children(let id):
            items = try naming("--children") { try search.children(ofCluster: id) }
        case .leaves(let id, let limit, let offset):
            items = try naming("--leaves") { try search.leaves(ofCluster: id, limit: limit, offset: offset) }
                .map(ClusterItem.spot)
        }
        let sink = try OutputSink(output)
        try sink.write(try format.render(items, of: search.index))
        try sink.finish()
    }

    /// The one mode the options choose, its options read; a usage error for none, several, or
    /// an option of another mode.
    private static func question(_ arguments: Arguments) throws(UsageError) -> Question {
        let modes = ["--bbox", "--children", "--leaves", "--batch"].filter { arguments.value($0) != nil }
        let noMode = "give --bbox and --zoom, --children, --leaves or --batch"
        guard modes.count == 1 else {
            throw UsageError(modes.isEmpty ? noMode : "give one of \(modes.joined(separator: ", ")), not several")
        }
        let pairs = [("--zoom", "--bbox"), ("--category", "--bbox"), ("--limit", "--leaves"), ("--offset", "--leaves")]
        for (option, mode) in pairs where arguments.value(option) != nil && modes[0] != mode {
            throw UsageError("\(option) goes with \(mode)")
        }
        if let region = try arguments.box("--bbox") {
            guard let zoom = try arguments.number("--zoom", in: MapInput.zooms).flatMap(MapInput.zoom) else {
                throw UsageError("--bbox needs --zoom")
            }
            let filter = try arguments.categories("--category").map(PointOfInterestFilter.init(including:))
            return .viewport(ClusterRequest(region: region, zoom: zoom, pointOfInterestFilter: filter))
        }
        if let id = try arguments.integer("--children", in: 0...) { return .children(ofCluster: id) }
        if let id = try arguments.integer("--leaves", in: 0...) {
            let limit = try arguments.integer("--limit", in: 0...) ?? 10
            return .leaves(ofCluster: id, limit: limit, offset: try arguments.integer("--offset", in: 0...) ?? 0)
        }
        guard let file = arguments.value("--batch") else { throw UsageError(noMode) }
        return .batch(file: file)
    }

    /// Runs `body`; a cluster id the index does not hold is a search error (exit 64 too,
    /// without the usage line) naming `option`.
    private static func naming<T>(_ option: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SearchError {
            throw SearchError(description: "\(option): \(error.description)")
        }
    }
}
