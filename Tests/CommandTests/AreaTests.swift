import Foundation
import SpotTestSupport
import Testing

/// Whether osmium-tool runs here (the independent reader of area geometry).
let hasOsmium: Bool =
    (try? shell("osmium --version >/dev/null 2>&1 && echo yes"))
    .map { String(decoding: $0, as: UTF8.self).hasPrefix("yes") } ?? false

/// A spot's reference as the export writes it: ("way", 45).
func reference(_ object: [String: Any]) -> String {
    "\(object["osm_type"] as! String)/\((object["osm_id"] as! NSNumber).int64Value)"
}

/// A fixed-point coordinate pair (longitude, latitude) × 10^7 from a JSON number pair.
func fixedPoint(_ pair: Any) -> (x: Double, y: Double) {
    let numbers = pair as! [NSNumber]
    return ((numbers[0].doubleValue * 1e7).rounded(), (numbers[1].doubleValue * 1e7).rounded())
}

/// Whether (x, y) lies inside the GeoJSON polygon or multipolygon `coordinates` (every ring
/// counted: even-odd), or within a fixed-point step of an edge.
func polygonHolds(_ coordinates: [[[Any]]], x: Double, y: Double) -> Bool {
    var inside = false
    for ring in coordinates {
        let points = ring.map(fixedPoint)
        for (p, q) in zip(points, points.dropFirst()) {
            if segmentDistance(p, q, x: x, y: y) <= 1 { return true }
            if (p.y > y) != (q.y > y) && x < p.x + (y - p.y) * (q.x - p.x) / (q.y - p.y) { inside.toggle() }
        }
    }
    return inside
}

/// The distance in fixed-point units from (x, y) to segment p–q.
func segmentDistance(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), x: Double, y: Double) -> Double {
    let dx = q.x - p.x
    let dy = q.y - p.y
    let t = dx == 0 && dy == 0 ? 0 : max(0, min(1, ((x - p.x) * dx + (y - p.y) * dy) / (dx * dx + dy * dy)))
    return ((p.x + t * dx - x) * (p.x + t * dx - x) + (p.y + t * dy - y) * (p.y + t * dy - y)).squareRoot()
}

@Suite("Places mapped as areas")
struct AreaTests {
    let fixture = SpotsCLI.fixtures.appendingPathComponent("areas.osm").path

    @Test(
        "closed ways and multipolygons stand at a point inside them, open ways halfway along; broken ones are counted")
    func areaFixture() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spots = try SpotsCLI.buildAndExport([fixture], flags: ["--keep-all", "--no-dedupe"], in: folder)
        let byRef = Dictionary(uniqueKeysWithValues: spots.map { (reference($0), $0) })
        #expect(Set(byRef.keys) == ["node/17", "way/105", "way/106", "relation/200"])
        // The university's centroid (34.845, 134.695) falls in its hole: the point is on the
        // middle latitude, in the middle of the widest stretch inside.
        #expect(
            sevenDecimals(byRef["relation/200"]?["lat"]) == "34.8450000"
                && sevenDecimals(byRef["relation/200"]?["lon"]) == "134.6910000")
        #expect(
            sevenDecimals(byRef["way/105"]?["lat"]) == "34.8600000"
                && sevenDecimals(byRef["way/105"]?["lon"]) == "134.6950000")
        #expect(
            sevenDecimals(byRef["way/106"]?["lat"]) == "34.8750000"
                && sevenDecimals(byRef["way/106"]?["lon"]) == "134.6950000")
        let inspect = try SpotsCLI.run(["inspect", folder.path("out.spots")]).output
        #expect(inspect.contains("spots             4 (1 nodes, 2 ways, 1 relations)"), "\(inspect)")
        #expect(
            inspect.contains("8 → 4 (broken_rings 1, missing_members 1, missing_nodes 1, not_multipolygons 1)"),
            "\(inspect)")
    }

    @Test("a node inside a same-name area is that place: the node stays, filled from the area, the area merged")
    func nodeAbsorbsArea() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spots = try SpotsCLI.buildAndExport([fixture], flags: [], in: folder)
        let museum = try #require(spots.first { reference($0) == "node/17" })
        #expect(museum["merged"] as? [String] == ["w106"])
        #expect(museum["website"] as? String == "https://museum.example")
        #expect(sevenDecimals(museum["lat"]) == "34.8790000")
        #expect(!spots.contains { reference($0) == "way/106" })
    }

    @Test("--no-areas and the pipeline's areas false read nodes only")
    func noAreas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try SpotsCLI.buildAndExport([fixture], in: folder).map(reference) == ["node/17"])
        let pipeline = folder.url.appendingPathComponent("nodes.json")
        try Data(#"{"areas": false, "keep_all": true}"#.utf8).write(to: pipeline)
        let index = folder.path("p.spots")
        #expect(try SpotsCLI.run(["build", fixture, "--pipeline", pipeline.path, "-o", index, "-q"]).status == 0)
        #expect(
            try SpotsCLI.run(["inspect", index]).output.contains("spots             1 (1 nodes, 0 ways, 0 relations)"))
    }

    @Test(
        "the way and relation spots of each real extract are osmium's amenity/tourism areas and lines, each point inside its polygon or on its line",
        .enabled(if: SpotsCLI.hasSharedData, "../shared/data is absent: real-data comparison skipped"),
        .enabled(if: hasOsmium, "osmium-tool is absent: area comparison skipped"),
        arguments: realExtracts.map(\.file).filter { $0 != "pois-union.osm.gz" })
    func matchesOsmium(_ file: String) throws {
        let input = SpotsCLI.sharedData.appendingPathComponent(file).path
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ours = try SpotsCLI.buildAndExport([input], flags: ["--keep-all", "--no-dedupe"], in: folder).filter {
            $0["osm_type"] as? String != "node"
        }
        let export = try shell(
            "osmium export '\(input)' -f geojsonseq -x print_record_separator=false -a type,id --geometry-types=linestring,polygon"
        )
        // osmium writes a closed way as a line and as a polygon: the polygon is its area.
        var theirs: [String: [String: Any]] = [:]
        for line in String(decoding: export, as: UTF8.self).split(separator: "\n") {
            let feature = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let properties = feature["properties"] as! [String: Any]
            guard properties["amenity"] != nil || properties["tourism"] != nil else { continue }
            let key = "\(properties["@type"] as! String)/\((properties["@id"] as! NSNumber).int64Value)"
            let geometry = feature["geometry"] as! [String: Any]
            if theirs[key] == nil || geometry["type"] as? String != "LineString" { theirs[key] = geometry }
        }
        #expect(!ours.isEmpty)
        #expect(Set(ours.map(reference)) == Set(theirs.keys))
        var outside: [String] = []
        for spot in ours {
            guard let geometry = theirs[reference(spot)] else { continue }
            let x = ((spot["lon"] as! NSNumber).doubleValue * 1e7).rounded()
            let y = ((spot["lat"] as! NSNumber).doubleValue * 1e7).rounded()
            let coordinates = geometry["coordinates"] as! [Any]
            let holds: Bool
            switch geometry["type"] as! String {
            case "LineString":
                let points = coordinates.map(fixedPoint)
                holds = zip(points, points.dropFirst()).contains { segmentDistance($0, $1, x: x, y: y) <= 2 }
            case "Polygon":
                holds = polygonHolds(coordinates as! [[[Any]]], x: x, y: y)
            default:
                holds = (coordinates as! [[[[Any]]]]).contains { polygonHolds($0, x: x, y: y) }
            }
            if !holds { outside.append(reference(spot)) }
        }
        #expect(outside.isEmpty, "points outside their geometry: \(outside.prefix(10))")
    }
}
