import SeededRandom
import Foundation
import SpotExport
import SpotIndex
import Spots
import Testing


/// A JSON value as written, keeping the order of object members and the text of numbers, which
/// Foundation's parser does not: enough to check the exporter's key order and number format.
indirect enum OrderedJSON: Equatable {
    case object([(key: String, value: OrderedJSON)])
    case array([OrderedJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): a == b
        case let (.string(a), .string(b)): Array(a.unicodeScalars) == Array(b.unicodeScalars)
        case let (.number(a), .number(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    var keys: [String] { if case .object(let members) = self { members.map(\.key) } else { [] } }

    subscript(key: String) -> OrderedJSON? {
        if case .object(let members) = self { members.first { $0.key == key }?.value } else { nil }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: String? { if case .number(let value) = self { value } else { nil } }
    var array: [OrderedJSON]? { if case .array(let value) = self { value } else { nil } }

    struct ParseError: Error { var message: String; var offset: Int }

    /// Parses one JSON text (RFC 8259), strictly: no trailing garbage, no raw control characters in strings.
    static func parse(_ text: String) throws -> OrderedJSON {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw ParseError(message: "trailing text", offset: parser.position) }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        func fail(_ message: String) -> ParseError { ParseError(message: message, offset: position) }

        mutating func expect(_ literal: String) throws {
            let literal = Array(literal.utf8)
            guard position + literal.count <= bytes.count, Array(bytes[position..<position + literal.count]) == literal else {
                throw fail("expected \(String(decoding: literal, as: UTF8.self))")
            }
            position += literal.count
        }

        mutating func value() throws -> OrderedJSON {
            guard position < bytes.count else { throw fail("unexpected end") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [(key: String, value: OrderedJSON)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((key, try value()))
                    skipSpace()
                    if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [OrderedJSON] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value())
                    skipSpace()
                    if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default:
                let start = position
                while position < bytes.count, "-+.eE0123456789".utf8.contains(bytes[position]) { position += 1 }
                guard position > start else { throw fail("unexpected character") }
                return .number(String(decoding: bytes[start..<position], as: UTF8.self))
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard position + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw fail("bad \\u escape")
            }
            position += 4
            return value
        }

        mutating func string() throws -> String {
            try expect("\"")
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll()
            }
            while true {
                guard position < bytes.count else { throw fail("unterminated string") }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard position < bytes.count else { throw fail("unterminated escape") }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            try expect("\\u")
                            let low = try hex4()
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("bad scalar") }
                        scalars.append(scalar)
                    default: throw fail("bad escape")
                    }
                case 0..<0x20: throw fail("raw control character in string")
                default: run.append(byte)
                }
            }
        }
    }
}

/// Reads RFC 4180 CSV: records separated by CRLF, fields by commas, quoted fields with doubled
/// quotes and any character (line breaks included) inside. Strict: a bare CR or LF outside quotes,
/// or a quote inside an unquoted field, is an error.
func parseCSV(_ text: String) throws -> [[String]] {
    struct CSVError: Error { var message: String }
    let scalars = Array(text.unicodeScalars)
    var records: [[String]] = []
    var record: [String] = []
    var field = String.UnicodeScalarView()
    var i = 0
    var fieldStarted = false
    while i < scalars.count {
        let c = scalars[i]
        if c == "\"" && !fieldStarted && field.isEmpty {
            i += 1
            while true {
                guard i < scalars.count else { throw CSVError(message: "unterminated quoted field") }
                if scalars[i] == "\"" {
                    if i + 1 < scalars.count, scalars[i + 1] == "\"" { field.append("\""); i += 2; continue }
                    i += 1
                    break
                }
                field.append(scalars[i])
                i += 1
            }
            fieldStarted = true
            guard i == scalars.count || scalars[i] == "," || scalars[i] == "\r" else { throw CSVError(message: "text after a quoted field") }
            continue
        }
        switch c {
        case ",":
            record.append(String(field)); field = .init(); fieldStarted = false; i += 1
        case "\r":
            guard i + 1 < scalars.count, scalars[i + 1] == "\n" else { throw CSVError(message: "bare CR at \(i)") }
            record.append(String(field)); field = .init(); fieldStarted = false
            records.append(record); record = []
            i += 2
        case "\n": throw CSVError(message: "bare LF at \(i)")
        case "\"": throw CSVError(message: "quote in an unquoted field at \(i)")
        default:
            field.append(c); fieldStarted = true; i += 1
        }
    }
    guard record.isEmpty, field.isEmpty else { throw CSVError(message: "last record not ended by CRLF") }
    return records
}

/// An index file holding `spots`, in a fresh temporary directory removed when `body` returns.
func withIndex<T>(_ spots: [Spot], _ body: (SpotIndexReader) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SpotExportTests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("test.spots")
    let metadata = IndexMetadata(generator: "tests", buildTime: nil, inputs: [], bbox: nil, statistics: [:])
    try Data(SpotIndexWriter.encode(spots, metadata: metadata)).write(to: url)
    return try body(try SpotIndexReader(path: url.path))
}

/// Everything `format` writes for `index`, which must be UTF-8.
func exported(_ index: SpotIndexReader, as format: ExportFormat, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    var bytes: [UInt8] = []
    try SpotExporter(format: format).export(index) { bytes += $0 }
    return utf8Text(bytes, sourceLocation: sourceLocation)
}

/// `bytes` as text, recording an issue when they are not valid UTF-8.
func utf8Text(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
        Issue.record("not valid UTF-8: \(bytes)", sourceLocation: sourceLocation)
        return String(decoding: bytes, as: UTF8.self)
    }
    return text
}

/// A spot's NDJSON line (without the newline) as text.
func ndjsonText(_ spot: Spot, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    utf8Text(SpotExporter.ndjson(spot), sourceLocation: sourceLocation)
}

/// A spot's GeoJSON Feature as text.
func geojsonText(_ spot: Spot, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    utf8Text(SpotExporter.geojson(spot), sourceLocation: sourceLocation)
}

/// The written spots by reference, to compare with an index that orders them its own way.
func byReference(_ spots: [Spot]) -> [OSMRef: Spot] {
    Dictionary(spots.map { ($0.ref, $0) }, uniquingKeysWith: { first, _ in
        Issue.record("two spots are \(first.ref)")
        return first
    })
}

/// Random spots with awkward text: quotes, backslashes, control characters, line breaks, emoji, CJK.
struct SpotFactory {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// No fragment ends in CR, so that no CR LF pair arises by concatenation: a CSV field with CR LF
    /// is covered by its own test.
    static let fragments = [
        "a", "Café", "\"", "\"\"", "'", "\\", "\\\"", "\n", "\r.", "\t", "\u{0001}", "\u{001F}", "\u{0000}", "\u{007F}", ",", ", ",
        ";", "=", ":", " ", "日本語", "姫路城", "🏳️‍🌈", "👍🏽", "😀", "مقهى", "\u{2028}", "\u{FEFF}", "{}", "[", "null", "/",
        "</script>",
    ]
    static let languages = ["ja", "zh-Hant", "en", "fi", "de_CH"]
    static let addressKeys = ["street", "housenumber", "city", "postcode", "country", "full", "place", "unit", "floor"]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func string() -> String { (0..<int(0...4)).map { _ in Self.fragments.randomElement(using: &random)! }.joined() }

    mutating func ref() -> OSMRef {
        let id = chance(20) ? [SpotIndexWriter.storableIDs.lowerBound, SpotIndexWriter.storableIDs.upperBound, -1, 0].randomElement(using: &random)! : Int64.random(in: -1000...12_000_000_000, using: &random)
        return OSMRef(OSMType.allCases.randomElement(using: &random)!, id)
    }

    mutating func spot() -> Spot {
        let lat = chance(20) ? [900_000_000, -900_000_000, 0, -1].randomElement(using: &random)! : Int32.random(in: -900_000_000...900_000_000, using: &random)
        let lon = chance(20) ? [1_800_000_000, -1_800_000_000, 0, 1].randomElement(using: &random)! : Int32.random(in: -1_800_000_000...1_800_000_000, using: &random)
        var spot = Spot(
            ref: ref(), coordinate: Coordinate(latitudeE7: lat, longitudeE7: lon)!,
            tagKey: ["amenity", "tourism"].randomElement(using: &random)!, kind: chance(80) ? "cafe" : string(),
            category: chance(20) ? nil : Category.allCases.randomElement(using: &random)!)
        if chance(80) { spot.name = string() }
        for _ in 0..<int(0...3) { spot.names[Self.languages.randomElement(using: &random)!] = string() }
        for _ in 0..<int(0...4) { spot.address[Self.addressKeys.randomElement(using: &random)!] = string() }
        for _ in 0..<int(0...4) { spot.details[Spot.Detail.allCases.randomElement(using: &random)!] = string() }
        if chance(30) { spot.merged = (0..<int(1...3)).map { _ in ref() } }
        return spot
    }

    /// `count` random spots whose references, own and merged, are all distinct and differ from
    /// those of `excluding`: the index orders spots its own way and maps each reference to one spot.
    mutating func uniqueSpots(_ count: Int, excluding: [Spot] = []) -> [Spot] {
        var used = Set(excluding.flatMap { [$0.ref] + $0.merged })
        return (0..<count).map { _ in
            var spot = spot()
            while used.contains(spot.ref) { spot.ref = ref() }
            used.insert(spot.ref)
            spot.merged = spot.merged.map { merged in
                var merged = merged
                while used.contains(merged) { merged = ref() }
                used.insert(merged)
                return merged
            }
            return spot
        }
    }
}
