import Foundation
import Spots

/// A spot on the report's map: where it is and its category's group.
public struct MapPoint: Equatable, Sendable {
    public let coordinate: Coordinate
    public let group: CategoryGroup
}

/// The HTML report's map, inline SVG in Web Mercator, north up, readable with no script: every
/// spot as a dot coloured by its category's group (MapKit, extension, none), or above
/// `dotLimit` spots a density raster of `rasterCells` cells along the longer side; with a
/// labelled latitude and longitude graticule, a scale bar in metres at the map's middle
/// latitude, and the extract's bounding box (dashed) inside a margin of a twentieth of it.
struct SpotMap {
    /// The most spots drawn one by one.
    static let dotLimit = 20_000
    /// Cells along the longer side of the raster drawn above `dotLimit` spots.
    static let rasterCells = 256
    /// The drawing's width in view-box units; the height follows the box's shape.
    static let width = 800.0
    /// The space left of and below the map for the graticule's labels.
    static let margin = 60.0
    /// The space right of the map, for the last longitude's label.
    static let rightMargin = 28.0

    let points: [MapPoint]
    let extent: GeoBox

    /// Web Mercator metres of the map's edges: the extent with a margin (at least 250 m).
    private var frame: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let (west, south) = DensityGrid.project(latitudeE7: extent.southE7, longitudeE7: extent.westE7)
        let (east, north) = DensityGrid.project(latitudeE7: extent.northE7, longitudeE7: extent.eastE7)
        let pad = max(max(east - west, north - south) / 20, 250)
        return (west - pad, south - pad, east + pad, north + pad)
    }

    /// View-box units per Web Mercator metre.
    private var scale: Double {
        let frame = frame
        return (Self.width - Self.margin - Self.rightMargin) / max(frame.maxX - frame.minX, frame.maxY - frame.minY)
    }

    private var mapWidth: Double { (frame.maxX - frame.minX) * scale }
    private var mapHeight: Double { (frame.maxY - frame.minY) * scale }

    /// Where a coordinate falls in the view box.
    private func position(latitudeE7: Int32, longitudeE7: Int32) -> (x: Double, y: Double) {
        let (x, y) = DensityGrid.project(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
        return (Self.margin + (x - frame.minX) * scale, (frame.maxY - y) * scale)
    }

    private func position(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        position(latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))
    }

    /// The map as an `<svg>` element.
    func svg() -> String {
        let height = mapHeight + Self.margin
        let parts = [
            HTML.empty(
                "rect",
                [
                    "x": number(Self.margin), "y": "0", "width": number(mapWidth), "height": number(mapHeight),
                    "class": "map-ground",
                ]),
            graticule(), spots(), boundingBox(), scaleBar(),
        ]
        return HTML.element(
            "svg",
            [
                "viewBox": "0 0 \(number(Self.margin + mapWidth + Self.rightMargin)) \(number(height))", "class": "map",
                "role": "img",
                "aria-label": "Spots on a map, Web Mercator, north up",
            ], parts.joined())
    }

    /// Dots by group, or the density raster.
    private func spots() -> String {
        guard points.count > Self.dotLimit else {
            return points.map { point in
                let (x, y) = position(
                    latitudeE7: point.coordinate.latitudeE7, longitudeE7: point.coordinate.longitudeE7)
                return HTML.empty(
                    "circle", ["cx": number(x), "cy": number(y), "r": "2", "class": "dot-\(point.group.rawValue)"])
            }.joined()
        }
        var grid = DensityGrid(box: extent, cellsOnLongerSide: Self.rasterCells)
        for point in points { grid.add(point.coordinate) }
        let maximum = Double(max(grid.maximum, 1))
        var cells: [String] = []
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let count = grid.count(column: column, row: row)
                guard count > 0 else { continue }
                let edges = grid.bounds(column: column, row: row)
                let (x, y) = position(latitude: edges.north, longitude: edges.west)
                let (right, bottom) = position(latitude: edges.south, longitude: edges.east)
                cells.append(
                    HTML.empty(
                        "rect",
                        [
                            "x": number(x), "y": number(y), "width": number(max(right - x, 0.5)),
                            "height": number(max(bottom - y, 0.5)), "class": "map-cell",
                            "fill-opacity": String(
                                format: "%.2f", 0.15 + 0.85 * (Double(count) / maximum).squareRoot()),
                        ]))
            }
        }
        return HTML.element("g", ["class": "raster", "data-cells": "\(grid.columns)x\(grid.rows)"], cells.joined())
    }

    /// Lines of longitude and latitude at a round step, labelled below and to the left.
    private func graticule() -> String {
        let frame = frame
        let west = Self.longitude(x: frame.minX)
        let east = Self.longitude(x: frame.maxX)
        let south = Self.latitude(y: frame.minY)
        let north = Self.latitude(y: frame.maxY)
        // Labels at least 80 units apart across, 30 down.
        let longitudeStep = Self.roundStep(atLeast: (east - west) * 80 / mapWidth)
        let latitudeStep = Self.roundStep(atLeast: (north - south) * 30 / mapHeight)
        func label(_ value: Double, step: Double, _ positive: String, _ negative: String) -> String {
            let decimals = max(0, Int((-log10(step)).rounded(.up)))
            return String(format: "%.\(decimals)f°", abs(value)) + (value < 0 ? negative : positive)
        }
        var parts: [String] = []
        for longitude in Self.multiples(of: longitudeStep, from: west, to: east) {
            let (x, _) = position(latitude: south, longitude: longitude)
            parts.append(
                HTML.empty(
                    "line",
                    ["x1": number(x), "y1": "0", "x2": number(x), "y2": number(mapHeight), "class": "graticule"]))
            parts.append(
                HTML.text(
                    "text",
                    ["x": number(x), "y": number(mapHeight + 16), "text-anchor": "middle", "class": "graticule-label"],
                    label(longitude, step: longitudeStep, "E", "W")))
        }
        for latitude in Self.multiples(of: latitudeStep, from: south, to: north) {
            let (_, y) = position(latitude: latitude, longitude: west)
            parts.append(
                HTML.empty(
                    "line",
                    [
                        "x1": number(Self.margin), "y1": number(y), "x2": number(Self.margin + mapWidth),
                        "y2": number(y), "class": "graticule",
                    ]))
            parts.append(
                HTML.text(
                    "text",
                    [
                        "x": number(Self.margin - 4), "y": number(y + 4), "text-anchor": "end",
                        "class": "graticule-label",
                    ],
                    label(latitude, step: latitudeStep, "N", "S")))
        }
        return HTML.element("g", ["class": "graticules"], parts.joined())
    }

    /// The extract's bounding box, dashed.
    private func boundingBox() -> String {
        let (x, y) = position(latitudeE7: extent.northE7, longitudeE7: extent.westE7)
        let (right, bottom) = position(latitudeE7: extent.southE7, longitudeE7: extent.eastE7)
        return HTML.element(
            "rect",
            [
                "x": number(x), "y": number(y), "width": number(right - x), "height": number(bottom - y),
                "class": "bbox",
            ],
            HTML.text("title", "Bounding box " + extent.edgesE7.map(Figures.degrees).joined(separator: ",")))
    }

    /// A bar of a round number of metres, about a fifth of the map's width, at its bottom left:
    /// Web Mercator stretches distances by 1 / cos(latitude), measured at the map's middle.
    private func scaleBar() -> String {
        let frame = frame
        let middle = Self.latitude(y: (frame.minY + frame.maxY) / 2) * .pi / 180
        let metresPerUnit = cos(middle) / scale
        let metres = Self.roundStep(mapWidth / 5 * metresPerUnit)
        let length = metres / metresPerUnit
        let x = Self.margin + 12
        let y = mapHeight - 14
        let label = metres >= 1000 ? String(format: "%g km", metres / 1000) : String(format: "%g m", metres)
        return HTML.element(
            "g", ["class": "scale-bar", "data-metres": String(format: "%g", metres)],
            HTML.empty("rect", ["x": number(x), "y": number(y), "width": number(length), "height": "4"])
                + HTML.text("text", ["x": number(x), "y": number(y - 4)], label))
    }

    /// The round number (1, 2 or 5 times a power of ten) nearest below `value`, at least 1e-4.
    static func roundStep(_ value: Double) -> Double {
        guard value > 1e-4 else { return 1e-4 }
        let power = pow(10, floor(log10(value)))
        return [5.0, 2, 1].map { $0 * power }.first { $0 <= value } ?? power
    }

    /// The smallest round number (1, 2 or 5 times a power of ten) not below `value`, at least 1e-4.
    static func roundStep(atLeast value: Double) -> Double {
        let below = roundStep(value)
        guard below < value else { return below }
        let power = pow(10, floor(log10(below)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 > below } ?? below * 2
    }

    /// The multiples of `step` from `low` to `high`.
    static func multiples(of step: Double, from low: Double, to high: Double) -> [Double] {
        stride(from: (low / step).rounded(.up), through: (high / step).rounded(.down), by: 1).map { $0 * step }
    }

    private static func longitude(x: Double) -> Double { x / DensityGrid.mercatorRadius * 180 / .pi }
    private static func latitude(y: Double) -> Double {
        (2 * atan(exp(y / DensityGrid.mercatorRadius)) - .pi / 2) * 180 / .pi
    }

    private func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
