import SpotJSON
import Testing

@Suite("JSON fields")
struct JSONFieldTests {
    func field(_ text: String) throws -> JSONField {
        JSONField(try JSONValue(parsing: text.utf8), document: "p.json")
    }

    /// The description of the error `read` throws.
    func failure(_ read: () throws -> Void) -> String? {
        do {
            try read()
            return nil
        } catch let error as JSONFieldError {
            return error.description
        } catch {
            return "not a JSONFieldError: \(error)"
        }
    }

    @Test("errors name the document and the JSON path of the field, '.' for the top level")
    func pathsInErrors() throws {
        let root = try field(#"{"dedupe": {"radius": 500, "list": [1, "x"]}, "n": 1.5}"#)
        let dedupe = try #require(try root.object()["dedupe"]).object()
        #expect(
            failure { _ = try dedupe["radius"]?.number(in: 0...200, "a distance in metres") }
                == "p.json: .dedupe.radius: expected a distance in metres from 0 to 200, got 500")
        let list = try #require(dedupe["list"]).array()
        #expect(failure { _ = try list[1].bool() } == "p.json: .dedupe.list[1]: expected true or false")
        #expect(failure { _ = try list[0].string() } == "p.json: .dedupe.list[0]: expected a string")
        #expect(
            failure { _ = try root.object()["n"]?.integer(atLeast: 1) }
                == "p.json: .n: expected a whole number of at least 1")
        #expect(failure { _ = try root.array() } == "p.json: .: expected an array")
        #expect(
            failure { _ = try root.object(allowing: ["dedupe"]) }
                == "p.json: .n: unknown key (expected one of: dedupe)")
    }

    @Test("a versioned file needs schema_version 1 and its member")
    func versioned() throws {
        #expect(
            failure { _ = try field(#"{"words": {}}"#).versioned(key: "words", allowing: []) }
                == "p.json: .schema_version: missing")
        #expect(
            failure { _ = try field(#"{"schema_version": 2, "words": {}}"#).versioned(key: "words", allowing: []) }
                == "p.json: .schema_version: unsupported version; this program reads 1")
        #expect(
            failure { _ = try field(#"{"schema_version": 1}"#).versioned(key: "words", allowing: []) }
                == "p.json: .words: missing")
        let read = try field(#"{"schema_version": 1, "words": [], "about": "x"}"#).versioned(
            key: "words", allowing: ["about"])
        #expect(read.member.path == ".words" && read.members.count == 3)
    }
}
