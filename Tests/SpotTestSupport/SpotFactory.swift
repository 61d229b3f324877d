import SeededRandom
import SpotIndex
import SpotIndexWriting
import Spots

/// Random spots covering the awkward corners of the format and of every output: the one factory
/// of the tests that build spots at random.
public struct SpotFactory {
    /// The generator every choice is drawn from: equal seeds give equal spots.
    public var random: SplitMix64

    /// A factory whose choices follow from `seed`.
    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Pieces that random strings are made of: quotes (doubled, escaped), backslashes, control
    /// characters, line breaks (CR LF, lone CR, lone LF), NUL, separators of CSV and JSON, HTML,
    /// emoji, CJK, right-to-left text. No combining marks, so that no two distinct random strings
    /// are canonically equivalent.
    public static let fragments = [
        "a", "Café", "\"", "\"\"", "'", "\\", "\\\"", "\n", "\r\n", "\r", "\r.", "\t", "\u{0001}", "\u{001F}",
        "\u{007F}", "\u{0000}", ",", ", ", ";", "=", ":", " ", "/", "日本語", "姫路城", "🏳️‍🌈", "👍🏽", "😀", "مقهى", "Ωμέγα",
        "\u{2028}", "\u{FEFF}", "{}", "[]", "[", "null", "0", "-1", "</script>",
    ]
    /// Keys of names in other languages, in the forms OSM uses.
    public static let languages = ["ja", "zh-Hant", "en", "fi", "sv", "de_CH", "ar", "ko-Latn", "fil", "zh_pinyin"]
    /// Address parts, the usual ones and some the exporters only list.
    public static let addressKeys = [
        "street", "housenumber", "city", "postcode", "country", "full", "place", "unit", "floor", "street:name", "ä",
    ]

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// One of `choices`, which must not be empty.
    public mutating func pick<T>(_ choices: [T]) -> T {
        precondition(!choices.isEmpty, "nothing to pick from")
        return choices[int(0...choices.count - 1)]
    }

    /// Up to `maxPieces` fragments joined.
    public mutating func string(maxPieces: Int = 4) -> String {
        (0..<int(0...maxPieces)).map { _ in pick(Self.fragments) }.joined()
    }

    /// A random id, often at the edges: of `SpotIndexWriter.storableIDs` when `storable` (a spot's
    /// own id, which a SPOT record packs into 46 bits), else of Int64 (a merged reference, which
    /// MERG stores in 8 bytes).
    public mutating func id(storable: Bool = true) -> Int64 {
        let bounds = storable ? SpotIndexWriter.storableIDs : Int64.min...Int64.max
        return switch int(0...5) {
        case 0: pick([bounds.lowerBound, bounds.upperBound, 0, -1, 1, Int64(UInt32.max) + 1])
        case 1: Int64.random(in: bounds, using: &random)
        case 2: -Int64.random(in: 1...1_000_000, using: &random)
        default: Int64.random(in: 1...12_000_000_000, using: &random)
        }
    }

    /// A reference of any type, its id as `id(storable:)` makes it.
    public mutating func ref(storable: Bool = true) -> OSMRef { OSMRef(pick(OSMType.allCases), id(storable: storable)) }

    /// A coordinate, at the poles, the antimeridian or zero a quarter of the time in each axis.
    public mutating func coordinate() -> Coordinate {
        let lat: Int32 =
            chance(25)
            ? pick([900_000_000, -900_000_000, 0, 1, -1]) : Int32.random(in: -900_000_000...900_000_000, using: &random)
        let lon: Int32 =
            chance(25)
            ? pick([1_800_000_000, -1_800_000_000, 0, 1, -1])
            : Int32.random(in: -1_800_000_000...1_800_000_000, using: &random)
        guard let coordinate = Coordinate(latitudeE7: lat, longitudeE7: lon) else {
            preconditionFailure("\(lat), \(lon) is drawn in range")
        }
        return coordinate
    }

    /// A spot with some of every field: names, names in other languages, address, details, other
    /// names, merged references, the wikipedia flag.
    public mutating func spot() -> Spot {
        var spot = Spot(
            ref: ref(), coordinate: coordinate(),
            tagKey: chance(80) ? pick(["amenity", "tourism"]) : string(),
            kind: chance(70) ? pick(["cafe", "hotel", "fast_food", "bench", ""]) : string(),
            category: chance(20) ? nil : pick(Category.allCases))
        if chance(80) { spot.name = string() }
        for _ in 0..<int(0...3) { spot.names[pick(Self.languages)] = string() }
        for _ in 0..<int(0...4) { spot.address[pick(Self.addressKeys)] = string() }
        for _ in 0..<int(0...3) { spot.details[pick(Spot.Detail.allCases)] = string(maxPieces: 6) }
        if chance(15) { spot.otherNames[pick(Spot.otherNameKeys.sorted())] = string() }
        if chance(30) { spot.merged = (0..<int(1...4)).map { _ in ref(storable: false) } }
        spot.hasWikipedia = chance(20)
        return spot
    }

    /// `count` random spots whose references, own and merged, are all distinct and not in
    /// `excluding`: an index maps every reference to one spot, so a reference must name one.
    public mutating func uniqueSpots(_ count: Int, excluding: Set<OSMRef> = []) -> [Spot] {
        var used = excluding
        return (0..<count).map { _ in
            var spot = spot()
            while used.contains(spot.ref) { spot.ref = ref() }
            used.insert(spot.ref)
            spot.merged = spot.merged.map { merged in
                var merged = merged
                while used.contains(merged) { merged = ref(storable: false) }
                used.insert(merged)
                return merged
            }
            return spot
        }
    }

    /// `count` random spots as `uniqueSpots(_:excluding:)` makes them, none of them naming a
    /// reference, own or merged, of `spots`.
    public mutating func uniqueSpots(_ count: Int, besides spots: [Spot]) -> [Spot] {
        uniqueSpots(count, excluding: Set(spots.flatMap { [$0.ref] + $0.merged }))
    }
}
