import Foundation
import Spots

/// Spot counts over square cells of Web Mercator (EPSG:3857) covering a bounding box.
///
/// The box is projected to Web Mercator and cut into square cells, `cellsOnLongerSide` along
/// its longer side (16 by default) and as many as needed along the other; so the grid is a
/// little map, undistorted as web maps draw it. Rows run from north to south, columns from
/// west to east. A box of a single point is one cell.
public struct DensityGrid: Equatable, Sendable {
    /// Cells along the longer side of the box unless asked otherwise.
    public static let defaultCells = 16
    /// The radius of the Web Mercator sphere: WGS 84's semi-major axis, in metres.
    public static let mercatorRadius = 6_378_137.0
    /// The latitude Web Mercator stops at (its square's edge), in degrees.
    public static let mercatorLatitudeLimit = 85.051_128_78

    /// The number of columns, west to east.
    public let columns: Int
    /// The number of rows, north to south.
    public let rows: Int
    /// The western edge of the grid in Web Mercator metres.
    public let minX: Double
    /// The northern edge of the grid in Web Mercator metres.
    public let maxY: Double
    /// The side of a cell in Web Mercator metres (0 for a box of one point).
    public let cellSize: Double
    /// The counts, row by row from the north-west cell.
    public private(set) var counts: [Int]

    /// An empty grid over `box`.
    public init(box: GeoBox, cellsOnLongerSide: Int = DensityGrid.defaultCells) {
        precondition(cellsOnLongerSide >= 1)
        let (west, south) = Self.project(latitudeE7: box.southE7, longitudeE7: box.westE7)
        let (east, north) = Self.project(latitudeE7: box.northE7, longitudeE7: box.eastE7)
        let side = max(east - west, north - south) / Double(cellsOnLongerSide)
        func cells(_ length: Double) -> Int {
            side == 0 ? 1 : min(cellsOnLongerSide, max(1, Int((length / side).rounded(.up))))
        }
        columns = cells(east - west)
        rows = cells(north - south)
        minX = west
        maxY = north
        cellSize = side
        counts = Array(repeating: 0, count: columns * rows)
    }

    /// Counts a spot at `coordinate` (which should lie in the box; one outside it counts in the
    /// nearest edge cell).
    public mutating func add(_ coordinate: Coordinate) {
        let (x, y) = Self.project(latitudeE7: coordinate.latitudeE7, longitudeE7: coordinate.longitudeE7)
        counts[cell(x: x, y: y)] += 1
    }

    /// The count of the cell at `column` (from the west) and `row` (from the north).
    public func count(column: Int, row: Int) -> Int { counts[row * columns + column] }

    /// The largest count of a cell.
    public var maximum: Int { counts.max() ?? 0 }

    /// The edges of the cell at `column` and `row` in degrees: west, south, east, north.
    public func bounds(column: Int, row: Int) -> (west: Double, south: Double, east: Double, north: Double) {
        let west = minX + Double(column) * cellSize
        let north = maxY - Double(row) * cellSize
        return (
            Self.longitude(x: west), Self.latitude(y: north - cellSize), Self.longitude(x: west + cellSize),
            Self.latitude(y: north)
        )
    }

    private func cell(x: Double, y: Double) -> Int {
        guard cellSize > 0 else { return 0 }
        func index(_ offset: Double, _ limit: Int) -> Int { min(limit - 1, max(0, Int(offset / cellSize))) }
        return index(maxY - y, rows) * columns + index(x - minX, columns)
    }

    /// Web Mercator metres (x east, y north) of a fixed-point coordinate; latitudes beyond the
    /// projection's limit are clamped to it.
    public static func project(latitudeE7: Int32, longitudeE7: Int32) -> (x: Double, y: Double) {
        let latitude = min(max(Double(latitudeE7) / 1e7, -mercatorLatitudeLimit), mercatorLatitudeLimit) * .pi / 180
        let longitude = Double(longitudeE7) / 1e7 * .pi / 180
        return (mercatorRadius * longitude, mercatorRadius * log(tan(.pi / 4 + latitude / 2)))
    }

    private static func longitude(x: Double) -> Double { x / mercatorRadius * 180 / .pi }
    private static func latitude(y: Double) -> Double { (2 * atan(exp(y / mercatorRadius)) - .pi / 2) * 180 / .pi }
}
