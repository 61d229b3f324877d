import SpotJSON
import SpotSearch
import SpotText
import Spots

/// Why a batch line (or the query string of a request to the server) is not a valid request,
/// naming the key: answered with `{"error":"..."}`.
public struct BatchRequestError: Error, CustomStringConvertible {
    /// The message, the key first ("near: expected [lat, lon]").
    public let description: String
    /// The error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// One line of `spots search --batch`: a JSON object with optional near, radius, bbox,
/// categories, exclude, result_types, query, limit, sort, distance_scale, explain and language.
public enum SearchBatchRequest {
    /// The request `line` holds.
    public static func parse(_ line: [UInt8]) throws(BatchRequestError) -> SearchRequest {
        try parse(BatchFields.object(line, keys: keys))
    }

    /// The request the members of a batch line's object give (every key one of `keys`).
    public static func parse(_ object: [String: JSONValue]) throws(BatchRequestError) -> SearchRequest {
        var request = SearchRequest()
        if let near = object["near"] {
            guard let pair = BatchFields.numbers(near), pair.count == 2,
                let point = MapInput.coordinate(latitude: pair[0], longitude: pair[1])
            else { throw BatchRequestError("near: expected [lat, lon]") }
            request.near = point
        }
        if let radius = object["radius"] {
            guard let metres = radius.double, metres >= 0 else {
                throw BatchRequestError("radius: expected metres")
            }
            request.radius = metres
        }
        if let bbox = object["bbox"] { request.region = try BatchFields.box(bbox) }
        for (key, including) in [("categories", true), ("exclude", false)] {
            guard let value = object[key] else { continue }
            let categories = try BatchFields.categories(value, key: key)
            guard request.pointOfInterestFilter == nil else {
                throw BatchRequestError("give categories or exclude, not both")
            }
            request.pointOfInterestFilter =
                including ? PointOfInterestFilter(including: categories) : PointOfInterestFilter(excluding: categories)
        }
        if let types = object["result_types"] { request.resultTypes = try BatchFields.resultTypes(types) }
        if let query = object["query"] {
            guard case .string(let text) = query else { throw BatchRequestError("query: expected a string") }
            request.naturalLanguageQuery = text
        }
        if let limit = object["limit"] {
            guard let number = limit.double, number >= 0, number == number.rounded(), number < 1e9 else {
                throw BatchRequestError("limit: expected a whole number")
            }
            request.limit = Int(number)
        }
        if let sort = object["sort"] {
            guard case .string(let name) = sort, let order = SearchSort(rawValue: name) else {
                throw BatchRequestError("sort: expected \"relevance\" or \"distance\"")
            }
            request.sort = order
        }
        if let scale = object["distance_scale"] {
            guard let metres = scale.double, metres >= 1, metres.isFinite else {
                throw BatchRequestError("distance_scale: expected metres, at least 1")
            }
            request.distanceScale = metres
        }
        if let explain = object["explain"] {
            guard case .bool(let flag) = explain else { throw BatchRequestError("explain: expected true or false") }
            request.explain = flag
        }
        if let language = object["language"] {
            guard case .string(let code) = language, Spot.languageCode(ofNameKey: "name:" + code) == code else {
                throw BatchRequestError("language: expected a language code such as \"ca\" or \"zh-Hant\"")
            }
            request.language = code
        }
        return request
    }

    /// `request`, refused when it asks for nothing in particular (`SearchRequest.asksSomething`),
    /// which would answer with arbitrary spots.
    public static func checked(_ request: SearchRequest) throws(BatchRequestError) -> SearchRequest {
        guard request.asksSomething else { throw BatchRequestError("give query, near, bbox or categories") }
        return request
    }

    /// The keys a request may have, with the JSON type of each value.
    public static let keys: [String: BatchValueType] = [
        "near": .numbers, "radius": .number, "bbox": .numbers, "categories": .strings, "exclude": .strings,
        "query": .string, "limit": .number, "sort": .string, "distance_scale": .number, "explain": .bool,
        "language": .string, "result_types": .strings,
    ]
}

extension SearchRequest {
    /// Whether the request names what it looks for: words (`query`), a point (`near`), a
    /// region (`bbox`) or categories to include. An excluding filter or result types alone only
    /// narrow the whole index, whose first spots would be arbitrary.
    public var asksSomething: Bool {
        !SearchText.words(naturalLanguageQuery ?? "").isEmpty || near != nil || region != nil
            || pointOfInterestFilter?.mode == .including
    }
}

/// One line of `spots cluster --batch`: `{"bbox":[...],"zoom":z,"categories":[...]}`.
public enum ClusterBatchRequest {
    /// The request `line` holds.
    public static func parse(_ line: [UInt8]) throws(BatchRequestError) -> ClusterRequest {
        try parse(BatchFields.object(line, keys: keys))
    }

    /// The request the members of a batch line's object give (every key one of `keys`).
    public static func parse(_ object: [String: JSONValue]) throws(BatchRequestError) -> ClusterRequest {
        guard let bbox = object["bbox"] else { throw BatchRequestError("bbox: missing") }
        guard let number = object["zoom"]?.double, let zoom = MapInput.zoom(number) else {
            throw BatchRequestError("zoom: expected a zoom from 0 to \(MapInput.maxZoom)")
        }
        var request = ClusterRequest(region: try BatchFields.box(bbox), zoom: zoom)
        if let categories = object["categories"] {
            let names = try BatchFields.categories(categories, key: "categories")
            request.pointOfInterestFilter = PointOfInterestFilter(including: names)
        }
        return request
    }

    /// The keys a request may have, with the JSON type of each value.
    public static let keys: [String: BatchValueType] = ["bbox": .numbers, "zoom": .number, "categories": .strings]
}

/// The JSON type of a batch key's value, by which a query string's text becomes one
/// (`QueryStringFields`).
public enum BatchValueType: Sendable {
    case number, numbers, string, strings, bool
}

/// The fields both kinds of batch line share.
enum BatchFields {
    /// The members of the JSON object `line` holds, every key one of `keys`.
    static func object(_ line: [UInt8], keys: [String: BatchValueType]) throws(BatchRequestError) -> [String: JSONValue]
    {
        guard case .object(let object)? = try? JSONValue(parsing: line) else {
            throw BatchRequestError("not a JSON object")
        }
        if let unknown = object.keys.filter({ keys[$0] == nil }).min() {
            throw BatchRequestError("unknown key \"\(unknown)\"")
        }
        return object
    }

    /// The region of a `bbox` value: [minlon, minlat, maxlon, maxlat].
    static func box(_ value: JSONValue) throws(BatchRequestError) -> GeoBox {
        guard let region = numbers(value).flatMap(MapInput.box) else {
            throw BatchRequestError("bbox: expected [minlon, minlat, maxlon, maxlat]")
        }
        return region
    }

    /// The categories of a `categories` (or `exclude`) value named `key`: an array of names.
    static func categories(_ value: JSONValue, key: String) throws(BatchRequestError) -> Set<Category> {
        guard case .array(let items) = value else {
            throw BatchRequestError("\(key): expected an array of category names")
        }
        var categories: Set<Category> = []
        for item in items {
            guard case .string(let name) = item else {
                throw BatchRequestError("\(key): expected an array of category names")
            }
            guard let category = Category(rawValue: name) else {
                throw BatchRequestError("\(key): " + Suggestions.unknownCategory(name))
            }
            categories.insert(category)
        }
        return categories
    }

    /// The result types of a `result_types` value: an array of names ("poi", "physical",
    /// "address", or MapKit's "pointOfInterest", "physicalFeature"), at least one.
    static func resultTypes(_ value: JSONValue) throws(BatchRequestError) -> ResultTypes {
        let error = BatchRequestError("result_types: expected names among poi, physical and address")
        guard case .array(let items) = value, !items.isEmpty else { throw error }
        var types: ResultTypes = []
        for item in items {
            guard case .string(let name) = item, let type = ResultType(name: name) else { throw error }
            types.insert(ResultTypes(type))
        }
        return types
    }

    /// The numbers of a JSON array of numbers.
    static func numbers(_ value: JSONValue) -> [Double]? {
        guard case .array(let items) = value else { return nil }
        var numbers: [Double] = []
        for item in items {
            guard let number = item.double else { return nil }
            numbers.append(number)
        }
        return numbers
    }
}
