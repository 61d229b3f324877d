import Foundation
import SpotTestSupport
import Testing

@Suite("spots cluster end to end")
struct ClusterCommandTests {
    /// The JSON objects of NDJSON output.
    static func objects(_ run: SpotsCLI.Run) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func count(_ object: [String: Any]) -> Int {
        object["cluster"] as? Bool == true ? (object["point_count"] as! NSNumber).intValue : 1
    }

    @Test(
        "GeoJSON like supercluster's: cluster features with cluster_id, point_count, categories, expansion_zoom and bbox; spots with their references"
    )
    func geojson() throws {
        try withSampleIndex { _, index in
            let run = try SpotsCLI.run(["cluster", index, "--bbox", "24.92,60.16,24.96,60.18", "--zoom", "15.7"])
            #expect(run.status == 0, "\(run.stderr)")
            let collection = try #require(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
            #expect(collection["type"] as? String == "FeatureCollection")
            let features = try #require(collection["features"] as? [[String: Any]])
            let clusters = features.filter { ($0["properties"] as? [String: Any])?["cluster"] as? Bool == true }
            #expect(!clusters.isEmpty && clusters.count < features.count)
            for feature in clusters {
                let properties = feature["properties"] as! [String: Any]
                #expect(properties["cluster_id"] as? Int == feature["id"] as? Int)
                #expect((properties["point_count"] as? Int ?? 0) >= 2)
                #expect((properties["expansion_zoom"] as? Int ?? 0) >= 16)
                let categories = try #require(properties["categories"] as? [String: Int])
                #expect(categories.values.reduce(0, +) <= properties["point_count"] as! Int)
                #expect((feature["bbox"] as? [Double])?.count == 4)
                let point = ((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double]) ?? []
                #expect(point.count == 2 && (24.92...24.96).contains(point[0]) && (60.16...60.18).contains(point[1]))
            }
            let spot = try #require(
                features.first { ($0["properties"] as? [String: Any])?["cluster"] as? Bool == false })
            #expect((spot["id"] as? String)?.first == "n")
            #expect((spot["properties"] as? [String: Any])?["osm_type"] as? String == "node")
        }
    }

    @Test(
        "NDJSON over the world counts every spot once at every zoom; zoom 0 is a cluster per city; above the maximum zoom all are single"
    )
    func ndjson() throws {
        try withSampleIndex { _, index in
            let total = try SpotsCLI.run(["export", index]).output.split(separator: "\n").count
            for zoom in [0, 5, 12, 16, 17] {
                let objects = try Self.objects(
                    try SpotsCLI.run([
                        "cluster", index, "--bbox", "-180,-90,180,90", "--zoom", "\(zoom)", "--format", "ndjson",
                    ]))
                #expect(objects.map(Self.count).reduce(0, +) == total, "zoom \(zoom)")
                #expect(objects.allSatisfy { $0["lat"] is NSNumber && $0["lon"] is NSNumber })
                #expect(
                    objects.allSatisfy {
                        $0["cluster"] as? Bool == true
                            ? $0["point_count"] != nil : $0["osm_id"] != nil && $0["osm_type"] != nil
                    })
                if zoom == 0 { #expect(objects.count == 2, "Helsinki and Himeji") }
                if zoom == 17 { #expect(objects.count == total) }
            }
        }
    }

    @Test("--children add up to the cluster; --leaves pages through exactly its spots")
    func childrenAndLeaves() throws {
        try withSampleIndex { _, index in
            let top = try Self.objects(
                try SpotsCLI.run(["cluster", index, "--bbox", "-180,-90,180,90", "--zoom", "0", "--format", "ndjson"]))
            let cluster = try #require(top.first { ($0["point_count"] as? Int ?? 0) > 100 })
            let id = "\(cluster["cluster_id"] as! Int)"
            let children = try Self.objects(
                try SpotsCLI.run(["cluster", index, "--children", id, "--format", "ndjson"]))
            #expect(children.map(Self.count).reduce(0, +) == cluster["point_count"] as! Int)
            var leaves: [String] = []
            while true {
                let page = try Self.objects(
                    try SpotsCLI.run([
                        "cluster", index, "--leaves", id, "--limit", "250", "--offset", "\(leaves.count)", "--format",
                        "ndjson",
                    ]))
                leaves += page.map { "\($0["osm_type"]!)/\($0["osm_id"]!)" }
                if page.count < 250 { break }
            }
            #expect(leaves.count == cluster["point_count"] as! Int && Set(leaves).count == leaves.count)
            let first = try SpotsCLI.run(["cluster", index, "--leaves", id])
            let features =
                (try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])?["features"] as? [Any]
            #expect(features?.count == 10, "ten leaves by default")
        }
    }

    @Test("--category clusters only those categories, at query time, without ids")
    func category() throws {
        try withSampleIndex { _, index in
            let objects = try Self.objects(
                try SpotsCLI.run([
                    "cluster", index, "--bbox", "-180,-90,180,90", "--zoom", "3", "--category", "cafe", "--format",
                    "ndjson",
                ]))
            let cafes = try SpotsCLI.run([
                "search", index, "--category", "cafe", "--limit", "100000", "--format", "ndjson",
            ]).output.split(separator: "\n").count
            #expect(cafes > 0 && objects.map(Self.count).reduce(0, +) == cafes)
            #expect(
                objects.allSatisfy {
                    $0["cluster"] as? Bool == false
                        ? $0["category"] as? String == "cafe"
                        : ($0["categories"] as? [String: Int])?.keys.sorted() == ["cafe"]
                })
            #expect(objects.allSatisfy { $0["cluster"] as? Bool == false || $0["cluster_id"] is NSNull })
        }
    }

    @Test("--batch answers one line per request in order, an error line for a bad request, and goes on")
    func batch() throws {
        try withSampleIndex { _, index in
            let requests = """
                {"bbox":[-180,-90,180,90],"zoom":0}
                {"bbox":[24.92,60.16,24.96,60.18],"zoom":14,"categories":["cafe","museum"]}
                {"bbox":[24.92,60.16,24.96,60.18]}
                not json
                {"bbox":[170,-10,-170,10],"zoom":2}
                {"bbox":[0,0,1,1],"zoom":3,"radius":5}

                """
            let run = try SpotsCLI.run(["cluster", index, "--batch", "-"], stdin: Data(requests.utf8))
            #expect(run.status == 0)
            let lines = run.output.split(separator: "\n").map {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.count == 6)
            #expect((lines[0]?["results"] as? [[String: Any]])?.count == 2)
            let filtered = try #require(lines[1]?["results"] as? [[String: Any]])
            #expect(
                !filtered.isEmpty
                    && filtered.allSatisfy { $0["cluster"] as? Bool == false || $0["cluster_id"] is NSNull })
            #expect(lines[2]?["error"] as? String == "zoom: expected a zoom from 0 to 30")
            #expect(lines[3]?["error"] as? String == "not a JSON object")
            #expect((lines[4]?["results"] as? [Any])?.isEmpty == true, "a box across the antimeridian with no spots")
            #expect((lines[5]?["error"] as? String)?.contains("radius") == true)
        }
    }

    @Test("usage errors exit 64 naming the argument; an unknown cluster id exits 64; a damaged index exits 65")
    func errors() throws {
        try withSampleIndex { folder, index in
            let usage: [([String], String)] = [
                (["--zoom", "3"], "give --bbox and --zoom"),
                (["--bbox", "0,0,1,1"], "--bbox needs --zoom"),
                (["--bbox", "0,0,1", "--zoom", "1"], "--bbox: expected"),
                (["--bbox", "0,0,1,1", "--zoom", "-1"], "--zoom: expected a number from 0 to 30, got '-1'"),
                (["--bbox", "0,0,1,1", "--zoom", "x"], "--zoom: expected a number from 0 to 30, got 'x'"),
                (["--bbox", "0,0,1,1", "--zoom", "1", "--children", "0"], "not several"),
                (["--leaves", "0", "--zoom", "1"], "--zoom goes with --bbox"),
                (["--children", "0", "--limit", "1"], "--limit goes with --leaves"),
                (["--leaves", "0", "--limit", "-1"], "--limit: expected"),
                (["--bbox", "0,0,1,1", "--zoom", "1", "--category", "cafes"], "unknown category 'cafes'"),
                (
                    ["--bbox", "0,0,1,1", "--zoom", "1", "--format", "csv"],
                    "--format: expected geojson or ndjson, got 'csv'"
                ),
                (["--children", "x"], "--children: expected a whole number of at least 0, got 'x'"),
                (["--leaves", "-1"], "--leaves: expected a whole number of at least 0, got '-1'"),
                (["--children", "99999"], "--children: no cluster 99999"),
                (["--leaves", "99999"], "--leaves: no cluster 99999"),
            ]
            for (arguments, message) in usage {
                let run = try SpotsCLI.run(["cluster", index] + arguments)
                #expect(run.status == 64, "\(arguments)")
                #expect(run.stderr.hasPrefix("spots: ") && run.stderr.contains(message), "\(arguments): \(run.stderr)")
                // A well-formed request for a cluster the index does not hold is one line, without
                // the usage that follows a mistake in calling the command.
                let isRequest = message.contains("no cluster")
                #expect(run.stderr.contains("USAGE:") != isRequest, "\(arguments): \(run.stderr)")
            }
            var bytes = try Data(contentsOf: URL(fileURLWithPath: index))
            bytes[bytes.count - 3] ^= 0xFF
            let damaged = folder.url.appendingPathComponent("damaged.spots")
            try bytes.write(to: damaged)
            #expect(
                try SpotsCLI.run(["cluster", damaged.path, "--bbox", "-180,-90,180,90", "--zoom", "20"]).status == 0,
                "SVIS's last byte is a tree box's: not read above the maximum zoom")
            var header = try Data(contentsOf: URL(fileURLWithPath: index))
            header[40] ^= 0xFF
            try header.write(to: damaged)
            let corrupt = try SpotsCLI.run(["cluster", damaged.path, "--bbox", "-180,-90,180,90", "--zoom", "3"])
            #expect(corrupt.status == 65 && corrupt.stderr.contains("checksum"))
            #expect(try SpotsCLI.run(["cluster", folder.path("missing.spots"), "--children", "0"]).status == 66)
        }
    }

    @Test("an index built with --no-clusters is smaller and still clusters, at query time, without ids")
    func noClusters() throws {
        try withSampleIndex { folder, with in
            let without = folder.path("plain.spots")
            #expect(try SpotsCLI.run(["build", helsinki, himeji, "-o", without, "-q", "--no-clusters"]).status == 0)
            let size = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int }
            #expect(try size(without) < size(with))
            let objects = try Self.objects(
                try SpotsCLI.run(["cluster", without, "--bbox", "-180,-90,180,90", "--zoom", "0", "--format", "ndjson"])
            )
            #expect(objects.count == 2 && objects.allSatisfy { $0["cluster_id"] is NSNull })
            let refused = try SpotsCLI.run(["cluster", without, "--children", "0"])
            #expect(refused.status == 64 && refused.stderr.contains("no cluster levels"))
        }
    }

    @Test("the pipeline's clusters settings are validated (exit 78) and recorded in the index")
    func pipelineSettings() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pipeline = folder.url.appendingPathComponent("city.json")
        try Data(#"{"clusters": {"max_zoom": 25}}"#.utf8).write(to: pipeline)
        let bad = try SpotsCLI.run(["build", helsinki, "-o", folder.path("x.spots"), "--pipeline", pipeline.path, "-q"])
        #expect(bad.status == 78 && bad.stderr.contains(".clusters.max_zoom"))
        try Data(#"{"clusters": {"max_zoom": 10, "radius": 40}}"#.utf8).write(to: pipeline)
        let index = folder.path("city.spots")
        #expect(try SpotsCLI.run(["build", helsinki, "-o", index, "--pipeline", pipeline.path, "-q"]).status == 0)
        let inspect = try SpotsCLI.run(["inspect", index, "--verbose"]).output
        #expect(inspect.contains("section CLUS"))
        let above = try Self.objects(
            try SpotsCLI.run(["cluster", index, "--bbox", "-180,-90,180,90", "--zoom", "11", "--format", "ndjson"]))
        #expect(
            !above.isEmpty && above.allSatisfy { $0["cluster"] as? Bool == false },
            "every spot single above max_zoom 10")
    }
}
