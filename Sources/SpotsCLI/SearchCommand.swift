import SpotExport
import SpotIndex
import SpotRequests
import SpotSearch
import Spots

/// `spots search INDEX ...`: nearby, region, text and category queries; lookups by reference;
/// batches of JSON requests.
enum SearchCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["--near"], valueName: "lat,lon",
            help: """
                Nearest first from this point: LAT,LON (as people
                and MapKit say it), e.g. 60.1699,24.9384.
                """),
        OptionSpec(names: ["--radius"], valueName: "metres", help: "Only spots within this distance of --near."),
        OptionSpec(
            names: ["--bbox"], valueName: "minlon,minlat,maxlon,maxlat",
            help: """
                Only spots in MINLON,MINLAT,MAXLON,MAXLAT (as GeoJSON
                and osmium say it); MINLON > MAXLON crosses 180°.
                """),
        OptionSpec(names: ["--category"], valueName: "c,...", help: "Only these categories (cafe,museum)."),
        OptionSpec(names: ["--exclude-category"], valueName: "c,...", help: "All but these categories."),
        OptionSpec(
            names: ["--result-types"], valueName: "t,...",
            help: "Only these result types: poi, physical, address (all by default)."),
        OptionSpec(
            names: ["--query"], valueName: "text",
            help: """
                Name words (prefixes; substrings in CJK) and
                category words ("cafe", "カフェ").
                """),
        OptionSpec(names: ["--limit"], valueName: "n", help: "At most this many results (default 20)."),
        .choice(
            ["--sort"], of: SearchSort.self, valueName: "order",
            help: """
                Text results by relevance (default: match level,
                then score) or by distance (nearest first).
                """),
        OptionSpec(
            names: ["--distance-scale"], valueName: "metres",
            help: """
                Metres at which nearness counts half as much in a
                text query with a place (default 100).
                """),
        OptionSpec(
            names: ["--explain"], valueName: nil,
            help: """
                Say why each result came back: a match object in
                NDJSON and GeoJSON, a why column in the table.
                """),
        OptionSpec(
            names: ["--language"], valueName: "code",
            help: """
                Show each result's name in this language (name:xx,
                e.g. ca or zh-Hant) where the place has one.
                """),
        .choice(["--format"], of: SearchFormat.self, help: "table (default), ndjson or geojson."),
        OptionSpec(
            names: ["--id"], valueName: "refs",
            help: """
                The spots for these OSM references (n123,w45,r6),
                in the order given.
                """),
        Help.batch,
        Help.batchThreads,
        Help.fileOutput,
        Help.overwrite,
        Help.option,
    ]

    static let help = Help(
        command: "search",
        overview: "Search an index: nearby, in a region, by text and category, or by OSM reference.",
        arguments: [Help.index],
        options: options,
        modes: [
            Help.Mode(optional: [
                "--near", "--radius", "--bbox", "--category", "--exclude-category", "--result-types", "--query",
                "--limit", "--sort",
                "--distance-scale", "--explain", "--language", "--format", "--output", "--overwrite",
            ]),
            Help.Mode(required: ["--id"], optional: ["--language", "--format", "--output", "--overwrite"]),
            Help.Mode(required: ["--batch"], optional: ["--threads", "--output", "--overwrite"]),
        ],
        discussion: """
            Without text, results are nearest first (from --near, else the centre of --bbox), ties
            by OSM type and id. Text results are ranked: the whole name, then names starting with
            the query, then names holding its words, then category matches; within each, better
            known and (with a place) nearer first (docs/search.md, "How results are ranked"). While these
            are fewer than the limit, typos are forgiven (a word of 4 letters one edit, of 8 two)
            and those matches follow the others, fewest edits first (with --sort distance
            nearest first; docs/search.md, "Typos"). Batch
            requests: {"near":[lat,lon],"radius":m,"bbox":[minlon,minlat,maxlon,maxlat],
            "categories":[...],"exclude":[...],"query":"...","limit":n,"sort":"relevance",
            "distance_scale":m,"explain":true,"language":"ca"}, each key optional but one of query,
            near, bbox or categories needed (as one of --query, --near, --bbox, --category or --id
            is); a bad line gives {"error":"..."} and the rest go on. A point or box over 100 km
            from the index's spots gets a warning (docs/search.md, "Mistakes"). Without --format,
            -o's extension chooses: .ndjson or .jsonl NDJSON, .geojson or .json GeoJSON, .txt the
            table (.csv and .html are refused), any other the table.
            """)

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let format = try arguments.format(SearchFormat.self)
        let batch = arguments.value("--batch")
        let output = try arguments.output(inputs: [path] + (batch.map { [$0] } ?? []))
        let search = try SpotSearch(index: try SpotIndexReader(path: path))
        let extent = search.index.tree.bounds
        if let batch {
            return try BatchLines.run(batch, to: output, threads: try arguments.threads()) { line in
                let request = try SearchBatchRequest.checked(SearchBatchRequest.parse(line))
                let warnings = FarPlace.warnings(
                    near: request.near, region: request.region, extent: extent, option: false)
                return try BatchAnswer.results(
                    try search.rankedSpots(request), language: request.language, warnings: warnings, of: search.index)
            }
        }
        let results: [SearchResult]
        if let ids = arguments.value("--id") {
            results = try ids.split(separator: ",").map { text in
                guard let ref = OSMRef(parsing: text) else {
                    throw UsageError("--id: '\(text)' is not a reference like n123, w45 or r6")
                }
                guard let spot = try search.spot(for: ref) else { throw UsageError("--id: no spot for \(text)") }
                return SearchResult(spot: spot, distance: nil, language: try language(from: arguments))
            }
        } else {
            let request = try request(from: arguments)
            for warning in FarPlace.warnings(near: request.near, region: request.region, extent: extent, option: true) {
                printError("spots: warning: " + warning)
            }
            results = try search.search(request)
        }
        let sink = try OutputSink(output)
        try sink.write(format.render(results, explain: arguments.flag("--explain")))
        try sink.finish()
    }

    /// The request the options describe.
    private static func request(from arguments: Arguments) throws(UsageError) -> SearchRequest {
        var request = SearchRequest()
        request.near = try arguments.coordinate("--near")
        if let radius = try arguments.number("--radius", in: 0...) {
            guard request.near != nil else { throw UsageError("--radius needs --near") }
            request.radius = radius
        }
        request.region = try arguments.box("--bbox")
        if let categories = try arguments.categories("--category") {
            request.pointOfInterestFilter = PointOfInterestFilter(including: categories)
        }
        if let categories = try arguments.categories("--exclude-category") {
            guard request.pointOfInterestFilter == nil else {
                throw UsageError("give --category or --exclude-category, not both")
            }
            request.pointOfInterestFilter = PointOfInterestFilter(excluding: categories)
        }
        if let list = arguments.value("--result-types") {
            guard let types = ResultTypes(list: list) else {
                throw UsageError("--result-types: expected names among poi, physical and address, got '\(list)'")
            }
            request.resultTypes = types
        }
        request.naturalLanguageQuery = arguments.value("--query")
        if let limit = try arguments.integer("--limit", in: 0...) { request.limit = limit }
        if let sort = try arguments.choice("--sort", as: SearchSort.self) { request.sort = sort }
        request.explain = arguments.flag("--explain")
        if let scale = try arguments.number("--distance-scale", in: 1...) { request.distanceScale = scale }
        request.language = try language(from: arguments)
        guard request.asksSomething else { throw UsageError("give --query, --near, --bbox, --category or --id") }
        return request
    }

    /// The `--language` code, checked.
    private static func language(from arguments: Arguments) throws(UsageError) -> String? {
        guard let code = arguments.value("--language") else { return nil }
        guard Spot.languageCode(ofNameKey: "name:" + code) == code else {
            throw UsageError("--language: '\(code)' is not a language code such as ca or zh-Hant")
        }
        return code
    }
}
