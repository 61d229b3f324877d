/// One place: what an app shows as a pin and on its detail card.
///
/// A spot comes from one OpenStreetMap object (`ref`) selected by one tag (`tagKey=kind`,
/// such as `amenity=cafe`). Text attributes are kept as the OSM tags spell them.
public struct Spot: Hashable, Sendable {
    /// The OSM object this spot comes from.
    public var ref: OSMRef
    /// Where the place is.
    public var coordinate: Coordinate
    /// The key of the selecting tag: "amenity" or "tourism".
    public var tagKey: String
    /// The OSM value of the selecting tag, kept whatever the category: "fast_food", "ice_cream".
    public var kind: String
    /// The category the tag maps to, or nil when the value maps to none.
    public var category: Category?
    /// The `name` tag.
    public var name: String?
    /// The `name:xx` tags: language code to name.
    public var names: [String: String]
    /// The `addr:*` tags, keyed by what follows `addr:` ("street", "housenumber").
    public var address: [String: String]
    /// The scalar detail tags an app shows (phone, website, opening hours, cuisine, wikidata).
    public var details: [Detail: String]
    /// Other names the place is known by, searchable but not exported, by OSM key
    /// (`alt_name`, `old_name`, `official_name`, `short_name`, `loc_name`).
    public var otherNames: [String: String] = [:]

    /// The OSM keys of `otherNames`.
    public static let otherNameKeys: Set<String> = ["alt_name", "old_name", "official_name", "short_name", "loc_name"]
    /// Every OSM key a spot keeps as it is (not `name:*` or `addr:*`, which it keeps by prefix):
    /// `name`, the details and the other names. The one list the build selects tags by.
    public static let attributeKeys = ["name"] + Detail.allCases.map(\.rawValue) + otherNameKeys.sorted()
    /// Other OSM objects folded into this spot as duplicates of it.
    public var merged: [OSMRef]
    /// Whether the object has a `wikipedia` (or `wikipedia:xx`) tag: kept as a flag for ranking
    /// (`PlaceQuality`), not as text.
    public var hasWikipedia = false

    /// The detail tags a spot keeps, in export order. The raw value is the OSM key.
    public enum Detail: String, CaseIterable, Hashable, Sendable {
        case phone, website
        case openingHours = "opening_hours"
        case cuisine, wikidata
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

    /// Whether OSM key `key` holds a name: `name`, `name:xx` or one of `otherNameKeys`.
    public static func isNameKey(_ key: String) -> Bool {
        key == "name" || languageCode(ofNameKey: key) != nil || otherNameKeys.contains(key)
    }

    /// Every name of the place: `name`, the localized names and the other names.
    public var allNames: [String] { namesByKey.map(\.name) }

    /// Every name of the place with its OSM key: `name`, the localized names and the other
    /// names, each group by name.
    public var namesByKey: [(key: String, name: String)] {
        let localized = names.map { ("name:" + $0.key, $0.value) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        let others = otherNames.map { ($0.key, $0.value) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        return (name.map { [("name", $0)] } ?? []) + localized + others
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
