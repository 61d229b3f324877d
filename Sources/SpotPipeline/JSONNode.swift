import Foundation
import SpotJSON

/// A JSON value of a pipeline or category file with where it sits (`.dedupe.radius`), so that
/// every validation error names the field it is about. Its readers check the value's type and
/// range, and throw the error with the field's path.
public struct JSONNode: Sendable {
    let value: JSONValue
    /// The value's JSON path ("" for a file's top level).
    public let path: String
    /// The file the value was read from.
    public let file: String

    /// Parses `text`, the contents of `file`: by RFC 8259 (`JSONValue(parsing:)`, several times
    /// faster than Foundation's decoder, and the built-in files are parsed at every start), or
    /// failing that by Foundation's `JSONDecoder`, whose grammar is a little more lenient (a
    /// trailing comma) and whose message names what is wrong. Both give the same values.
    static func parse(_ text: String, file: String) throws(PipelineError) -> JSONNode {
        if let value = try? JSONValue(parsing: text.utf8) { return JSONNode(value: value, path: "", file: file) }
        do {
            return JSONNode(
                value: try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), path: "", file: file)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? "\(error)"
            throw PipelineError(file: file, path: nil, message: "not valid JSON (\(Self.brief(reason)))")
        }
    }

    /// The error for this field.
    public func error(_ message: String) -> PipelineError {
        PipelineError(file: file, path: path.isEmpty ? "." : path, message: message)
    }

    /// The members of an object, after checking that every key is one of `allowed`.
    func object(allowing allowed: Set<String>? = nil) throws(PipelineError) -> [String: JSONNode] {
        guard case .object(let members) = value else { throw error("expected an object") }
        var nodes: [String: JSONNode] = [:]
        for (key, member) in members {
            let node = JSONNode(value: member, path: path + "." + key, file: file)
            if let allowed, !allowed.contains(key) {
                throw node.error("unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
            }
            nodes[key] = node
        }
        return nodes
    }

    /// The items of an array, each with its path (`.exclude[1]`).
    func array() throws(PipelineError) -> [JSONNode] {
        guard case .array(let items) = value else { throw error("expected an array") }
        return items.enumerated().map { JSONNode(value: $0.element, path: path + "[\($0.offset)]", file: file) }
    }

    /// The value as a string.
    public func string() throws(PipelineError) -> String {
        guard case .string(let text) = value else { throw error("expected a string") }
        return text
    }

    /// The value as true or false.
    func bool() throws(PipelineError) -> Bool {
        guard case .bool(let flag) = value else { throw error("expected true or false") }
        return flag
    }

    /// The value as a number in `range`; `what` names it in the error ("a fraction").
    public func number(in range: ClosedRange<Double>, _ what: String = "a number") throws(PipelineError) -> Double {
        guard case .number(let number) = value else { throw error("expected \(what)") }
        guard range.contains(number) else {
            let bounds = "from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
            throw error("expected \(what) \(bounds), got \(Self.format(number))")
        }
        return number
    }

    /// The value as a whole number of at least `minimum` (and below 10^15).
    public func integer(atLeast minimum: Int) throws(PipelineError) -> Int {
        guard case .number(let number) = value, number.rounded() == number, number >= Double(minimum), number < 1e15
        else {
            throw error("expected a whole number of at least \(minimum)")
        }
        return Int(number)
    }

    /// Whether the value is null.
    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The first sentence of a decoder's message.
    private static func brief(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }
}
