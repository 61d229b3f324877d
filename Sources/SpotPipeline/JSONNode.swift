import Foundation
import SpotJSON

/// Why a pipeline or category file is refused: the file, the JSON path of the offending field
/// (`.dedupe.radius`), and what is wrong. Exit 78.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    /// Whether the file could not be read (exit 66) or is invalid (exit 78).
    public var isUnreadable = false
    /// The file as the user named it.
    public let file: String
    /// The JSON path of the field, or nil when the file as a whole is wrong.
    public let path: String?
    /// What is wrong.
    public let message: String

    /// `FILE: PATH: what is wrong`.
    public var description: String { [file, path, message].compactMap { $0 }.joined(separator: ": ") }
}

/// A JSON value with where it sits (`.dedupe.radius`), so that every validation error names
/// the field it is about.
struct JSONNode {
    let value: JSONValue
    let path: String
    let file: String

    /// Parses `text`, the contents of `file`.
    static func parse(_ text: String, file: String) throws(PipelineError) -> JSONNode {
        do {
            return JSONNode(value: try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), path: "", file: file)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? "\(error)"
            throw PipelineError(file: file, path: nil, message: "not valid JSON (\(Self.brief(reason)))")
        }
    }

    /// The error for this field.
    func error(_ message: String) -> PipelineError {
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

    func array() throws(PipelineError) -> [JSONNode] {
        guard case .array(let items) = value else { throw error("expected an array") }
        return items.enumerated().map { JSONNode(value: $0.element, path: path + "[\($0.offset)]", file: file) }
    }

    func string() throws(PipelineError) -> String {
        guard case .string(let text) = value else { throw error("expected a string") }
        return text
    }

    func bool() throws(PipelineError) -> Bool {
        guard case .bool(let flag) = value else { throw error("expected true or false") }
        return flag
    }

    func number(in range: ClosedRange<Double>, _ what: String = "a number") throws(PipelineError) -> Double {
        guard case .number(let number) = value else { throw error("expected \(what)") }
        guard range.contains(number) else { throw error("expected \(what) from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), got \(Self.format(number))") }
        return number
    }

    func integer(atLeast minimum: Int) throws(PipelineError) -> Int {
        guard case .number(let number) = value, number.rounded() == number, number >= Double(minimum), number < 1e15 else {
            throw error("expected a whole number of at least \(minimum)")
        }
        return Int(number)
    }

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
