import Foundation
import SpotJSON
import Testing

@Suite("JSON values")
struct JSONValueTests {
    @Test("every kind of value reads, nested, with white space around")
    func values() throws {
        let text = #" {"a": [1, -2.5e3, 0, true, false, null], "b": {"c": "d"}, "e": ""} "#
        let value = try JSONValue(parsing: text.utf8)
        #expect(
            value
                == .object([
                    "a": .array([.number(1), .number(-2500), .number(0), .bool(true), .bool(false), .null]),
                    "b": .object(["c": .string("d")]), "e": .string(""),
                ]))
        #expect(try JSONValue(parsing: "[]".utf8) == .array([]))
        #expect(try JSONValue(parsing: "{}".utf8) == .object([:]))
        #expect(try JSONValue(parsing: "7".utf8) == .number(7))
    }

    @Test("escapes and surrogate pairs decode; UTF-8 passes through")
    func strings() throws {
        let text = #""\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00 カフェ""#
        #expect(try JSONValue(parsing: text.utf8) == .string("\"\\/\u{08}\u{0C}\n\r\té😀 カフェ"))
    }

    @Test("a repeated key keeps its last value")
    func repeatedKey() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#.utf8) == .object(["a": .number(2)]))
    }

    @Test(
        "what RFC 8259 refuses is refused, naming the byte where reading stopped",
        arguments: [
            ("", 0), ("   ", 3), ("{", 1), ("[1,]", 3), ("{\"a\":1,}", 7), ("{a:1}", 1), ("[1 2]", 3), ("01", 0),
            ("1.", 2), ("1e", 2), ("-", 1), ("tru", 0), ("nul", 0), ("\"a", 2), ("\"\t\"", 1), ("\"\\x\"", 2),
            ("\"\\ud800\"", 7), ("\"\\udc00\"", 7), ("1e999", 0), ("{} x", 3), ("NaN", 0), ("[1] // comment", 4),
        ])
    func refused(_ text: String, offset: Int) {
        #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONValue(parsing: text.utf8) }
        do {
            _ = try JSONValue(parsing: text.utf8)
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
            #expect(error.description.hasSuffix("byte \(offset): \(error.message)"))
        }
    }

    @Test(
        "a syntax error names the JSON path of the value being read",
        arguments: [
            ("{\"a\": {\"b\": [1, 2, }}", ".a.b[2]", 19), ("[{\"x\": tru}]", "[0].x", 7), ("{\"a\" 1}", ".a", 5),
            ("[1, [2, [3 4]]]", "[1][1]", 11), ("{", "", 1),
        ])
    func pathOfSyntaxError(_ text: String, path: String, offset: Int) {
        do {
            _ = try JSONValue(parsing: text.utf8)
            Issue.record("\(text) read")
        } catch {
            #expect(error.path == path && error.offset == offset, "\(text): \(error)")
            #expect(error.description == (path.isEmpty ? "" : path + ", ") + "byte \(offset): \(error.message)")
        }
    }

    @Test("a whole number beyond 2^53 keeps its digits, so that it reads back exactly; others are Doubles")
    func bigIntegers() throws {
        let text = "[9223372036854775807, -9223372036854775808, 9007199254740992, 1e300, 12345678901234567.5]"
        let value = try JSONValue(parsing: text.utf8)
        #expect(
            value
                == .array([
                    .numberText("9223372036854775807"), .numberText("-9223372036854775808"), .number(0x1p53),
                    .number(1e300), .number(12_345_678_901_234_567.5),
                ]))
        let items = try JSONField(value, document: "-").array()
        #expect(try items[0].wholeNumber() == .max && items[1].wholeNumber() == .min)
        #expect(items[0].value.double == 9.223372036854775807e18)
        #expect(throws: JSONFieldError.self) { try items[0].integer(atLeast: 1) }
        #expect(throws: JSONFieldError.self) { try items[3].wholeNumber() }
    }

    @Test("a decimal of up to 15 digits reads as the Double its text converts to, sign and zeros kept")
    func shortDecimals() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "-0.0", "0.1", "55.7275569", "-179.9999999", "999999999999999", "0.000000000000001"]
        for _ in 0..<20_000 {
            let digits = (0..<Int.random(in: 1...15, using: &generator)).map { _ in String(Int.random(in: 0...9)) }
            let point = Int.random(in: 1...digits.count)
            let whole = digits[..<point].joined().drop { $0 == "0" }
            let fraction = digits[point...].joined()
            texts.append((whole.isEmpty ? "0" : String(whole)) + (fraction.isEmpty ? "" : "." + fraction))
        }
        for text in texts {
            let value = try JSONValue(parsing: text.utf8)
            #expect(value.double?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test("a string's escapes and the plain runs between them read as one string, scalar for scalar")
    func escapesBetweenRuns() throws {
        let value = try JSONValue(parsing: #""e\u0301x\n\"é\"""#.utf8)
        #expect(value == .string("e\u{301}x\n\"é\""))
        #expect(Array(value.stringScalars) == Array("e\u{301}x\n\"é\"".unicodeScalars))
    }

    @Test("bytes that are not UTF-8 inside a string are refused")
    func notUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
    }
}

extension JSONValue {
    /// The scalars of a string value: what equality of Strings, which compares canonical
    /// equivalents, does not check.
    fileprivate var stringScalars: String.UnicodeScalarView {
        guard case .string(let text) = self else { return "".unicodeScalars }
        return text.unicodeScalars
    }
}
