import Spots

/// A point or box a request gives more than `limit` from every spot of the index (its
/// extent), most often latitude and longitude given the wrong way round: the request is
/// answered as asked, with a warning that says how far it is and, when reading its numbers the
/// other way round (a point's two, a box's two axes) brings it near, what was probably meant.
///
/// "--near 24.9384,60.1699 is 1,100 km from the index's spots; did you mean --near
/// 60.1699,24.9384?"
public struct FarPlace: Sendable, Equatable {
    /// The request's key for the place: `near` or `bbox`.
    public let key: String
    /// The place's numbers in the order the key takes them: LAT,LON or MINLON,MINLAT,MAXLON,MAXLAT.
    public let numbers: [Double]
    /// The numbers read the other way round, when that brings the place within `limit`.
    public let swapped: [Double]?
    /// How far the place is from the nearest spot's box, in whole kilometres.
    public let kilometres: Int

    /// The distance in metres beyond which a place is far: 100 km.
    public static let limit = 100_000.0

    /// The far places of a request whose point is `near` and box `region`, measured from
    /// `extent`, the box of the index's spots (none for an index without spots).
    public static func places(near: Coordinate?, region: GeoBox?, extent: GeoBox?) -> [FarPlace] {
        guard let extent else { return [] }
        let point = near.flatMap { near in
            let swapped = Coordinate(latitudeE7: near.longitudeE7, longitudeE7: near.latitudeE7).map(GeoBox.init)
            return place("near", [near.latitudeE7, near.longitudeE7], GeoBox(near), swapped, extent)
        }
        let box = region.flatMap { region in
            let swapped = GeoBox(
                west: Double(region.southE7) / 1e7, south: Double(region.westE7) / 1e7,
                east: Double(region.northE7) / 1e7, north: Double(region.eastE7) / 1e7)
            return place(
                "bbox", [region.westE7, region.southE7, region.eastE7, region.northE7], region, swapped, extent)
        }
        return [point, box].compactMap { $0 }
    }

    /// The warnings of `places(near:region:extent:)`, each place named as `message(option:)`
    /// names it.
    public static func warnings(near: Coordinate?, region: GeoBox?, extent: GeoBox?, option: Bool) -> [String] {
        places(near: near, region: region, extent: extent).map { $0.message(option: option) }
    }

    /// The warning, naming the place as `--near 1.5,42.5` on the command line (`option`) or as
    /// `near [1.5,42.5]` in a batch line or query string.
    public func message(option: Bool) -> String {
        func written(_ numbers: [Double]) -> String {
            let list = numbers.map(Self.decimal).joined(separator: ",")
            return option ? "--\(key) \(list)" : "\(key) [\(list)]"
        }
        let meant = swapped.map { "; did you mean \(written($0))?" } ?? ""
        return "\(written(numbers)) is \(NumberText.grouped(kilometres)) km from the index's spots\(meant)"
    }

    /// The far place of `box`, or nil when it is within `limit` of `extent`.
    private static func place(
        _ key: String, _ numbersE7: [Int32], _ box: GeoBox, _ swapped: GeoBox?, _ extent: GeoBox
    ) -> FarPlace? {
        let distance = Self.distance(box, extent)
        guard distance > limit else { return nil }
        let numbers = numbersE7.map { Double($0) / 1e7 }
        let near = swapped.map { Self.distance($0, extent) <= limit } ?? false
        return FarPlace(
            key: key, numbers: numbers, swapped: near ? numbers.indices.map { numbers[$0 ^ 1] } : nil,
            kilometres: Int((distance / 1000).rounded()))
    }

    /// About the great-circle distance in metres between the nearest points of `box` and
    /// `other` (0 when they meet): two boxes that do not meet come nearest at a corner of one.
    static func distance(_ box: GeoBox, _ other: GeoBox) -> Double {
        guard !box.intersects(other) else { return 0 }
        return min(
            corners(of: box).map { distance(from: $0, to: other) }.min() ?? 0,
            corners(of: other).map { distance(from: $0, to: box) }.min() ?? 0)
    }

    /// The corners of `box`.
    private static func corners(of box: GeoBox) -> [Coordinate] {
        [(box.southE7, box.westE7), (box.southE7, box.eastE7), (box.northE7, box.westE7), (box.northE7, box.eastE7)]
            .compactMap { Coordinate(latitudeE7: $0.0, longitudeE7: $0.1) }
    }

    /// The distance in metres from `point` to the point of `box` at its latitude clamped into
    /// the box and its longitude on the nearer edge, or its own when the box holds it.
    private static func distance(from point: Coordinate, to box: GeoBox) -> Double {
        let latitude = min(max(point.latitudeE7, box.southE7), box.northE7)
        var longitude = point.longitudeE7
        if !box.contains(Coordinate(latitudeE7: latitude, longitudeE7: longitude) ?? point) {
            // Longitudes apart, the short way round the Earth.
            func apart(_ edge: Int32) -> Int64 {
                let difference = abs(Int64(edge) - Int64(point.longitudeE7)) % 3_600_000_000
                return min(difference, 3_600_000_000 - difference)
            }
            longitude = apart(box.westE7) <= apart(box.eastE7) ? box.westE7 : box.eastE7
        }
        guard let nearest = Coordinate(latitudeE7: latitude, longitudeE7: longitude) else { return 0 }
        return point.distance(to: nearest)
    }

    /// A number as people write it: at most seven decimals, no trailing zeros ("1.5211", "42").
    private static func decimal(_ value: Double) -> String {
        var text = Coordinate.decimalString(Int32((value * 1e7).rounded()))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
