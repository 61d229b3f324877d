import Foundation
import SpotOutput
import SpotPipeline
import SpotRequests
import SpotSearch
import Spots

/// Typed readers of option values, each nil when the option is absent and a usage error in one
/// style when its text is not what the option takes: `--limit: expected a whole number of at
/// least 0, got 'x'`.
extension Arguments {
    /// A whole number from `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        try read(name, expecting: "a whole number from \(range.lowerBound) to \(range.upperBound)") { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A whole number from `range`, which has no upper bound.
    func integer(_ name: String, in range: PartialRangeFrom<Int>) throws(UsageError) -> Int? {
        try read(name, expecting: "a whole number of at least \(range.lowerBound)") { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A number from `range`.
    func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        let bounds = "from \(Self.decimal(range.lowerBound)) to \(Self.decimal(range.upperBound))"
        return try read(name, expecting: "a number \(bounds)") { text in
            Double(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A number from `range`, which has no upper bound.
    func number(_ name: String, in range: PartialRangeFrom<Double>) throws(UsageError) -> Double? {
        try read(name, expecting: "a number of at least \(Self.decimal(range.lowerBound))") { text in
            Double(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// One of `Choice`'s cases, given by its raw value (a `--format`).
    func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, as type: Choice.Type
    ) throws(UsageError) -> Choice? where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        return try read(name, expecting: list, Choice.init(rawValue:))
    }

    /// A point given as LAT,LON in degrees (as people and MapKit say it).
    func coordinate(_ name: String) throws(UsageError) -> Coordinate? {
        try read(name, expecting: "LAT,LON in degrees") { text in
            Self.decimals(text).flatMap { $0.count == 2 ? MapInput.coordinate(latitude: $0[0], longitude: $0[1]) : nil }
        }
    }

    /// A box given as MINLON,MINLAT,MAXLON,MAXLAT in degrees (as GeoJSON and osmium say it).
    func box(_ name: String) throws(UsageError) -> GeoBox? {
        try read(name, expecting: "MINLON,MINLAT,MAXLON,MAXLAT in degrees") { Self.decimals($0).flatMap(MapInput.box) }
    }

    /// Category names separated by commas (`cafe,museum`); an unknown one is named.
    func categories(_ name: String) throws(UsageError) -> Set<Category>? {
        guard let text = value(name) else { return nil }
        var categories: Set<Category> = []
        for word in text.split(separator: ",") {
            guard let category = Category(rawValue: String(word)) else {
                throw UsageError("\(name): " + Suggestions.unknownCategory(String(word)))
            }
            categories.insert(category)
        }
        return categories
    }

    /// Where `-o` sends the output (standard output without it), refused when it is one of
    /// `inputs`; an existing file is replaced only with `-O`.
    func output(inputs: [String]) throws(OutputError) -> OutputTarget {
        try OutputTarget(path: value("--output") ?? "-", inputs: inputs, overwrite: flag("--overwrite"))
    }

    /// The `--format` given, else the one `-o`'s extension implies, else the default; a usage
    /// error (exit 64, one line) when the extension is refused or contradicts `--format`.
    func format<Format: OutputFormat>(_ type: Format.Type) throws -> Format {
        try Format.chosen(try choice("--format", as: Format.self), for: value("--output"))
    }

    /// The `--threads` of `build` and `refresh`: from 1 to 1024, one per core when absent.
    func threads() throws(UsageError) -> Int {
        try integer("--threads", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
    }

    /// The value of `name` as `parse` reads it; `expecting` says what it takes when it cannot.
    private func read<Value>(
        _ name: String, expecting: String, _ parse: (String) -> Value?
    ) throws(UsageError) -> Value? {
        guard let text = value(name) else { return nil }
        guard let parsed = parse(text) else { throw UsageError("\(name): expected \(expecting), got '\(text)'") }
        return parsed
    }

    /// The numbers of a comma-separated list, white space around each allowed; nil unless every
    /// item is a number.
    private static func decimals(_ text: String) -> [Double]? {
        var numbers: [Double] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Double(item.trimmingCharacters(in: .whitespaces)) else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    /// A bound as people write it: 0, 0.5.
    private static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
