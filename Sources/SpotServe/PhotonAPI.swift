import Foundation
import SpotIndex
import SpotSearch
import Spots

/// Photon's routes (komoot/photon docs/api-v1.md) answered from a Spots index.
///
/// A parameter means what it means to Photon; a parameter Photon does not know, or one it knows
/// and Spots cannot honour (`countrycode`, `dedupe`, `debug`, `geometry`, `suggest_addresses`,
/// `distance_sort`, `query_string_filter`), is ignored. Each refusal is 400 with Photon's
/// `{"message": …}`, naming the parameter. How each parameter maps onto a `SearchRequest` is
/// in docs/serve.md.
enum PhotonAPI {
    /// GET /api
    static func search(_ arguments: [(name: String, value: String)], on index: LoadedIndex) -> HTTPResponse {
        answer(on: index) { try searchRequest(PhotonParameters(arguments), kinds: index.search.index.kinds) }
    }

    /// GET /reverse
    static func reverse(_ arguments: [(name: String, value: String)], on index: LoadedIndex) -> HTTPResponse {
        answer(on: index) { try reverseRequest(PhotonParameters(arguments), kinds: index.search.index.kinds) }
    }

    /// GET /status
    static func status(of index: LoadedIndex) -> HTTPResponse {
        json(200, PhotonFeatures.status(importDate: index.buildTime))
    }

    /// `limit` when none is given: Photon's 15 for a search, 1 for a reverse look-up.
    static let defaultSearchLimit = 15
    static let defaultReverseLimit = 1
    /// The largest `limit`; a larger one is refused.
    static let maximumLimit = 1000
    /// The longest `q`, in UTF-8 bytes; a longer one is refused.
    static let maximumQueryBytes = 1024
    /// Photon's `location_bias_scale` when none is given, which maps onto quality weight 1.
    static let defaultLocationBiasScale = 0.4
    /// `radius` of a reverse look-up, in kilometres: 1 when none is given, at most 5000.
    static let defaultReverseRadius = 1.0
    static let maximumReverseRadius = 5000.0
    /// Photon's layers (its `AddressType`s), in its order.
    static let layers = ["house", "street", "locality", "district", "city", "county", "state", "country", "other"]
    /// The layer of every spot: Photon's for a point of interest (Nominatim's address rank 30).
    static let spotLayer = "house"

    /// The distance scale in metres for Photon's `zoom` (clamped to 0...18): the radius Photon
    /// biases within, 2.2^(18 − zoom) × 0.1 km, so zoom 18 gives Spots' default 100 m, zoom 12
    /// 11.3 km; nil (no zoom) gives Spots' default.
    static func distanceScale(zoom: Int?) -> Double {
        guard let zoom else { return SearchRequest.defaultDistanceScale }
        return pow(2.2, Double(18 - min(max(zoom, 0), 18))) * SearchRequest.defaultDistanceScale
    }

    /// The quality weight for Photon's `location_bias_scale` (clamped to 0...1): scale / 0.4, so
    /// Photon's default 0.4 gives Spots' ranking, 0 ignores quality beside distance and 1 counts
    /// it 2.5 times as much.
    static func qualityWeight(locationBiasScale scale: Double?) -> Double {
        guard let scale else { return 1 }
        return min(max(scale, 0), 1) / defaultLocationBiasScale
    }

    /// The request that `/api` asks with `parameters`, or nil when its filters leave no kind of
    /// spot the index has (`kinds`).
    static func searchRequest(_ parameters: PhotonParameters, kinds: [SelectingTag]) throws -> SearchRequest? {
        var request = SearchRequest(limit: try parameters.limit(default: defaultSearchLimit))
        let filter = try PhotonFilter(parameters)
        let zoom = try parameters.integer("zoom")
        let scale = try parameters.number("location_bias_scale")
        let point = try parameters.point(mandatory: false)
        request.region = try parameters.box()
        let query = parameters.first("q") ?? ""
        guard query.utf8.count <= maximumQueryBytes else {
            throw PhotonError("Parameter 'q' is longer than \(maximumQueryBytes) bytes.")
        }
        if query.allSatisfy(\.isWhitespace) {
            guard filter.hasCategories else {
                throw PhotonError("q parameter is required when no include categories are specified")
            }
        } else {
            request.naturalLanguageQuery = query
        }
        // Photon biases by the point only from zoom 5 on.
        if let point, (zoom ?? 18) > 4 { request.near = point }
        request.distanceScale = distanceScale(zoom: zoom)
        request.qualityWeight = qualityWeight(locationBiasScale: scale)
        return try completed(request, parameters, filter: filter, kinds: kinds)
    }

    /// The request that `/reverse` asks with `parameters`: the spots nearest the point within
    /// the radius, or nil when its filters leave no kind of spot the index has (`kinds`).
    static func reverseRequest(_ parameters: PhotonParameters, kinds: [SelectingTag]) throws -> SearchRequest? {
        let point = try parameters.point(mandatory: true)
        var request = SearchRequest(near: point, limit: try parameters.limit(default: defaultReverseLimit))
        let filter = try PhotonFilter(parameters)
        let radius = try parameters.number("radius") ?? defaultReverseRadius
        guard radius > 0, radius <= maximumReverseRadius else {
            throw PhotonError(
                "Invalid value for 'radius' parameter: kilometres, more than 0 and at most \(Int(maximumReverseRadius))."
            )
        }
        request.radius = radius * 1000
        return try completed(request, parameters, filter: filter, kinds: kinds)
    }

    /// `request` with the parameters both routes share: `lang`, `explain` and the filters, or nil
    /// when the filters leave no kind of `kinds`.
    private static func completed(
        _ request: SearchRequest, _ parameters: PhotonParameters, filter: PhotonFilter, kinds: [SelectingTag]
    ) throws -> SearchRequest? {
        var request = request
        request.language = parameters.language()
        request.explain = parameters.flag("explain")
        switch filter.tagFilter(over: kinds) {
        case .everything: break
        case .nothing: return nil
        case .only(let tagFilter): request.tagFilter = tagFilter
        }
        return request
    }

    /// The answer to the request `make` gives: its results as a FeatureCollection, Photon's
    /// error for a request refused, 500 for an index that cannot be read.
    private static func answer(on index: LoadedIndex, _ make: () throws -> SearchRequest?) -> HTTPResponse {
        do {
            guard let request = try make() else { return json(200, PhotonFeatures.emptyCollection) }
            let ranked = try index.search.rankedSpots(request)
            return json(200, try PhotonFeatures.collection(ranked, language: request.language, of: index.search.index))
        } catch let error as PhotonError {
            return json(400, PhotonFeatures.error(error.message))
        } catch let error as SearchError {
            return json(400, PhotonFeatures.error(error.description))
        } catch {
            return json(500, PhotonFeatures.error("\(error)"))
        }
    }

    private static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: body)
    }
}

/// A request Photon would refuse, with its message.
struct PhotonError: Error, Equatable {
    let message: String

    init(_ message: String) { self.message = message }
}

/// A query string's parameters as Photon reads them: a parameter of one value is its first
/// occurrence; a parameter given but empty or unreadable is refused, naming it.
struct PhotonParameters {
    let arguments: [(name: String, value: String)]

    init(_ arguments: [(name: String, value: String)]) { self.arguments = arguments }

    /// The first value of `name`, or nil.
    func first(_ name: String) -> String? { arguments.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    func all(_ name: String) -> [String] { arguments.filter { $0.name == name }.map(\.value) }

    /// `name` as a whole number (Java's `Integer`: optional sign, digits), or nil when absent.
    func integer(_ name: String) throws -> Int? {
        guard let text = first(name) else { return nil }
        guard let value = Int32(text) else { throw PhotonError("Invalid value for '\(name)' parameter.") }
        return Int(value)
    }

    /// `name` as a number (Java's `Double`, blanks around it allowed; NaN refused), or nil when
    /// absent.
    func number(_ name: String) throws -> Double? {
        guard let text = first(name) else { return nil }
        guard let value = Self.number(text) else { throw PhotonError("Invalid value for '\(name)' parameter.") }
        return value
    }

    /// A number as Java's `Double.parseDouble` reads it, blanks (U+0000 to U+0020) around it
    /// allowed; nil for no number, and for NaN unless `allowingNaN`.
    static func number(_ text: String, allowingNaN: Bool = false) -> Double? {
        let trimmed = text.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
        guard let value = Double(String(String.UnicodeScalarView(trimmed))), allowingNaN || !value.isNaN else {
            return nil
        }
        return value
    }

    /// `name` as Photon's booleans: "1", "yes" or "true" in any case; anything else, or none,
    /// is false.
    func flag(_ name: String) -> Bool {
        first(name).map { ["1", "yes", "true"].contains($0.lowercased()) } ?? false
    }

    /// `limit`: `fallback` when absent, at least 1 (as Photon raises a smaller one), refused
    /// above `PhotonAPI.maximumLimit`.
    func limit(default fallback: Int) throws -> Int {
        guard let limit = try integer("limit") else { return fallback }
        guard limit <= PhotonAPI.maximumLimit else {
            throw PhotonError("Invalid value for 'limit' parameter: at most \(PhotonAPI.maximumLimit).")
        }
        return max(1, limit)
    }

    /// `lat` and `lon`: both or neither (both when `mandatory`), in range.
    func point(mandatory: Bool) throws -> Coordinate? {
        let latitude = try number("lat")
        let longitude = try number("lon")
        if let latitude, !(-90...90).contains(latitude) { throw PhotonError("Invalid value for 'lat' parameter.") }
        if let longitude, !(-180...180).contains(longitude) {
            throw PhotonError("Invalid value for 'lon' parameter.")
        }
        switch (latitude, longitude) {
        case (let latitude?, let longitude?):
            return Coordinate(
                latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))
        case (nil, nil) where !mandatory: return nil
        case (nil, _): throw PhotonError("Missing parameter 'lat'.")
        case (_, nil): throw PhotonError("Missing parameter 'lon'.")
        }
    }

    /// `bbox`, minLon,minLat,maxLon,maxLat, each pair in either order (as Photon's envelope
    /// takes them), with Photon's messages.
    func box() throws -> GeoBox? {
        guard let text = first("bbox") else { return nil }
        let parts = Self.javaSplit(text, at: ",")
        let wrongCount = PhotonError(
            "Invalid number of supplied coordinates for parameter 'bbox', expected format is: minLon,minLat,maxLon,maxLat"
        )
        guard parts.count == 4 else { throw wrongCount }
        var values: [Double] = []
        for (position, part) in parts.enumerated() {
            guard let value = Self.number(part, allowingNaN: true) else { throw wrongCount }
            guard abs(value) <= (position % 2 == 0 ? 180 : 90) else {
                throw PhotonError(
                    "Invalid bounds for parameter 'bbox', expected values minLat, maxLat element [-90,90], minLon, maxLon element [-180,180]"
                )
            }
            values.append(value)
        }
        return GeoBox(
            west: min(values[0], values[2]), south: min(values[1], values[3]), east: max(values[0], values[2]),
            north: max(values[1], values[3]))
    }

    /// `lang` as the request's language: a `name:xx` code; "default", none or anything else
    /// (Photon answers in its fallback language) gives the local name.
    func language() -> String? {
        guard let code = first("lang"), code != "default", Spot.languageCode(ofNameKey: "name:" + code) != nil else {
            return nil
        }
        return code
    }

    /// `text` split at `separator` as Java's `String.split` does: trailing empty pieces dropped.
    static func javaSplit(_ text: String, at separator: Character) -> [String] {
        var pieces = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        while pieces.last == "" { pieces.removeLast() }
        return pieces
    }
}
