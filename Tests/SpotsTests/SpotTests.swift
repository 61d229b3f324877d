import Spots
import Testing

@Suite("Spot")
struct SpotTests {
    static func bare(_ ref: OSMRef = OSMRef(.node, 1)) -> Spot {
        Spot(
            ref: ref, coordinate: Coordinate(latitudeE7: 601_699_000, longitudeE7: 249_384_000)!, tagKey: "amenity",
            kind: "cafe", category: .cafe)
    }

    static let full = Spot(
        ref: OSMRef(.way, -42), coordinate: Coordinate(latitudeE7: -337_000_000, longitudeE7: 1_511_000_000)!,
        tagKey: "amenity", kind: "ice_cream", category: .cafe, name: "Gelato \"Uno\"",
        names: ["ja": "ジェラート", "zh-Hant": "冰淇淋", "en": "Gelato One", "de_CH": "Glace"],
        address: [
            "street": "Main St", "housenumber": "1a", "city": "Sydney", "full": "1a Main St, Sydney", "unit": "",
        ],
        details: [
            .phone: "+61 2 0000", .website: "https://example.org", .openingHours: "Mo-Su 10:00-22:00",
            .cuisine: "ice_cream", .wikidata: "Q1",
        ],
        merged: [OSMRef(.node, 7)])

    @Test(
        "languageCode extracts the language of name:xx keys only",
        arguments: [
            ("name:ja", "ja"), ("name:zh-Hant", "zh-Hant"), ("name:en", "en"), ("name:fil", "fil"),
            ("name:zh_pinyin", "zh_pinyin"), ("name:sr-Latn", "sr-Latn"),
        ])
    func languageCodeAccepted(key: String, expected: String) {
        #expect(Spot.languageCode(ofNameKey: key) == expected)
    }

    @Test(
        "languageCode is nil for sub-keys, empty codes and other keys",
        arguments: [
            "name:etymology:wikidata", "name:", "name", "name:etymology", "name:x", "name:abcd", "old_name:en",
            "name:ja:", "name: ja", "name:日本", "alt_name", "", "Name:en", "name:-en",
        ])
    func languageCodeRejected(key: String) {
        #expect(Spot.languageCode(ofNameKey: key) == nil)
    }

    @Test("tag is the selecting key and value joined by =")
    func tag() {
        #expect(Self.bare().tag == "amenity=cafe")
        #expect(Self.full.tag == "amenity=ice_cream")
    }

    @Test("setAttribute stores name, name:xx, addr:* and detail tags where they belong")
    func setAttributeRoutesTags() {
        var spot = Self.bare()
        for (key, value) in [
            ("name", "Café"), ("name:ja", "カフェ"), ("addr:street", "Mannerheimintie"), ("addr:housenumber", "5"),
            ("opening_hours", "24/7"), ("wikidata", "Q42"),
        ] {
            let kept = spot.setAttribute(key: key, value: value)
            #expect(kept, "key \(key)")
        }
        #expect(spot.name == "Café")
        #expect(spot.names == ["ja": "カフェ"])
        #expect(spot.address == ["street": "Mannerheimintie", "housenumber": "5"])
        #expect(spot.details == [.openingHours: "24/7", .wikidata: "Q42"])
        for (key, value) in spot.attributeTags { #expect(spot.attribute(key) == value, "key \(key)") }
        #expect(
            spot.attribute("cuisine") == nil && spot.attribute("amenity") == nil && spot.attribute("name:fi") == nil)
    }

    @Test("setAttribute refuses tags a spot does not keep and leaves the spot unchanged")
    func setAttributeRefusesOthers() {
        for key in [
            "amenity", "name:etymology:wikidata", "addr:", "name:", "brand:wikidata", "opening_hours:covid19", "Name",
            "",
        ] {
            var spot = Self.bare()
            let kept = spot.setAttribute(key: key, value: "x")
            #expect(!kept, "key \(key)")
            #expect(spot == Self.bare(), "key \(key)")
        }
    }

    @Test("setAttribute replaces an earlier value of the same tag")
    func setAttributeReplaces() {
        var spot = Self.bare()
        spot.setAttribute(key: "name:en", value: "Old")
        spot.setAttribute(key: "name:en", value: "New")
        spot.setAttribute(key: "phone", value: "1")
        spot.setAttribute(key: "phone", value: "2")
        #expect(spot.names == ["en": "New"])
        #expect(spot.details == [.phone: "2"])
    }

    @Test("attributeTags lists every attribute as an OSM tag, sorted by key")
    func attributeTagsSorted() {
        let tags = Self.full.attributeTags
        let keys = tags.map(\.key)
        #expect(keys == keys.sorted())
        #expect(Set(keys).count == keys.count)
        #expect(
            keys == [
                "addr:city", "addr:full", "addr:housenumber", "addr:street", "addr:unit", "cuisine", "name",
                "name:de_CH",
                "name:en", "name:ja", "name:zh-Hant", "opening_hours", "phone", "website", "wikidata",
            ])
        let values = Dictionary(uniqueKeysWithValues: tags.map { ($0.key, $0.value) })
        #expect(values["name"] == "Gelato \"Uno\"")
        #expect(values["name:ja"] == "ジェラート")
        #expect(values["addr:unit"] == "")
        #expect(values["opening_hours"] == "Mo-Su 10:00-22:00")
    }

    @Test("a bare spot has no attribute tags")
    func bareHasNoAttributeTags() {
        #expect(Self.bare().attributeTags.isEmpty)
    }

    @Test("setting every attribute tag on a bare spot rebuilds an equal spot")
    func attributeRoundTrip() {
        var rebuilt = Spot(
            ref: Self.full.ref, coordinate: Self.full.coordinate, tagKey: Self.full.tagKey, kind: Self.full.kind,
            category: Self.full.category, merged: Self.full.merged)
        for tag in Self.full.attributeTags {
            let kept = rebuilt.setAttribute(key: tag.key, value: tag.value)
            #expect(kept, "key \(tag.key)")
        }
        #expect(rebuilt == Self.full)
        #expect(rebuilt.attributeTags.map(\.key) == Self.full.attributeTags.map(\.key))
        #expect(rebuilt.attributeTags.map(\.value) == Self.full.attributeTags.map(\.value))
    }

    @Test("an empty name is kept as an attribute, unlike a missing one")
    func emptyNameIsKept() {
        var spot = Self.bare()
        spot.name = ""
        #expect(spot.attributeTags.map(\.key) == ["name"])
        var rebuilt = Self.bare()
        for tag in spot.attributeTags { rebuilt.setAttribute(key: tag.key, value: tag.value) }
        #expect(rebuilt == spot)
        #expect(rebuilt != Self.bare())
    }

    @Test("setAttribute keeps names, localized names, address parts and details, nothing else")
    func setAttributeKeepsOnlySpotKeys() {
        let kept = [
            "name", "name:ja", "name:zh-Hant", "addr:street", "addr:full", "phone", "website", "opening_hours",
            "cuisine", "wikidata", "wikipedia", "brand", "operator",
        ]
        let refused = ["name:etymology:wikidata", "name:", "addr:", "amenity", "brand:wikidata", "wikipedia:de", ""]
        for key in kept + refused {
            var spot = Self.bare()
            #expect(spot.setAttribute(key: key, value: "v") == kept.contains(key), "key \"\(key)\"")
        }
    }

    @Test("Detail raw values are the OSM keys, in export order")
    func detailKeys() {
        #expect(
            Spot.Detail.allCases.map(\.rawValue) == [
                "phone", "website", "opening_hours", "cuisine", "wikidata", "wikipedia", "brand", "operator", "ele",
            ])
    }

    @Test("the display name: name:xx in the reader's language, name, name:en, any name:xx, brand, operator")
    func displayName() {
        var spot = Self.bare()
        #expect(spot.displayName(language: nil) == nil)
        spot.details[.operator] = "Mora Banc"
        #expect(spot.displayName(language: "ca") == DisplayName(key: "operator", name: "Mora Banc"))
        spot.details[.brand] = "Banc"
        #expect(spot.displayName(language: nil)?.key == "brand")
        spot.names = ["fr": "Banque", "de": "Bank"]
        #expect(spot.displayName(language: nil) == DisplayName(key: "name:de", name: "Bank"), "the first by key")
        spot.names["en"] = "Bank of Mora"
        #expect(spot.displayName(language: nil)?.key == "name:en")
        spot.name = "Banc de Mora"
        #expect(spot.displayName(language: nil)?.key == "name")
        #expect(spot.displayName(language: "it")?.key == "name", "no name:it")
        #expect(spot.displayName(language: "fr") == DisplayName(key: "name:fr", name: "Banque"))
        #expect(spot.displayName(language: "en")?.key == "name:en")
    }
}
