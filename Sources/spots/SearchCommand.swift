import Foundation
import SpotExport
import SpotIndex
import SpotSearch
import Spots

/// `spots search INDEX ...`: nearby, region, text and category queries; lookups by reference;
/// batches of JSON requests.
enum SearchCommand {
    static let options = [
        OptionSpec(names: ["--near"], valueName: "lat,lon", help: "Nearest first from this point: LAT,LON (as people\nand MapKit say it), e.g. 60.1699,24.9384."),
        OptionSpec(names: ["--radius"], valueName: "metres", help: "Only spots within this distance of --near."),
        OptionSpec(names: ["--bbox"], valueName: "box", help: "Only spots in MINLON,MINLAT,MAXLON,MAXLAT (as GeoJSON\nand osmium say it); MINLON > MAXLON crosses 180°."),
        OptionSpec(names: ["--category"], valueName: "c,...", help: "Only these categories (cafe,museum)."),
        OptionSpec(names: ["--exclude-category"], valueName: "c,...", help: "All but these categories."),
        OptionSpec(names: ["--query"], valueName: "text", help: "Name words (prefixes; substrings in CJK) and\ncategory words (\"cafe\", \"カフェ\")."),
        OptionSpec(names: ["--limit"], valueName: "n", help: "At most this many results (default 20)."),
        OptionSpec(names: ["--format"], valueName: "format", help: "table (default), ndjson or geojson."),
        OptionSpec(names: ["--id"], valueName: "refs", help: "The spots for these OSM references (n123,w45,r6),\nin the order given."),
        OptionSpec(names: ["--batch"], valueName: "file", help: "One JSON request per line (- for stdin); one JSON\nline of results per request."),
        Help.option,
    ]

    static let help = Help(
        overview: "Search an index: nearby, in a region, by text and category, or by OSM reference.",
        usage: "spots search <index> [--near LAT,LON] [--radius METRES] [--bbox MINLON,MINLAT,MAXLON,MAXLAT] [--category C,...] [--exclude-category C,...] [--query TEXT] [--limit N] [--format table|ndjson|geojson] | --id REFS | --batch FILE",
        arguments: [("<index>", "An index written by 'spots build'.")],
        options: options,
        discussion: """
            Results are nearest first (from --near, else the centre of --bbox), ties by OSM type and
            id; a text search without a place is ordered by how well names match. Batch requests:
            {"near":[lat,lon],"radius":m,"bbox":[minlon,minlat,maxlon,maxlat],"categories":[...],
            "exclude":[...],"query":"...","limit":n}, every key optional; a bad line gives
            {"error":"..."} and the rest go on.
            """)

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let format = arguments.value("--format") ?? "table"
        guard ["table", "ndjson", "geojson"].contains(format) else {
            throw UsageError("--format must be table, ndjson or geojson, not '\(format)'")
        }
        let search = try SpotSearch(index: try SpotIndexReader(path: path))
        if let batch = arguments.value("--batch") {
            return try runBatch(batch, search: search)
        }
        let results: [SearchResult]
        if let ids = arguments.value("--id") {
            results = try ids.split(separator: ",").map { text in
                guard let ref = parseRef(String(text)) else { throw UsageError("--id: '\(text)' is not a reference like n123, w45 or r6") }
                guard let spot = try search.spot(for: ref) else { throw UsageError("--id: no spot for \(text)") }
                return SearchResult(spot: spot, distance: nil)
            }
        } else {
            results = try search.search(try request(from: arguments))
        }
        print(render(results, format: format), terminator: "")
    }

    /// The request the flags describe.
    static func request(from arguments: Arguments) throws -> SearchRequest {
        var request = SearchRequest()
        if let near = arguments.value("--near") {
            let parts = near.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let point = coordinate(latitude: parts[0], longitude: parts[1]) else {
                throw UsageError("--near: expected LAT,LON in degrees, got '\(near)'")
            }
            request.near = point
        }
        if let radius = arguments.value("--radius") {
            guard let metres = Double(radius), metres >= 0 else { throw UsageError("--radius: expected metres, got '\(radius)'") }
            guard request.near != nil else { throw UsageError("--radius needs --near") }
            request.radius = metres
        }
        if let bbox = arguments.value("--bbox") { request.region = try region(bbox) }
        if let names = arguments.value("--category") {
            request.pointOfInterestFilter = PointOfInterestFilter(including: try categories(names, option: "--category"))
        }
        if let names = arguments.value("--exclude-category") {
            guard request.pointOfInterestFilter == nil else { throw UsageError("give --category or --exclude-category, not both") }
            request.pointOfInterestFilter = PointOfInterestFilter(excluding: try categories(names, option: "--exclude-category"))
        }
        request.naturalLanguageQuery = arguments.value("--query")
        if let limit = arguments.value("--limit") {
            guard let count = Int(limit), count >= 0 else { throw UsageError("--limit: expected a whole number, got '\(limit)'") }
            request.limit = count
        }
        return request
    }

    /// Answers each JSON request line with one JSON line, in order.
    static func runBatch(_ file: String, search: SpotSearch) throws {
        try BatchLines.run(file) { line in
            let results = try search.rankedSpots(try BatchRequest.parse(line))
            var answer = Array("{\"results\":[".utf8)
            for (position, result) in results.enumerated() {
                if position > 0 { answer.append(UInt8(ascii: ",")) }
                try SpotExporter.brief(result.spot, of: search.index, distance: result.distance, to: &answer)
            }
            return answer + Array("]}".utf8)
        }
    }

    static func render(_ results: [SearchResult], format: String) -> String {
        switch format {
        case "ndjson":
            return results.map { String(decoding: SpotExporter.ndjson($0.spot, distance: .some($0.distance)), as: UTF8.self) + "\n" }.joined()
        case "geojson":
            return "{\"type\":\"FeatureCollection\",\"features\":[\n"
                + results.map { String(decoding: SpotExporter.geojson($0.spot, distance: .some($0.distance)), as: UTF8.self) }.joined(separator: ",\n") + "\n]}\n"
        default:
            var rows = [["distance", "category", "name", "osm", "lat,lon"]]
            for result in results {
                let spot = result.spot
                rows.append([
                    result.distance.map { String(format: "%.0f m", $0) } ?? "-", spot.category?.rawValue ?? spot.tag, spot.name ?? "-",
                    spot.ref.description,
                    Coordinate.decimalString(spot.coordinate.latitudeE7) + "," + Coordinate.decimalString(spot.coordinate.longitudeE7),
                ])
            }
            let widths = (0..<5).map { column in rows.map { displayWidth($0[column]) }.max()! }
            return rows.map { row in
                row.enumerated().map { column, text in
                    column == 4 ? text : text + String(repeating: " ", count: widths[column] + 2 - displayWidth(text))
                }.joined()
            }.joined(separator: "\n") + "\n" + (results.isEmpty ? "(no spots)\n" : "")
        }
    }

    /// Columns a terminal gives `text`: two for East Asian wide characters, one for the rest.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
                0x20000...0x3FFFD:
                width + 2
            default: width + (scalar.properties.generalCategory == .nonspacingMark ? 0 : 1)
            }
        }
    }

    /// The region of a `--bbox` value: MINLON,MINLAT,MAXLON,MAXLAT in degrees.
    static func region(_ bbox: String) throws -> GeoBox {
        let parts = bbox.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let region = GeoBox(west: parts[0], south: parts[1], east: parts[2], north: parts[3]) else {
            throw UsageError("--bbox: expected MINLON,MINLAT,MAXLON,MAXLAT in degrees, got '\(bbox)'")
        }
        return region
    }

    static func categories(_ names: String, option: String) throws -> Set<Category> {
        Set(try names.split(separator: ",").map { name in
            guard let category = Category(rawValue: String(name)) else { throw UsageError("\(option): unknown category '\(name)'") }
            return category
        })
    }

    static func coordinate(latitude: Double, longitude: Double) -> Coordinate? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        return Coordinate(latitudeE7: Int32(exactly: (latitude * 1e7).rounded()) ?? .max, longitudeE7: Int32(exactly: (longitude * 1e7).rounded()) ?? .max)
    }

    /// "n123" → node 123; "w-5" → way -5.
    static func parseRef(_ text: String) -> OSMRef? {
        guard let letter = text.first, let id = Int64(text.dropFirst()),
            let type = OSMType.allCases.first(where: { $0.letter == letter })
        else { return nil }
        return OSMRef(type, id)
    }
}

/// One line of `--batch`: a JSON object with optional near, radius, bbox, categories, exclude,
/// query and limit.
enum BatchRequest {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ line: Data) throws -> SearchRequest {
        guard case .object(let object)? = try? JSONLine.parse(line) else { throw Failure(description: "not a JSON object") }
        let known: Set<String> = ["near", "radius", "bbox", "categories", "exclude", "query", "limit"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) { throw Failure(description: "unknown key \"\(unknown)\"") }
        var request = SearchRequest()
        if let near = object["near"] {
            guard let pair = numbers(near), pair.count == 2, let point = SearchCommand.coordinate(latitude: pair[0], longitude: pair[1]) else {
                throw Failure(description: "near: expected [lat, lon]")
            }
            request.near = point
        }
        if let radius = object["radius"] {
            guard case .number(let metres) = radius, metres >= 0 else { throw Failure(description: "radius: expected metres") }
            request.radius = metres
        }
        if let bbox = object["bbox"] { request.region = try region(bbox) }
        for (key, including) in [("categories", true), ("exclude", false)] {
            guard let value = object[key] else { continue }
            let categories = try categories(value, key: key)
            guard request.pointOfInterestFilter == nil else { throw Failure(description: "give categories or exclude, not both") }
            request.pointOfInterestFilter = including ? PointOfInterestFilter(including: categories) : PointOfInterestFilter(excluding: categories)
        }
        if let query = object["query"] {
            guard case .string(let text) = query else { throw Failure(description: "query: expected a string") }
            request.naturalLanguageQuery = text
        }
        if let limit = object["limit"] {
            guard case .number(let number) = limit, number >= 0, number == number.rounded(), number < 1e9 else {
                throw Failure(description: "limit: expected a whole number")
            }
            request.limit = Int(number)
        }
        return request
    }

    /// The region of a `bbox` value: [minlon, minlat, maxlon, maxlat].
    static func region(_ value: JSONLine.Value) throws -> GeoBox {
        guard let box = numbers(value), box.count == 4,
            let region = GeoBox(west: box[0], south: box[1], east: box[2], north: box[3])
        else { throw Failure(description: "bbox: expected [minlon, minlat, maxlon, maxlat]") }
        return region
    }

    /// The categories of a `categories` (or `exclude`) value named `key`: an array of names.
    static func categories(_ value: JSONLine.Value, key: String) throws -> Set<Category> {
        guard case .array(let items) = value else { throw Failure(description: "\(key): expected an array of category names") }
        return try Set(items.map { item in
            guard case .string(let name) = item, let category = Category(rawValue: name) else {
                throw Failure(description: "\(key): expected known category names")
            }
            return category
        })
    }

    /// The numbers of a JSON array of numbers.
    private static func numbers(_ value: JSONLine.Value) -> [Double]? {
        guard case .array(let items) = value else { return nil }
        var result: [Double] = []
        for item in items {
            guard case .number(let number) = item else { return nil }
            result.append(number)
        }
        return result
    }
}
