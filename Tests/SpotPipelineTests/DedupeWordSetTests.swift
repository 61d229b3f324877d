import SeededRandom
import Testing

@testable import SpotPipeline
@testable import Spots

/// Whether `one` and `other`, 20 m apart, are merged into one spot, and by which rules.
private func merges(_ one: SpotCandidate, _ other: SpotCandidate) -> (merged: Bool, rules: [String: Int]) {
    var moved = other
    moved.spot.coordinate = candidate(0, nil, north: 14, east: 14).spot.coordinate
    let (spots, report) = dedupe([one, moved])
    return (spots.count == 1, report.dropped)
}

@Suite("Deduplication by word sets")
struct DedupeWordSetTests {
    @Test(
        "a generic word of the category added or dropped, in several languages",
        arguments: [
            ("Blue Door", "Blue Door Cafe", Category.cafe), ("Engel", "Kahvila Engel", .cafe),
            ("Café Engel", "Engel", .cafe), ("Hotel Royal", "Royal", .hotel), ("Krone", "Gasthof Krone", .restaurant),
            ("Ristorante Da Mario", "Da Mario", .restaurant), ("スターバックス コーヒー", "スターバックス", .cafe),
            ("Отель Москва", "Москва", .hotel),
        ])
    func genericWords(_ name: String, _ twin: String, _ category: Category) {
        // The spots are tagged as OSM maps them, so that the words of their value count too.
        func spot(_ id: Int64, _ name: String) -> SpotCandidate {
            var spot = candidate(id, name, category: category)
            if category == .hotel { spot.spot.tagKey = "tourism" }
            return spot
        }
        let outcome = merges(spot(1, name), spot(2, twin))
        #expect(outcome.merged && outcome.rules == ["word_set": 1], "\(name) / \(twin)")
    }

    @Test(
        "\"&\" is the word for \"and\", in several languages and widths",
        arguments: [
            ("Smith & Sons", "Smith and Sons"), ("Müller und Söhne", "Müller & Söhne"),
            ("Dupont et Fils", "Dupont&Fils"),
            ("Иванов и сыновья", "Иванов & сыновья"), ("Ｓｍｉｔｈ ＆ Ｓｏｎｓ", "smith and sons"),
            ("Koski ja Poika", "Koski & Poika"),
        ])
    func ampersand(_ name: String, _ twin: String) {
        #expect(merges(candidate(1, name), candidate(2, twin)).merged, "\(name) / \(twin)")
    }

    @Test("words in another order are one set")
    func wordOrder() {
        #expect(merges(candidate(1, "Pizza Mario"), candidate(2, "Mario Pizza")).merged)
        #expect(merges(candidate(1, "Kahvila Sininen Ovi"), candidate(2, "Ovi Sininen")).merged)
    }

    @Test("every comparable name counts: name:xx, alt_name, official_name, short_name and brand")
    func comparableNames() {
        let original = candidate(1, "Sininen Ovi")
        for key in ["name:en", "name:fi", "alt_name", "official_name", "short_name"] {
            let twin = candidate(2, key == "name:fi" ? nil : "Blue Door", attributes: [key: "Sininen Ovi"])
            #expect(merges(original, twin).merged, "\(key)")
        }
        let onlyEnglish = candidate(2, nil, attributes: ["name:en": "Sininen Ovi Cafe"])
        #expect(merges(original, onlyEnglish).merged)
        let branch = candidate(2, "Espresso House Kamppi", context: ["brand": "Espresso House"])
        #expect(merges(candidate(1, "Espresso House"), branch).merged)
        #expect(!merges(candidate(1, "Espresso House Forum"), branch).merged)
    }

    @Test("other names and brands meet own names only: labels every branch carries join nothing")
    func labelsMeetOwnNames() {
        let bike = ["alt_name": "kaupunkipyörä"]
        let station = candidate(1, "Töölönlahdenkatu kaupunkipyöräasema", attributes: bike)
        #expect(!merges(station, candidate(2, "Kaisaniemenpuisto kaupunkipyöräasema", attributes: bike)).merged)
        let brand = ["brand": "Espresso House"]
        let kamppi = candidate(1, "Espresso House Kamppi", context: brand)
        #expect(!merges(kamppi, candidate(2, "Espresso House Forum", context: brand)).merged)
        #expect(merges(kamppi, candidate(2, "Espresso House", context: brand)).merged)
    }

    @Test("a name of generic words alone is kept whole: cafe and kahvila are two names")
    func onlyGenericWords() {
        #expect(!merges(candidate(1, "Cafe"), candidate(2, "Kahvila")).merged)
        #expect(!merges(candidate(1, "Cafe & Bar"), candidate(2, "Bar")).merged)
        #expect(merges(candidate(1, "Kahvila"), candidate(2, "KAHVILA")).rules == ["exact_name": 1])
    }

    @Test("different Wikidata items, brands' items or house numbers keep a word-set match apart")
    func guards() {
        let pairs: [([String: String], [String: String], [String: String], [String: String], Bool)] = [
            (["wikidata": "Q1"], [:], ["wikidata": "Q2"], [:], false),
            ([:], ["brand:wikidata": "Q1"], [:], ["brand:wikidata": "Q2"], false),
            (["addr:housenumber": "12"], [:], ["addr:housenumber": "14"], [:], false),
            (["addr:housenumber": "12 A"], [:], ["addr:housenumber": "12a"], [:], true),
            (["addr:housenumber": "12"], [:], [:], [:], true),
            (["wikidata": "Q1"], [:], ["wikidata": "Q1"], [:], true),
        ]
        for (attributes, context, twinAttributes, twinContext, merged) in pairs {
            let one = candidate(1, "Blue Door", attributes: attributes, context: context)
            let other = candidate(2, "Blue Door Cafe", attributes: twinAttributes, context: twinContext)
            #expect(merges(one, other).merged == merged, "\(attributes) \(context) / \(twinAttributes) \(twinContext)")
        }
    }

    @Test("chains stay apart: a brand's places 300 m apart, and a same-name place of another category")
    func chains() {
        let one = candidate(1, "Espresso House", context: ["brand": "Espresso House", "brand:wikidata": "Q10"])
        let other = candidate(2, "Espresso House", north: 300, context: ["brand": "Espresso House"])
        #expect(dedupe([one, other]).spots.count == 2)
        #expect(!merges(candidate(1, "Fazer Cafe"), candidate(2, "Fazer", category: .bakery)).merged)
    }

    @Test("places the exact rule kept apart stay apart, though their survivors are near")
    func exactPlacesStay() {
        let rich = ["website": "https://k.fi"]
        let (spots, report) = dedupe([
            candidate(1, "Kiosk"), candidate(2, "Kiosk", north: 40, attributes: rich),
            candidate(3, "Kiosk", north: 80, attributes: rich), candidate(4, "Kiosk", north: 120),
        ])
        #expect(spots.map(\.ref.id) == [2, 3])
        #expect(report.dropped == ["exact_name": 2])
    }

    @Test("an area folds into a node inside it that gives one of its word sets, unless told apart")
    func nodeInAreaByWordSet() {
        let area = withSquareArea(candidate(40, "Hotel Kämp", category: .hotel, type: .way), side: 300)
        let node = candidate(3, "Kämp", category: .hotel, north: 100)
        let (spots, report) = dedupe([area, node])
        #expect(spots.map(\.ref) == [OSMRef(.node, 3)] && report.dropped == ["node_in_area": 1])
        let otherItem = candidate(3, "Kämp", category: .hotel, north: 100, attributes: ["wikidata": "Q9"])
        let itemArea = withSquareArea(
            candidate(40, "Hotel Kämp", category: .hotel, type: .way, attributes: ["wikidata": "Q8"]), side: 300)
        #expect(dedupe([itemArea, otherItem]).spots.count == 2)
    }

    @Test("word sets compare spots of one selecting tag, whose own generic words they lack")
    func oneTag() {
        var drivingSchool = candidate(3, "Ressun autokoulu", category: .school, north: 20)
        drivingSchool.spot.kind = "driving_school"
        let school = withSquareArea(candidate(40, "Ressun lukio", category: .school, type: .way), side: 200)
        #expect(dedupe([school, drivingSchool]).spots.count == 2)
        var lukio = candidate(2, "Ressun lukio", category: .school)
        lukio.spot.kind = "school"
        #expect(!merges(lukio, drivingSchool).merged)
    }

    @Test("a brand alone is no name: unnamed branches are never merged")
    func brandAlone() {
        let shell = ["brand": "Shell"]
        #expect(
            !merges(
                candidate(1, nil, category: .gasStation, context: shell),
                candidate(2, nil, category: .gasStation, context: shell)
            ).merged)
    }

    @Test("the outcome is the same whatever the input order")
    func deterministic() {
        let names = ["Blue Door", "Blue Door Cafe", "Door Blue", "Cafe Blue Door", "Kahvila Blue Door"]
        let candidates: [SpotCandidate] = (0..<200).map { (n: Int) -> SpotCandidate in
            let north = Double(n % 20) * 30
            let east = Double(n / 20) * 30
            return candidate(Int64(n), names[n % names.count], north: north, east: east)
        }
        let first = dedupe(candidates)
        for seed in 0..<5 {
            var generator = SplitMix64(seed: UInt64(seed))
            let again = dedupe(candidates.shuffled(using: &generator))
            #expect(again.spots.map(\.ref) == first.spots.map(\.ref) && again.report == first.report)
            #expect(again.spots.map(\.merged) == first.spots.map(\.merged))
        }
        #expect(first.report.dropped["word_set", default: 0] > 0)
    }
}
