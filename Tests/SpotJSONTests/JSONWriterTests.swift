import Foundation
import SpotJSON
import Testing

/// The one writer against Foundation's encoders, which wrote reports, logs, status files and
/// index metadata before it: the same bytes for the same values.
@Suite("JSON writer")
struct JSONWriterTests {
    /// Every control character, the characters JSON escapes, and some that it does not.
    static let awkward: String = {
        var text = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        return text + "\"\\/\u{7F}\u{80}\u{2028}é😀 カフェ a/b"
    }()

    /// `value` as Foundation's `JSONEncoder` writes it with `formatting`.
    func foundation(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("strings are escaped as Foundation's encoder escapes them, with and without slashes")
    func escapingAsFoundation() throws {
        #expect(
            JSONText.string(Self.awkward, escaping: .short) == (try foundation(Self.awkward, [.withoutEscapingSlashes]))
        )
        #expect(JSONText.string(Self.awkward, escaping: .shortWithSlash) == (try foundation(Self.awkward, [])))
        let logged = try JSONSerialization.data(withJSONObject: [Self.awkward], options: [.withoutEscapingSlashes])
        #expect("[" + JSONText.string(Self.awkward, escaping: .short) + "]" == String(decoding: logged, as: UTF8.self))
    }

    @Test("exports escape backspace and form feed as \\u0008 and \\u000c, and leave the slash")
    func unicodeEscaping() {
        #expect(JSONText.string("a\u{08}\u{0C}\u{1F}/\"\\\n\r\t") == #""a\u0008\u000c\u001f/\"\\\n\r\t""#)
        #expect(JSONText.string("plain カフェ") == "\"plain カフェ\"")
    }

    @Test("numbers are written as Foundation's encoder writes them: whole ones without .0")
    func numbersAsFoundation() throws {
        let numbers = [25, 0.1, 1e20, 1e-7, 123_456_789_012_345_680, -0.0, 1.5e300, 1e-6, 100_000, 1e16, 2.5e-5, -3.75]
        let written = JSONValue.array(numbers.map(JSONValue.number)).text(.compact)
        #expect(written == (try foundation(numbers, [])))
    }

    @Test("a distance is appended to the nearest tenth; fixed points and integers at their limits")
    func appendedNumbers() {
        func appended(_ write: (inout [UInt8]) -> Void) -> String {
            var bytes = Array("x".utf8)
            write(&bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        let tenths: [(Double?, String)] = [
            (0.06644907619133239, "0.1"), (25, "25.0"), (-0.0, "0.0"), (0.04, "0.0"), (138.3464927451561, "138.3"),
            (183.25, "183.3"), (6_098_123.96, "6098124.0"), (nil, "null"), (.infinity, "null"), (.nan, "null"),
            (1.5e300, "null"),
        ]
        for (value, text) in tenths { #expect(appended { JSONText.appendTenths(value, to: &$0) } == "x" + text) }
        let fixed: [(Int32, String)] = [
            (0, "0.0000000"), (-5, "-0.0000005"), (557_275_569, "55.7275569"), (.min, "-214.7483648"),
            (.max, "214.7483647"), (-10_000_000, "-1.0000000"),
        ]
        for (value, text) in fixed { #expect(appended { JSONText.appendFixedPoint(value, to: &$0) } == "x" + text) }
        for value in [0, -1, 538_233_341_028, .min, .max] as [Int64] {
            #expect(appended { JSONText.appendInteger(value, to: &$0) } == "x" + String(value))
        }
    }

    @Test("a string appended in pieces is the string of the pieces joined, escaped alike")
    func stringInPieces() {
        let pieces = ["Rue \"Haute\"", " ", "3\\b", ", ", "\u{08}é/"]
        var joined: [UInt8] = []
        JSONText.appendString(pieces.joined(), to: &joined)
        var inPieces: [UInt8] = []
        JSONText.appendString(to: &inPieces) { write in pieces.forEach(write) }
        #expect(inPieces == joined)
    }

    struct Sample: Codable {
        var name: String
        var count: Int
        var share: Double
        var tags: [String]
        var empty: [Int]
        var nested: [String: [String: Int]]
        var absent: String?
    }

    static let sample = Sample(
        name: "x/y\u{08}", count: 12, share: 0.25, tags: ["a", "b"], empty: [],
        nested: ["é": ["z": 1, "a": 2], "e\u{301}x": [:], "f": ["k": 3]], absent: nil)

    /// The sample as a value, written as it would be: absent optionals left out.
    static let sampleValue = JSONValue.object([
        "name": .string(sample.name), "count": .integer(sample.count), "share": .number(sample.share),
        "tags": .array(sample.tags.map(JSONValue.string)), "empty": .array([]),
        "nested": .object(sample.nested.mapValues { .object($0.mapValues { .integer($0) }) }),
    ])

    @Test("compact and pretty layouts are Foundation's sorted-key and pretty-printed forms, keys in UTF-8 order")
    func layoutsAsFoundation() throws {
        #expect(
            Self.sampleValue.text(.compact, escaping: .shortWithSlash) == (try foundation(Self.sample, [.sortedKeys])))
        #expect(
            Self.sampleValue.text(.pretty)
                == (try foundation(Self.sample, [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])))
    }

    @Test("the report layout puts containers of scalars on one line, others one entry a line")
    func reportLayout() {
        let value = JSONValue.object([
            "b": .array([.numberText("0.1240"), .null, .bool(true)]), "a": .object(["x": .integer(1)]),
            "c": .array([.object([:]), .array([])]),
        ])
        let expected = """
            {
              "a": {"x": 1},
              "b": [0.1240, null, true],
              "c": [
                {},
                []
              ]
            }
            """
        #expect(value.text(.report) == expected)
    }

    @Test("what the writer writes, the parser reads back as the same value")
    func roundTrip() throws {
        let value = JSONValue.object([
            "s": .string(Self.awkward), "n": .array([0, -1.5, 1e-7, 1e300, 123_456.789].map(JSONValue.number)),
            "o": .object(["t": .bool(true), "f": .bool(false), "z": .null, "e": .object([:])]),
        ])
        for layout in [JSONValue.Layout.compact, .pretty, .report] {
            for escaping in [JSONText.Escaping.unicode, .short, .shortWithSlash] {
                #expect(try JSONValue(parsing: value.text(layout, escaping: escaping).utf8) == value)
            }
        }
    }
}
