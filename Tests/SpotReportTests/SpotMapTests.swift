import Foundation
import Spots
import Testing

@testable import SpotReport

/// The HTML report's map (`SpotMap`): dots or a raster, a labelled graticule, a scale bar in
/// metres and the bounding box, as plain SVG.
@Suite("Report map")
struct SpotMapTests {
    static func points(_ count: Int, latitude: Double = 60.17, longitude: Double = 24.94, span: Double = 0.02)
        -> [MapPoint]
    {
        (0..<count).map { number in
            let step = Double(number % 997) / 997
            return MapPoint(
                coordinate: Coordinate(
                    latitudeE7: Int32(((latitude + span * step) * 1e7).rounded()),
                    longitudeE7: Int32(((longitude + span * Double(number % 89) / 89) * 1e7).rounded()))!,
                group: [.mapKit, .spotsExtension, .none][number % 3])
        }
    }

    static func map(_ points: [MapPoint]) -> String {
        SpotMap(points: points, extent: GeoBox(enclosing: points.map(\.coordinate))!).svg()
    }

    /// The texts of the elements of `svg` with class `name`.
    static func texts(_ svg: String, class name: String) -> [String] {
        svg.components(separatedBy: "class=\"\(name)\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test("the graticule's lines are labelled in degrees north and east, at a round step")
    func graticule() {
        let svg = Self.map(Self.points(300))
        let labels = Self.texts(svg, class: "graticule-label")
        #expect(labels.contains { $0.hasSuffix("°N") } && labels.contains { $0.hasSuffix("°E") })
        #expect(labels.contains("60.170°N") || labels.contains("60.175°N") || labels.contains("60.18°N"), "\(labels)")
        let west = Self.map(Self.points(50, latitude: -33.9, longitude: -70.6))
        #expect(Self.texts(west, class: "graticule-label").contains { $0.hasSuffix("°S") })
        #expect(Self.texts(west, class: "graticule-label").contains { $0.hasSuffix("°W") })
    }

    @Test("the scale bar is a round number of metres, about a fifth of the map, corrected for latitude")
    func scaleBar() throws {
        let svg = Self.map(Self.points(300))
        let bar = try #require(svg.range(of: "class=\"scale-bar\" data-metres=\""))
        let metres = try #require(Double(String(svg[bar.upperBound...].prefix { $0 != "\"" })))
        // The points span 0.02° of longitude at 60°N: about 1.1 km; a fifth of the map with its margin.
        #expect([200.0, 500].contains(metres), "\(metres)")
        #expect(svg.contains(">\(Int(metres)) m</text>"))
        let wide = Self.map(Self.points(300, span: 2))
        #expect(wide.contains(" km</text>"))
    }

    @Test("every spot is a dot up to 20,000; beyond, a raster of 256 cells along the longer side")
    func dotsOrRaster() {
        let dots = Self.map(Self.points(900))
        #expect(dots.components(separatedBy: "<circle").count - 1 == 900)
        #expect(dots.contains("class=\"dot-mapkit\"") && dots.contains("class=\"dot-extension\""))
        let raster = Self.map(Self.points(SpotMap.dotLimit + 1))
        #expect(!raster.contains("<circle"))
        #expect(raster.contains("data-cells=\"256x") || raster.contains("x256\""), "256 cells along the longer side")
        #expect(raster.contains("class=\"bbox\""))
    }
}
