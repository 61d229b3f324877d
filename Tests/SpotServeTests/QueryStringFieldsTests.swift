import SpotJSON
import SpotRequests
import SpotSearch
import Spots
import Testing

@Suite("Query strings read as batch lines")
struct QueryStringFieldsTests {
    private func request(_ parameters: [(String, String)]) throws -> SearchRequest {
        let object = try QueryStringFields.object(
            parameters.map { (name: $0.0, value: $0.1) }, keys: SearchBatchRequest.keys, aliases: ["q": "query"])
        return try SearchBatchRequest.parse(object)
    }

    @Test("each parameter means what its batch key means, lists comma-separated, q for query")
    func meaning() throws {
        let request = try request([
            ("q", "cafe"), ("near", "60.1699,24.9384"), ("radius", "500"), ("categories", "cafe,museum"),
            ("limit", "5"), ("explain", "true"), ("language", "fi"),
        ])
        let line = Array(
            #"{"query":"cafe","near":[60.1699,24.9384],"radius":500,"categories":["cafe","museum"],"limit":5,"explain":true,"language":"fi"}"#
                .utf8)
        #expect(request == (try SearchBatchRequest.parse(line)))
        #expect(request.limit == 5 && request.near == Coordinate(latitudeE7: 601_699_000, longitudeE7: 249_384_000))
    }

    @Test(
        "a parameter that is no key, is given twice or does not read as its type is refused, named",
        arguments: [
            ([("color", "red")], "unknown parameter \"color\""),
            ([("limit", "5"), ("limit", "6")], "limit: given more than once"),
            ([("q", "a"), ("query", "b")], "query: given more than once"),
            ([("limit", "five")], "limit: expected a number"),
            ([("limit", "nan")], "limit: expected a number"),
            ([("near", "60.1,x")], "near: expected numbers separated by commas"),
            ([("explain", "yes")], "explain: expected true or false"),
            ([("near", "91,0")], "near: expected [lat, lon]"),
            ([("limit", "2.5")], "limit: expected a whole number"),
        ])
    func refusals(_ parameters: [(String, String)], _ message: String) {
        #expect(throws: BatchRequestError.self) { try request(parameters) }
        do {
            _ = try request(parameters)
        } catch {
            #expect("\(error)" == message)
        }
    }
}
