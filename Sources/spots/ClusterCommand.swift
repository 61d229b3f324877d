import Foundation
import SpotCluster
import SpotExport
import SpotIndex
import SpotSearch
import Spots

/// `spots cluster INDEX ...`: pin clusters for a map's viewport and zoom, a cluster's children
/// and leaves, and batches of viewports.
enum ClusterCommand {
    static let options = [
        OptionSpec(names: ["--bbox"], valueName: "box", help: "The viewport: MINLON,MINLAT,MAXLON,MAXLAT (as GeoJSON and\nosmium say it); MINLON > MAXLON crosses 180°."),
        OptionSpec(names: ["--zoom"], valueName: "z", help: "The map's zoom, 0 (the world in a 512-px tile) up;\nfractions are rounded down."),
        OptionSpec(names: ["--category"], valueName: "c,...", help: "Only these categories (cafe,museum), clustered at\nquery time."),
        OptionSpec(names: ["--format"], valueName: "format", help: "geojson (default) or ndjson."),
        OptionSpec(names: ["--children"], valueName: "id", help: "The clusters and spots cluster ID splits into."),
        OptionSpec(names: ["--leaves"], valueName: "id", help: "The spots of cluster ID, a page at a time."),
        OptionSpec(names: ["--limit"], valueName: "n", help: "With --leaves: at most this many spots (default 10)."),
        OptionSpec(names: ["--offset"], valueName: "k", help: "With --leaves: skip this many spots first (default 0)."),
        OptionSpec(names: ["--batch"], valueName: "file", help: "One JSON request per line (- for stdin); one JSON\nline of results per request."),
        Help.option,
    ]

    static let help = Help(
        overview: "Cluster an index's spots for a map: what supercluster gives a web map.",
        usage: "spots cluster <index> --bbox MINLON,MINLAT,MAXLON,MAXLAT --zoom Z [--category C,...] [--format geojson|ndjson] | --children ID | --leaves ID [--limit N] [--offset K] | --batch FILE",
        arguments: [("<index>", "An index written by 'spots build'.")],
        options: options,
        discussion: """
            Returns the clusters and single spots shown at the zoom whose points lie in the box.
            Clusters carry cluster_id, point_count, categories (category to count), expansion_zoom
            (where they split) and the bbox of their spots; a spot carries osm_type and osm_id.
            With --category the clusters are made at query time and have no id (cluster_id null).
            A cluster id the index does not hold is a usage error (exit 64). Batch requests:
            {"bbox":[minlon,minlat,maxlon,maxlat],"zoom":z,"categories":[...]}, categories
            optional; each answer is {"results":[...]} with the NDJSON objects, or {"error":"..."}.
            """)

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let format = arguments.value("--format") ?? "geojson"
        guard ["geojson", "ndjson"].contains(format) else { throw UsageError("--format must be geojson or ndjson, not '\(format)'") }
        let modes = ["--bbox", "--children", "--leaves", "--batch"].filter { arguments.value($0) != nil }
        guard modes.count == 1 else {
            throw UsageError(modes.isEmpty ? "give --bbox and --zoom, --children, --leaves or --batch" : "give one of \(modes.joined(separator: ", ")), not several")
        }
        for (option, allowed) in [("--zoom", "--bbox"), ("--category", "--bbox"), ("--limit", "--leaves"), ("--offset", "--leaves")]
        where arguments.value(option) != nil && modes[0] != allowed {
            throw UsageError("\(option) goes with \(allowed)")
        }
        let request = try modes[0] == "--bbox" ? clusterRequest(arguments) : nil
        let leafPage = try modes[0] == "--leaves" ? (limit: count(arguments, "--limit") ?? 10, offset: count(arguments, "--offset") ?? 0) : nil
        let search = try SpotSearch(index: try SpotIndexReader(path: path))
        if let batch = arguments.value("--batch") {
            return try BatchLines.run(batch) { line in
                Array("{\"results\":[".utf8) + (try render(try search.clusters(try ClusterBatchRequest.parse(line)), of: search.index, format: .objects))
                    + Array("]}".utf8)
            }
        }
        let items: [ClusterItem]
        if let request {
            items = try search.clusters(request)
        } else if let id = arguments.value("--children") {
            items = try withClusterID(id, option: "--children") { try search.children(ofCluster: $0) }
        } else {
            let id = arguments.value("--leaves")!
            items = try withClusterID(id, option: "--leaves") { try search.leaves(ofCluster: $0, limit: leafPage!.limit, offset: leafPage!.offset) }
                .map(ClusterItem.spot)
        }
        let sink = try OutputSink(path: nil)
        try sink.write(try render(items, of: search.index, format: format == "ndjson" ? .lines : .featureCollection))
        try sink.finish()
    }

    /// The request `--bbox`, `--zoom` and `--category` describe.
    static func clusterRequest(_ arguments: Arguments) throws -> ClusterRequest {
        guard let zoomText = arguments.value("--zoom") else { throw UsageError("--bbox needs --zoom") }
        guard let zoom = Double(zoomText).flatMap(zoomLevel) else { throw UsageError("--zoom: expected a zoom from 0 to \(maxZoom), got '\(zoomText)'") }
        var request = ClusterRequest(region: try SearchCommand.region(arguments.value("--bbox")!), zoom: zoom)
        if let names = arguments.value("--category") {
            request.pointOfInterestFilter = PointOfInterestFilter(including: try SearchCommand.categories(names, option: "--category"))
        }
        return request
    }

    /// The highest zoom a request may ask for (maps go to about 22).
    static let maxZoom = 30

    /// A zoom as maps give it, rounded down; nil when not from 0 to `maxZoom`.
    static func zoomLevel(_ value: Double) -> Int? {
        value.isFinite && value >= 0 && value <= Double(maxZoom) ? Int(value.rounded(.down)) : nil
    }

    private static func count(_ arguments: Arguments, _ option: String) throws -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let number = Int(text), number >= 0 else { throw UsageError("\(option): expected a whole number, got '\(text)'") }
        return number
    }

    /// Runs `body` with the cluster id `text`; a malformed id is a usage error, and one the
    /// index does not hold a search error (exit 64 too, without the usage line), naming `option`.
    private static func withClusterID<T>(_ text: String, option: String, _ body: (Int) throws -> T) throws -> T {
        guard let id = Int(text) else { throw UsageError("\(option): expected a cluster id (a whole number), got '\(text)'") }
        do {
            return try body(id)
        } catch let error as SearchError {
            throw SearchError(description: "\(option): \(error.description)")
        }
    }

    // MARK: Output

    /// How items are written: a GeoJSON FeatureCollection, NDJSON lines, or the NDJSON objects
    /// separated by commas (a batch answer's results).
    enum Layout { case featureCollection, lines, objects }

    static func render(_ items: [ClusterItem], of index: SpotIndexReader, format: Layout) throws -> [UInt8] {
        var bytes: [UInt8] = format == .featureCollection ? Array("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8) : []
        for (position, item) in items.enumerated() {
            if position > 0 && format != .lines { bytes += format == .featureCollection ? [UInt8(ascii: ","), 0x0A] : [UInt8(ascii: ",")] }
            if format == .featureCollection { try appendFeature(item, of: index, to: &bytes) } else { try appendObject(item, of: index, to: &bytes) }
            if format == .lines { bytes.append(0x0A) }
        }
        if format == .featureCollection { bytes += Array("\n]}\n".utf8) }
        return bytes
    }

    /// The NDJSON object of an item: `cluster`, `lat`, `lon`, then a cluster's `cluster_id`,
    /// `point_count`, `categories`, `expansion_zoom` and `bbox`, or a spot's `osm_type`,
    /// `osm_id`, `category` and `name`.
    static func appendObject(_ item: ClusterItem, of index: SpotIndexReader, to bytes: inout [UInt8]) throws {
        let coordinate: Coordinate
        switch item {
        case .cluster(let cluster): coordinate = cluster.coordinate
        case .spot(let spot): coordinate = try index.coordinate(at: spot)
        }
        JSONText.appendKey("cluster", first: true, to: &bytes)
        bytes += Array((item.isCluster ? "true" : "false").utf8)
        JSONText.appendKey("lat", to: &bytes)
        JSONText.appendFixedPoint(coordinate.latitudeE7, to: &bytes)
        JSONText.appendKey("lon", to: &bytes)
        JSONText.appendFixedPoint(coordinate.longitudeE7, to: &bytes)
        switch item {
        case .cluster(let cluster):
            appendClusterProperties(cluster, to: &bytes)
            JSONText.appendKey("bbox", to: &bytes)
            appendBox(cluster.boundingBox, to: &bytes)
        case .spot(let spot):
            try appendSpotProperties(spot, of: index, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The GeoJSON feature of an item: a cluster's properties as supercluster's (`cluster`,
    /// `cluster_id`, `point_count`, `point_count_abbreviated`) with `categories` and
    /// `expansion_zoom`, and its box as the feature's `bbox`; a spot's `id` is its reference.
    static func appendFeature(_ item: ClusterItem, of index: SpotIndexReader, to bytes: inout [UInt8]) throws {
        JSONText.appendKey("type", first: true, to: &bytes)
        bytes += Array("\"Feature\"".utf8)
        let coordinate: Coordinate
        switch item {
        case .cluster(let cluster):
            if let id = cluster.id {
                JSONText.appendKey("id", to: &bytes)
                JSONText.appendInteger(Int64(id), to: &bytes)
            }
            JSONText.appendKey("bbox", to: &bytes)
            appendBox(cluster.boundingBox, to: &bytes)
            coordinate = cluster.coordinate
        case .spot(let spot):
            JSONText.appendKey("id", to: &bytes)
            JSONText.appendString(try index.ref(at: spot).description, to: &bytes)
            coordinate = try index.coordinate(at: spot)
        }
        JSONText.appendKey("geometry", to: &bytes)
        bytes += Array("{\"type\":\"Point\",\"coordinates\":[".utf8)
        JSONText.appendFixedPoint(coordinate.longitudeE7, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONText.appendFixedPoint(coordinate.latitudeE7, to: &bytes)
        bytes += Array("]}".utf8)
        JSONText.appendKey("properties", to: &bytes)
        JSONText.appendKey("cluster", first: true, to: &bytes)
        bytes += Array((item.isCluster ? "true" : "false").utf8)
        switch item {
        case .cluster(let cluster): appendClusterProperties(cluster, to: &bytes, abbreviated: true)
        case .spot(let spot): try appendSpotProperties(spot, of: index, to: &bytes)
        }
        bytes += Array("}}".utf8)
    }

    private static func appendClusterProperties(_ cluster: MapCluster, to bytes: inout [UInt8], abbreviated: Bool = false) {
        JSONText.appendKey("cluster_id", to: &bytes)
        if let id = cluster.id { JSONText.appendInteger(Int64(id), to: &bytes) } else { bytes += Array("null".utf8) }
        JSONText.appendKey("point_count", to: &bytes)
        JSONText.appendInteger(Int64(cluster.count), to: &bytes)
        if abbreviated {
            JSONText.appendKey("point_count_abbreviated", to: &bytes)
            bytes += Array(abbreviation(cluster.count).utf8)
        }
        JSONText.appendKey("categories", to: &bytes)
        bytes.append(UInt8(ascii: "{"))
        for (position, entry) in cluster.categories.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            // Category names are plain ASCII identifiers: nothing to escape.
            bytes.append(UInt8(ascii: "\""))
            bytes += entry.category.rawValue.utf8
            bytes += [UInt8(ascii: "\""), UInt8(ascii: ":")]
            JSONText.appendInteger(Int64(entry.count), to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        JSONText.appendKey("expansion_zoom", to: &bytes)
        JSONText.appendInteger(Int64(cluster.expansionZoom), to: &bytes)
    }

    private static func appendSpotProperties(_ spot: Int, of index: SpotIndexReader, to bytes: inout [UInt8]) throws {
        let ref = try index.ref(at: spot)
        JSONText.appendKey("osm_type", to: &bytes)
        JSONText.appendString(ref.type.name, to: &bytes)
        JSONText.appendKey("osm_id", to: &bytes)
        JSONText.appendInteger(ref.id, to: &bytes)
        JSONText.appendKey("category", to: &bytes)
        JSONText.appendString(try index.kind(at: spot).category?.rawValue, to: &bytes)
        JSONText.appendKey("name", to: &bytes)
        JSONText.appendString(try index.name(at: spot), to: &bytes)
    }

    /// `[minlon, minlat, maxlon, maxlat]`.
    private static func appendBox(_ box: GeoBox, to bytes: inout [UInt8]) {
        for (position, value) in [box.westE7, box.southE7, box.eastE7, box.northE7].enumerated() {
            bytes.append(position == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
            JSONText.appendFixedPoint(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// supercluster's `point_count_abbreviated`: 950, "1.2k", "15k".
    private static func abbreviation(_ count: Int) -> String {
        count >= 10_000 ? "\"\(Int((Double(count) / 1000).rounded()))k\""
            : count >= 1000 ? "\"\(String(format: "%g", (Double(count) / 100).rounded() / 10))k\"" : "\(count)"
    }
}

extension ClusterItem {
    /// Whether the item is a cluster (not a single spot).
    var isCluster: Bool {
        if case .cluster = self { return true }
        return false
    }
}

/// One line of `spots cluster --batch`: `{"bbox":[...],"zoom":z,"categories":[...]}`.
enum ClusterBatchRequest {
    static func parse(_ line: Data) throws -> ClusterRequest {
        guard case .object(let object)? = try? JSONLine.parse(line) else { throw BatchRequest.Failure(description: "not a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !["bbox", "zoom", "categories"].contains($0) }) {
            throw BatchRequest.Failure(description: "unknown key \"\(unknown)\"")
        }
        guard let bbox = object["bbox"] else { throw BatchRequest.Failure(description: "bbox: missing") }
        guard case .number(let number)? = object["zoom"], let zoom = ClusterCommand.zoomLevel(number) else {
            throw BatchRequest.Failure(description: "zoom: expected a zoom from 0 to \(ClusterCommand.maxZoom)")
        }
        var request = ClusterRequest(region: try BatchRequest.region(bbox), zoom: zoom)
        if let categories = object["categories"] {
            request.pointOfInterestFilter = PointOfInterestFilter(including: try BatchRequest.categories(categories, key: "categories"))
        }
        return request
    }
}
