/// One place: what an app shows as a pin and on its detail card.
///
/// A spot comes from one OpenStreetMap object (`ref`) selected by one tag (`tagKey=kind`,
/// such as `amenity=cafe`). Text attributes are kept as the OSM tags spell them.
public struct Spot: Hashable, Sendable {
    /// The OSM object this spot comes from.
    public var ref: OSMRef
    /// Where the place is.
    public var coordinate: Coordinate
    /// The key of the selecting tag: "amenity", "shop", ….
    public var tagKey: String
    /// The OSM value of the selecting tag, kept whatever the category: "fast_food", "ice_cream".
    public var kind: String
    /// The category the tag maps to, or nil when the value maps to none.
    public var category: Category?
    /// What kind of thing the spot is: a point of interest unless its selecting key makes it a
    /// physical feature, or it is an address point.
    public var resultType: ResultType = .pointOfInterest
    /// The `name` tag.
    public var name: String?
    /// The `name:xx` tags: language code to name.
    public var names: [String: String]
    /// The `addr:*` tags, keyed by what follows `addr:` ("street", "housenumber").
    public var address: [String: String]
    /// The scalar detail tags an app shows (phone, website, opening hours, cuisine, wikidata,
    /// wikipedia, brand, operator, a physical feature's elevation).
    public var details: [Detail: String]
    /// Other names the place is known by, searchable but not exported, by OSM key
    /// (`alt_name`, `old_name`, `official_name`, `short_name`, `loc_name`).
    public var otherNames: [String: String] = [:]

    /// The OSM keys of `otherNames`.
    public static let otherNameKeys: Set<String> = ["alt_name", "old_name", "official_name", "short_name", "loc_name"]
    /// The details searched as other names are (after a spot's own names at the same level):
    /// what people call a place by when it has no name of its own, "Shell", "Mora Banc".
    public static let namedDetails: [Detail] = [.brand, .operator]
    /// Every OSM key a spot keeps as it is (not `name:*` or `addr:*`, which it keeps by prefix):
    /// `name`, the details and the other names. The one list the build selects tags by.
    public static let attributeKeys = ["name"] + Detail.allCases.map(\.rawValue) + otherNameKeys.sorted()
    /// Other OSM objects folded into this spot as duplicates of it.
    public var merged: [OSMRef]
    /// Whether the object has a `wikipedia` (or `wikipedia:xx`) tag: a flag for ranking
    /// (`PlaceQuality`); the `wikipedia` tag itself is a detail.
    public var hasWikipedia = false

    /// The detail tags a spot keeps, in export order. The raw value is the OSM key.
    public enum Detail: String, CaseIterable, Hashable, Sendable {
        case phone, website
        case openingHours = "opening_hours"
        case cuisine, wikidata, wikipedia, brand
        case `operator`
        /// The elevation in metres (`ele`), kept for physical features only.
        case elevation = "ele"
    }

    /// A spot with the given fields; attributes default to empty.
    public init(
        ref: OSMRef, coordinate: Coordinate, tagKey: String, kind: String, category: Category?,
        name: String? = nil, names: [String: String] = [:], address: [String: String] = [:],
        details: [Detail: String] = [:], merged: [OSMRef] = []
    ) {
        self.ref = ref
        self.coordinate = coordinate
        self.tagKey = tagKey
        self.kind = kind
        self.category = category
        self.name = name
        self.names = names
        self.address = address
        self.details = details
        self.merged = merged
    }

    /// The selecting tag as OSM writes it: "amenity=cafe".
    public var tag: String { tagKey + "=" + kind }

    /// The spot's attributes as OSM tags (`name`, `name:xx`, `addr:*` and the details), sorted by
    /// key: the one flat form in which the index stores them.
    public var attributeTags: [(key: String, value: String)] {
        var tags: [(key: String, value: String)] = []
        if let name { tags.append(("name", name)) }
        tags += names.map { ("name:" + $0.key, $0.value) }
        tags += address.map { ("addr:" + $0.key, $0.value) }
        tags += details.map { ($0.key.rawValue, $0.value) }
        tags += otherNames.map { ($0.key, $0.value) }
        return tags.sorted { $0.key < $1.key }
    }

    /// Sets the attribute that an OSM tag carries, if the spot keeps that tag; returns whether it did.
    @discardableResult
    public mutating func setAttribute(key: String, value: String) -> Bool {
        if key == "name" {
            name = value
        } else if let language = Spot.languageCode(ofNameKey: key) {
            names[language] = value
        } else if let part = key.suffix(afterPrefix: "addr:") {
            address[part] = value
        } else if let detail = Detail(rawValue: key) {
            details[detail] = value
        } else if Spot.otherNameKeys.contains(key) {
            otherNames[key] = value
        } else {
            return false
        }
        return true
    }

    /// The value of the attribute that OSM tag `key` carries, as `setAttribute` sets it; nil
    /// when the spot has none or keeps no such tag.
    public func attribute(_ key: String) -> String? {
        if key == "name" { return name }
        if let language = Spot.languageCode(ofNameKey: key) { return names[language] }
        if let part = key.suffix(afterPrefix: "addr:") { return address[part] }
        if let detail = Detail(rawValue: key) { return details[detail] }
        return otherNames[key]
    }

    /// Every name of the place: `name`, the localized names, the other names and the named details.
    public var allNames: [String] { namesByKey.map(\.name) }

    /// Every name search reads, with its OSM key: `name`, the localized names and the other
    /// names, each group by name, then the named details (`namedDetails`) in their order
    /// (`nameRank`).
    public var namesByKey: [(key: String, name: String)] {
        let localized = names.map { ("name:" + $0.key, $0.value) }
        let named = Spot.namedDetails.compactMap { detail in details[detail].map { (detail.rawValue, $0) } }
        let all = (name.map { [("name", $0)] } ?? []) + localized + otherNames.map { ($0.key, $0.value) } + named
        return all.sorted { Spot.nameOrder(key: $0.0, name: $0.1) < Spot.nameOrder(key: $1.0, name: $1.1) }
    }

    /// Where a name of OSM key `key` stands among a spot's names (`namesByKey`): 0 for `name`,
    /// 1 for a localized name (`name:xx`), 2 for another name (`otherNameKeys`), 3 and on for
    /// the named details in their order; nil for a key that holds no name search reads.
    public static func nameRank(ofKey key: String) -> Int? {
        if key == "name" { return 0 }
        if languageCode(ofNameKey: key) != nil { return 1 }
        if otherNameKeys.contains(key) { return 2 }
        return namedDetails.firstIndex { $0.rawValue == key }.map { 3 + $0 }
    }

    /// Where name `name` of OSM key `key` stands among a spot's names (`namesByKey`), as a key
    /// to sort by: the rank of its key (`nameRank`), then the name, then the key.
    public static func nameOrder(key: String, name: String) -> (rank: Int, name: String, key: String) {
        (nameRank(ofKey: key) ?? .max, name, key)
    }

    /// The name a result shows (`DisplayName`) for a reader of `language` (a `name:xx` code),
    /// or nil when the place has no name, brand or operator.
    public func displayName(language: String?) -> DisplayName? {
        var best: (rank: Int, name: DisplayName)?
        for (key, value) in attributeTags {
            guard let rank = DisplayName.rank(ofKey: key, language: language), rank < best?.rank ?? .max else {
                continue
            }
            best = (rank, DisplayName(key: key, name: value))
        }
        return best?.name
    }

    /// The language of a localized name key: "ja" for `name:ja`, "zh-Hant" for `name:zh-Hant`;
    /// nil for other keys, including `name:etymology:wikidata`-like sub-keys.
    public static func languageCode(ofNameKey key: String) -> String? {
        guard let code = key.suffix(afterPrefix: "name:") else { return nil }
        let letters = code.prefix { $0.isASCII && $0.isLetter }
        let isCode =
            (2...3).contains(letters.count)
            && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return isCode ? code : nil
    }
}

extension String {
    /// What follows `prefix`, when the string starts with it and has more after it.
    fileprivate func suffix(afterPrefix prefix: String) -> String? {
        guard hasPrefix(prefix), count > prefix.count else { return nil }
        return String(dropFirst(prefix.count))
    }
}

/// The name a result shows, and the OSM key it comes from: `name:xx` in the reader's language
/// when the place has it, else `name`, else `name:en`, else any `name:xx` (the first by key),
/// else `brand`, else `operator`. Without a language, `name` comes first.
public struct DisplayName: Sendable, Equatable {
    /// The OSM key: "name", "name:ca", "brand".
    public let key: String
    /// Its value.
    public let name: String

    /// A display name of `name` from `key`.
    public init(key: String, name: String) {
        self.key = key
        self.name = name
    }

    /// Where the value of `key` stands in the order above for a reader of `language`, lowest
    /// first (of two keys of one rank, the first in key order wins); nil for a key never shown.
    public static func rank(ofKey key: String, language: String?) -> Int? {
        switch key {
        case "name": return language == nil ? 0 : 1
        case Spot.Detail.brand.rawValue: return 5
        case Spot.Detail.operator.rawValue: return 6
        default:
            guard let code = Spot.languageCode(ofNameKey: key) else { return nil }
            return code == language ? 0 : code == "en" ? 2 : 3
        }
    }
}
