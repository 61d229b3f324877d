import Foundation
import SpotIndex
import SpotJSON
import SpotSearch
import Spots

/// Which spots a Photon request keeps by their selecting tag (`key=value`, Photon's `osm_key`
/// and `osm_value`): its `osm_tag`, `include`, `exclude` and `layer` parameters, read and
/// applied as Photon applies them.
struct PhotonFilter {
    /// One `osm_tag` value, as Photon's `TagFilter.buildOsmTagFilter` reads it.
    struct TagRule: Equatable {
        enum Kind: Equatable {
            /// `key`, `key:value`, `:value`: spots of the key, the tag or the value are kept.
            case include
            /// `!key`, `!key:value`, `!:value`, `:!value`, `!key:!value`: those spots are left out.
            case exclude
            /// `key:!value`: spots of the key but not of the value are kept (an include).
            case excludeValue
        }

        let kind: Kind
        let key: String?
        let value: String?

        /// The rule `text` spells, or nil for one Photon refuses ("", ":", "shop:", "a:b:c").
        init?(_ text: String) {
            let parts = PhotonParameters.javaSplit(text, at: ":")
            if parts.count == 2 {
                let excludeKey = parts[0].hasPrefix("!")
                let excludeValue = parts[1].hasPrefix("!")
                let key = Self.javaTrim(excludeKey ? String(parts[0].dropFirst()) : parts[0])
                let value = Self.javaTrim(excludeValue ? String(parts[1].dropFirst()) : parts[1])
                guard !value.isEmpty else { return nil }
                self.key = key.isEmpty ? nil : key
                self.value = value
                kind =
                    self.key != nil && !excludeKey && excludeValue
                    ? .excludeValue : excludeKey || excludeValue ? .exclude : .include
            } else if parts.count == 1, parts[0] == text {
                let exclude = text.hasPrefix("!")
                let key = exclude ? String(text.dropFirst()) : text
                guard !key.isEmpty else { return nil }
                (kind, self.key, value) = (exclude ? .exclude : .include, key, nil)
            } else {
                return nil
            }
        }

        /// Whether a spot of `key=value` meets the rule's key and value (for `excludeValue`, the
        /// key and another value).
        func meets(key: String, value: String) -> Bool {
            if kind == .excludeValue { return key == self.key && value != self.value }
            return (self.key.map { $0 == key } ?? true) && (self.value.map { $0 == value } ?? true)
        }

        /// `text` without what Java's `String.trim` takes off its ends (U+0000 to U+0020).
        private static func javaTrim(_ text: String) -> String {
            let scalars = text.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
            return String(String.UnicodeScalarView(scalars))
        }
    }

    let tagRules: [TagRule]
    /// Each `include`: its comma-separated categories, of which a spot must have one.
    let includes: [[String]]
    /// Each `exclude`: its comma-separated categories, all of which leave a spot out.
    let excludes: [[String]]
    /// The layers asked for; empty asks nothing.
    let layers: Set<String>

    /// The filters of `parameters`, each refused as Photon refuses it.
    init(_ parameters: PhotonParameters) throws {
        layers = Set(parameters.all("layer"))
        if let unknown = parameters.all("layer").first(where: { !PhotonAPI.layers.contains($0) }) {
            throw PhotonError(
                "Unknown layer type '\(unknown)'. Available layers: [\(PhotonAPI.layers.joined(separator: ", "))]")
        }
        tagRules = try parameters.all("osm_tag").map { text in
            guard let rule = TagRule(text) else { throw PhotonError("Invalid format for osm_tag parameter.") }
            return rule
        }
        func categories(_ name: String) throws -> [[String]] {
            try parameters.all(name).map { text in
                let list = PhotonParameters.javaSplit(text, at: ",")
                guard !text.hasSuffix(","), !list.isEmpty, list.allSatisfy(Self.isCategory) else {
                    throw PhotonError("Invalid category pattern in '\(name)'.")
                }
                return list
            }
        }
        includes = try categories("include")
        excludes = try categories("exclude")
    }

    /// Whether the request names categories to include, which lets `/api` go without `q`.
    var hasCategories: Bool { !includes.isEmpty }

    /// Whether a spot selected by `key=value` passes: of a layer asked for (every spot is of
    /// `PhotonAPI.spotLayer`); meeting some include rule of `osm_tag` (if any) and no exclude
    /// rule; having one category of each `include` and not every category of any `exclude`.
    func allows(key: String, value: String) -> Bool {
        guard layers.isEmpty || layers.contains(PhotonAPI.spotLayer) else { return false }
        let including = tagRules.filter { $0.kind != .exclude }
        guard including.isEmpty || including.contains(where: { $0.meets(key: key, value: value) }),
            !tagRules.contains(where: { $0.kind == .exclude && $0.meets(key: key, value: value) })
        else { return false }
        let category = Self.category(key: key, value: value)
        return includes.allSatisfy { $0.contains { Self.names($0, category) } }
            && !excludes.contains { $0.allSatisfy { Self.names($0, category) } }
    }

    /// What the filter asks of a search over an index of `kinds`.
    enum Outcome: Equatable {
        /// Every kind passes: no filter.
        case everything
        /// No kind passes: the answer is empty.
        case nothing
        /// The kinds that pass, as the search's filter.
        case only(TagFilter)
    }

    /// The filter as a `TagFilter` over the kinds of an index: the tags of the kinds that pass,
    /// which is exact for every rule (`key:!value` among others included).
    func tagFilter(over kinds: [SelectingTag]) -> Outcome {
        let passing = kinds.filter { allows(key: $0.key, value: $0.value) }
        if passing.isEmpty { return .nothing }
        if passing.count == kinds.count { return .everything }
        // Kinds that differ by category alone share a tag, named once.
        var named = Set<String>()
        let patterns = passing.filter { named.insert($0.key + "=" + $0.value).inserted }.map {
            TagFilter.Pattern(key: $0.key, value: $0.value)
        }
        return .only(TagFilter(including: patterns))
    }

    /// Photon's category of a spot, as its Nominatim export writes it: `osm.KEY.VALUE`, with
    /// `yes` for a value that is not a label and `place.yes` for such a key.
    static func category(key: String, value: String) -> [Substring] {
        guard isLabel(key) else { return ["osm", "place", "yes"] }
        return ["osm", key[...], isLabel(value) ? value[...] : "yes"]
    }

    /// Whether filter term `term` names `category`: its labels start the category's.
    private static func names(_ term: String, _ category: [Substring]) -> Bool {
        category.starts(with: term.split(separator: ".", omittingEmptySubsequences: false))
    }

    /// A category as Photon writes one: two or more labels joined by dots.
    private static func isCategory(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy(isLabel)
    }

    /// Letters, digits, `_` and `-` (ASCII), at least one.
    private static func isLabel(_ text: some StringProtocol) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) || $0 == 0x5f || $0 == 0x2d
            }
    }
}

/// The bodies of Photon's answers: a FeatureCollection of spots (GeocodeJSON's properties as
/// Photon names them, then Spots' own), the status and an error.
enum PhotonFeatures {
    /// `{"type":"FeatureCollection","features":[…]}` of `ranked`, names in `language`.
    static func collection(_ ranked: [RankedSpot], language: String?, of index: SpotIndexReader) throws -> [UInt8] {
        var bytes = Array(#"{"type":"FeatureCollection","features":["#.utf8)
        for (position, result) in ranked.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            let spot = try index.spot(at: result.spot)
            let shown = SearchResult(spot: spot, distance: result.distance, match: result.match, language: language)
            appendFeature(shown, language: language, to: &bytes)
        }
        return bytes + Array("]}".utf8)
    }

    /// The FeatureCollection of no spots.
    static let emptyCollection = Array(#"{"type":"FeatureCollection","features":[]}"#.utf8)

    /// One feature: `type`, `properties` (those of Photon that apply: `osm_type` N, W or R,
    /// `osm_id`, `osm_key` and `osm_value` (the selecting tag), `type` (the layer), the address
    /// parts, `name` (the display name), `extra` (the detail tags); then Spots' `category`,
    /// `result_type`, `address_line`, `distance_m` and `match`, each left out when absent),
    /// `geometry`.
    private static func appendFeature(_ result: SearchResult, language: String?, to bytes: inout [UInt8]) {
        let spot = result.spot
        bytes += Array(#"{"type":"Feature","properties":{"osm_type":"#.utf8)
        JSONText.appendString(String(spot.ref.type.letter).uppercased(), to: &bytes)
        JSONText.appendKey("osm_id", to: &bytes)
        JSONText.appendInteger(spot.ref.id, to: &bytes)
        JSONText.appendKey("osm_key", to: &bytes)
        JSONText.appendString(spot.tagKey, to: &bytes)
        JSONText.appendKey("osm_value", to: &bytes)
        JSONText.appendString(spot.kind, to: &bytes)
        JSONText.appendKey("type", to: &bytes)
        JSONText.appendString(PhotonAPI.spotLayer, to: &bytes)
        func add(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            JSONText.appendKey(key, to: &bytes)
            JSONText.appendString(value, to: &bytes)
        }
        let address = spot.address
        let code = address["country"].flatMap(countryCode)
        add("housenumber", address["housenumber"])
        add("name", result.displayName?.name)
        add("street", address["street"] ?? address["place"])
        add("locality", address["neighbourhood"] ?? address["quarter"])
        add("district", address["suburb"] ?? address["district"])
        add("city", address["city"])
        add("county", address["county"])
        add("state", address["state"] ?? address["province"])
        add("country", code.flatMap { Locale(identifier: language ?? "en").localizedString(forRegionCode: $0) })
        add("postcode", address["postcode"])
        add("countrycode", code)
        let details = Spot.Detail.allCases.compactMap { detail in spot.details[detail].map { (detail.rawValue, $0) } }
        if !details.isEmpty {
            JSONText.appendKey("extra", to: &bytes)
            for (position, (key, value)) in details.enumerated() {
                bytes.append(UInt8(ascii: position == 0 ? "{" : ","))
                JSONText.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                JSONText.appendString(value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        add("category", spot.category?.rawValue)
        add("result_type", spot.resultType.rawValue)
        add("address_line", result.addressLine)
        if let distance = result.distance {
            JSONText.appendKey("distance_m", to: &bytes)
            JSONText.appendTenths(distance, to: &bytes)
        }
        if let match = result.match {
            JSONText.appendKey("match", to: &bytes)
            JSONText.appendKey("level", first: true, to: &bytes)
            JSONText.appendString(match.level.name, to: &bytes)
            JSONText.appendKey("field", to: &bytes)
            JSONText.appendString(match.field, to: &bytes)
            JSONText.appendKey("score", to: &bytes)
            bytes += Array(String(format: "%.4g", match.score).utf8)
            if match.level == .fuzzy {
                JSONText.appendKey("edits", to: &bytes)
                JSONText.appendInteger(Int64(match.edits), to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes += Array(#"},"geometry":{"type":"Point","coordinates":["#.utf8)
        JSONText.appendFixedPoint(spot.coordinate.longitudeE7, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONText.appendFixedPoint(spot.coordinate.latitudeE7, to: &bytes)
        bytes += Array("]}}".utf8)
    }

    /// The ISO 3166-1 code `addr:country` gives, upper case, or nil for anything else.
    static func countryCode(_ text: String) -> String? {
        let code = text.uppercased()
        guard code.utf8.count == 2, code.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5a }), isoRegions.contains(code) else {
            return nil
        }
        return code
    }

    private static let isoRegions = Set(Locale.Region.isoRegions.map(\.identifier))

    /// `/status`: `{"status":"Ok","import_date":…,"version":…,"git_commit":"unknown"}`, the date
    /// the index's build time ("" without one, as Photon writes it), the version Spots'.
    static func status(importDate: String?) -> [UInt8] {
        var bytes = Array(#"{"status":"Ok""#.utf8)
        JSONText.appendKey("import_date", to: &bytes)
        JSONText.appendString(importDate ?? "", to: &bytes)
        JSONText.appendKey("version", to: &bytes)
        JSONText.appendString(SpotsVersion.version, to: &bytes)
        return bytes + Array(#","git_commit":"unknown"}"#.utf8)
    }

    /// Photon's error: `{"message":…}`.
    static func error(_ message: String) -> [UInt8] {
        var bytes = Array(#"{"message":"#.utf8)
        JSONText.appendString(message, to: &bytes)
        return bytes + [UInt8(ascii: "}")]
    }
}
