import Foundation
import SpotCluster
import SpotIndex
import SpotJSON
import SpotOutput
import SpotSearch
import Spots

/// The formats `spots cluster` prints clusters and single spots in.
public enum ClusterFormat: String, CaseIterable, Sendable {
    /// A GeoJSON FeatureCollection as supercluster's `getClusters` gives it.
    case geojson
    /// One JSON object per line, per cluster or spot.
    case ndjson

    /// `items`, whose spots are numbers in `index`, in this format, as UTF-8.
    public func render(_ items: [ClusterItem], of index: SpotIndexReader) throws -> [UInt8] {
        switch self {
        case .geojson:
            return try GeoJSON.collection(count: items.count) { try ClusterJSON.feature(items[$0], of: index) }
        case .ndjson:
            var bytes: [UInt8] = []
            for item in items {
                try ClusterJSON.appendObject(item, of: index, to: &bytes)
                bytes.append(0x0A)
            }
            return bytes
        }
    }
}

/// Clusters and single spots as JSON: the NDJSON object and the GeoJSON Feature of an item.
enum ClusterJSON {
    /// Appends the NDJSON object of an item: `cluster`, `lat`, `lon`, then a cluster's
    /// `cluster_id`, `point_count`, `categories`, `expansion_zoom` and `bbox`, or a spot's
    /// `osm_type`, `osm_id`, `category` and `name`.
    static func appendObject(_ item: ClusterItem, of index: SpotIndexReader, to bytes: inout [UInt8]) throws {
        JSONText.appendKey("cluster", first: true, to: &bytes)
        switch item {
        case .cluster(let cluster):
            bytes += Array("true".utf8)
            IndexedSpotFields.appendLatitudeLongitude(cluster.coordinate, to: &bytes)
            appendClusterProperties(cluster, to: &bytes)
            JSONText.appendKey("bbox", to: &bytes)
            appendBox(cluster.boundingBox, to: &bytes)
        case .spot(let spot):
            bytes += Array("false".utf8)
            IndexedSpotFields.appendLatitudeLongitude(try index.coordinate(at: spot), to: &bytes)
            try appendSpotProperties(spot, of: index, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The GeoJSON Feature of an item: a cluster's properties as supercluster's (`cluster`,
    /// `cluster_id`, `point_count`, `point_count_abbreviated`) with `categories` and
    /// `expansion_zoom`, and its box as the feature's `bbox`; a spot's `id` is its reference.
    static func feature(_ item: ClusterItem, of index: SpotIndexReader) throws -> [UInt8] {
        var bytes: [UInt8] = []
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
        GeoJSON.appendPoint(coordinate, to: &bytes)
        JSONText.appendKey("properties", to: &bytes)
        JSONText.appendKey("cluster", first: true, to: &bytes)
        switch item {
        case .cluster(let cluster):
            bytes += Array("true".utf8)
            appendClusterProperties(cluster, to: &bytes, abbreviated: true)
        case .spot(let spot):
            bytes += Array("false".utf8)
            try appendSpotProperties(spot, of: index, to: &bytes)
        }
        bytes += Array("}}".utf8)
        return bytes
    }

    /// Appends `,"cluster_id":…,"point_count":…`, supercluster's `point_count_abbreviated`
    /// when `abbreviated`, then `categories` (category to count) and `expansion_zoom`.
    private static func appendClusterProperties(
        _ cluster: MapCluster, to bytes: inout [UInt8], abbreviated: Bool = false
    ) {
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

    /// Appends a single spot's `osm_type`, `osm_id`, `category` and `name`.
    private static func appendSpotProperties(_ spot: Int, of index: SpotIndexReader, to bytes: inout [UInt8]) throws {
        try IndexedSpotFields.appendReference(of: spot, in: index, to: &bytes)
        try IndexedSpotFields.appendLabel(of: spot, in: index, to: &bytes)
    }

    /// Appends a box as GeoJSON writes one: `[minlon, minlat, maxlon, maxlat]`.
    private static func appendBox(_ box: GeoBox, to bytes: inout [UInt8]) {
        let edges = [box.westE7, box.southE7, box.eastE7, box.northE7]
        for (position, value) in edges.enumerated() {
            bytes.append(position == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
            JSONText.appendFixedPoint(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// supercluster's `point_count_abbreviated`: 950, "1.2k", "15k".
    private static func abbreviation(_ count: Int) -> String {
        if count >= 10_000 { return "\"\(Int((Double(count) / 1000).rounded()))k\"" }
        if count >= 1000 { return "\"\(String(format: "%g", (Double(count) / 100).rounded() / 10))k\"" }
        return "\(count)"
    }
}

extension ClusterFormat: OutputFormat {
    /// `.ndjson`/`.jsonl` NDJSON, `.geojson`/`.json` GeoJSON; `.csv`, `.html` and `.txt` refused.
    public static let byExtension: [String: ClusterFormat?] = [
        "ndjson": .ndjson, "jsonl": .ndjson, "geojson": .geojson, "json": .geojson, "csv": nil, "html": nil, "txt": nil,
    ]
    /// GeoJSON.
    public static let byDefault = ClusterFormat.geojson
}
