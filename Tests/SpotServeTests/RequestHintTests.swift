import SpotRequests
import SpotSearch
import Spots
import Testing

@Suite("Hints and warnings for requests")
struct RequestHintTests {
    static let subcommands = ["build", "cluster", "export", "inspect", "refresh", "report", "search", "serve"]

    @Test(
        "a name a few edits from a known one, or the beginning of one, is suggested; a name far from all is not",
        arguments: [
            ("serch", "search"), ("serach", "search"), ("biuld", "build"), ("exprot", "export"), ("clust", "cluster"),
            ("refrsh", "refresh"), ("x", nil), ("frobnicate", nil), ("", nil), ("zzz", nil),
        ] as [(String, String?)])
    func nearestSubcommand(_ given: String, _ meant: String?) {
        #expect(Suggestions.nearest(to: given, among: Self.subcommands) == meant)
    }

    @Test("options: dashes aside, an abbreviation beats a name one edit away; ties go to the first given")
    func nearestOption() {
        let options = ["-o", "--output", "--sort", "--zoom", "--limit", "--near", "--bbox"]
        #expect(Suggestions.nearest(to: "--out", among: options) == "--output")
        #expect(Suggestions.nearest(to: "--zom", among: options) == "--zoom")
        #expect(Suggestions.nearest(to: "--nera", among: options) == "--near")
        #expect(Suggestions.nearest(to: "--x", among: options) == nil)
        #expect(Suggestions.nearest(to: "--ab", among: ["--abc", "--abd"]) == "--abc")
    }

    @Test(
        "a category is suggested from its name or a built-in search word in any language",
        arguments: [
            ("coffee", [Category.cafe]), ("Cafe", [.cafe]), ("cofee", [.cafe]), ("カフェ", [.cafe]),
            ("coffee shop", [.cafe]), ("restaurnt", [.restaurant]), ("museums", [.museum]), ("evcharger", [.evCharger]),
            ("xyz", []), ("qqq", []),
        ])
    func categories(_ given: String, _ meant: [Category]) {
        #expect(Suggestions.categories(near: given) == meant)
    }

    @Test("an unknown category is named, with what it probably means")
    func unknownCategory() {
        #expect(Suggestions.unknownCategory("coffee") == "unknown category 'coffee'; did you mean cafe?")
        #expect(Suggestions.unknownCategory("xyz") == "unknown category 'xyz'")
    }

    @Test(
        "a batch line or query string refuses an unknown category by name, with the suggestion",
        arguments: [
            (#"{"categories":["coffee"]}"#, "categories: unknown category 'coffee'; did you mean cafe?"),
            (#"{"exclude":["cafe","restaurnt"]}"#, "exclude: unknown category 'restaurnt'; did you mean restaurant?"),
            (#"{"categories":[1]}"#, "categories: expected an array of category names"),
        ])
    func batchCategories(_ line: String, _ message: String) {
        #expect(refusal { try SearchBatchRequest.parse(Array(line.utf8)) } == message)
    }

    @Test("a cluster batch line refuses an unknown category alike")
    func clusterCategories() {
        let line = #"{"bbox":[0,0,1,1],"zoom":1,"categories":["coffee"]}"#
        #expect(
            refusal { try ClusterBatchRequest.parse(Array(line.utf8)) }
                == "categories: unknown category 'coffee'; did you mean cafe?")
    }

    @Test(
        "a search that names no words, point, region or categories to include is refused",
        arguments: [
            #"{}"#, #"{"limit":5}"#, #"{"query":"  "}"#, #"{"exclude":["cafe"]}"#, #"{"result_types":["poi"]}"#,
        ])
    func nothingAsked(_ line: String) throws {
        let request = try SearchBatchRequest.parse(Array(line.utf8))
        #expect(!request.asksSomething)
        #expect(refusal { try SearchBatchRequest.checked(request) } == "give query, near, bbox or categories")
    }

    @Test(
        "words, a point, a region or included categories are something asked",
        arguments: [
            #"{"query":"cafe"}"#, #"{"near":[60,25]}"#, #"{"bbox":[24,60,25,61]}"#, #"{"categories":["cafe"]}"#,
        ])
    func somethingAsked(_ line: String) throws {
        #expect(try SearchBatchRequest.parse(Array(line.utf8)).asksSomething)
    }
}

/// The message of the `BatchRequestError` that `body` throws, or nil when it throws none.
func refusal<T>(_ body: () throws -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return (error as? BatchRequestError)?.description
    }
}

@Suite("Places far from the index's spots")
struct FarPlaceTests {
    /// About Andorra.
    static let andorra = GeoBox(west: 1.41, south: 42.43, east: 1.79, north: 42.66)!

    @Test("a point given LON,LAT is named, its distance in kilometres, with the point read the other way round")
    func swappedPoint() throws {
        let near = try #require(MapInput.coordinate(latitude: 1.5211, longitude: 42.5078))
        let places = FarPlace.places(near: near, region: nil, extent: Self.andorra)
        #expect(places.count == 1)
        #expect(places.first?.key == "near" && places.first?.swapped == [42.5078, 1.5211])
        #expect(
            places.first?.message(option: true)
                == "--near 1.5211,42.5078 is 6,088 km from the index's spots; did you mean --near 42.5078,1.5211?")
        #expect(
            places.first?.message(option: false)
                == "near [1.5211,42.5078] is 6,088 km from the index's spots; did you mean near [42.5078,1.5211]?")
    }

    @Test("a box with its axes swapped is named with the box read the other way round")
    func swappedBox() throws {
        let region = try #require(MapInput.box([42.45, 1.45, 42.6, 1.7]))
        let places = FarPlace.places(near: nil, region: region, extent: Self.andorra)
        #expect(
            places.map { $0.message(option: true) } == [
                "--bbox 42.45,1.45,42.6,1.7 is 6,068 km from the index's spots; did you mean --bbox 1.45,42.45,1.7,42.6?"
            ])
    }

    @Test("a far place that no swap brings near is named without a suggestion; a near one, or no spots, not at all")
    func farAndNear() throws {
        let helsinki = try #require(MapInput.coordinate(latitude: 60.1699, longitude: 24.9384))
        #expect(
            FarPlace.places(near: helsinki, region: nil, extent: Self.andorra).map { $0.message(option: true) } == [
                "--near 60.1699,24.9384 is 2,496 km from the index's spots"
            ])
        let nearby = try #require(MapInput.coordinate(latitude: 42.0, longitude: 1.5))
        #expect(FarPlace.places(near: nearby, region: nil, extent: Self.andorra).isEmpty)
        #expect(FarPlace.places(near: helsinki, region: nil, extent: nil).isEmpty)
        let overlapping = try #require(MapInput.box([1, 42, 2, 43]))
        #expect(FarPlace.places(near: nil, region: overlapping, extent: Self.andorra).isEmpty)
    }

    @Test("distances run the short way across the antimeridian")
    func antimeridian() throws {
        let fiji = try #require(GeoBox(west: 177, south: -19, east: 179.9, north: -16))
        let east = try #require(MapInput.coordinate(latitude: -17, longitude: -179.5))
        #expect(FarPlace.places(near: east, region: nil, extent: fiji).isEmpty)
        let across = try #require(MapInput.box([-179.9, -18, -179, -17]))
        #expect(FarPlace.places(near: nil, region: across, extent: fiji).isEmpty)
    }
}
