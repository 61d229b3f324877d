import Foundation
import Spots

/// A JSON value written with sorted keys and a fixed layout, so that equal reports give equal
/// bytes: an object or array of scalars on one line, others one member a line.
enum JSONValue {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case integer(Int)
    /// A number already written as JSON text ("0.1238").
    case number(String)
    case null

    /// A string, or null.
    static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The value as text, its nested lines indented by `indent` more spaces.
    func text(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .object(let members) where members.values.allSatisfy(\.isScalar):
            return "{"
                + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ": " + $0.value.text() }.joined(
                    separator: ", ") + "}"
        case .object(let members):
            let lines = members.sorted { $0.key < $1.key }.map {
                inner + Self.quoted($0.key) + ": " + $0.value.text(indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items) where items.allSatisfy(\.isScalar):
            return "[" + items.map { $0.text() }.joined(separator: ", ") + "]"
        case .array(let items):
            return "[\n" + items.map { inner + $0.text(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .string(let value): return Self.quoted(value)
        case .integer(let value): return String(value)
        case .number(let value): return value
        case .null: return "null"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        default: true
        }
    }

    /// `value` as a JSON string, escaped by Foundation's encoder (slashes left alone).
    private static func quoted(_ value: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}

/// The JSON form of a report, as REPORT-SCHEMA.md describes it.
enum JSONRenderer {
    /// The version of REPORT-SCHEMA.md that the output follows.
    static let schemaVersion = 2

    static func render(_ report: Report) -> String {
        let coverage = report.coverage
        var root: [String: JSONValue] = [
            "schema_version": .integer(schemaVersion),
            "index": index(coverage.index),
            "total": .integer(coverage.total),
            "by_osm_type": .object(
                Dictionary(uniqueKeysWithValues: OSMType.allCases.map { ($0.name, .integer(coverage.count(of: $0))) })),
            "merged_duplicates": .integer(coverage.mergedDuplicates),
            "dropped": .array(
                coverage.dropped.map {
                    .object(["stage": .string($0.stage), "reason": .string($0.reason), "count": .integer($0.count)])
                }),
            "attributes": attributes(coverage.overall),
            "categories": .array(
                coverage.categories.map { row in
                    .object(
                        category(row).merging([
                            "count": .integer(row.coverage.count),
                            "share": .number(Figures.fraction(coverage.share(of: row))),
                            "attributes": attributes(row.coverage),
                        ]) { $1 })
                }),
            "unmapped": tags(coverage.unmapped),
            "uncategorized": tags(coverage.uncategorized),
            "excluded": tags(coverage.excluded),
            "languages": .array(
                coverage.languages.map { .object(["language": .string($0.key), "count": .integer($0.count)]) }),
            "where": .object([
                "bbox": coverage.extent.map { .array($0.edgesE7.map { .number(Figures.degrees($0)) }) } ?? .null,
                "grid": coverage.grid.map(grid) ?? .null,
            ]),
        ]
        if let diff = report.diff { root["diff"] = self.diff(diff) }
        return JSONValue.object(root).text() + "\n"
    }

    private static func index(_ summary: IndexSummary) -> JSONValue {
        .object([
            "file": .string(summary.file), "generator": .string(summary.generator),
            "build_time": .string(summary.buildTime),
            "inputs": .array(summary.inputs.map(JSONValue.string)),
        ])
    }

    /// `category`, `group` and `mapkit_category` of a row.
    private static func category(_ row: some CategoryRow) -> [String: JSONValue] {
        [
            "category": .string(row.category?.rawValue), "group": .string(row.group.rawValue),
            "mapkit_category": .string(row.category?.mapKitRawValue),
        ]
    }

    private static func attributes(_ coverage: Coverage) -> JSONValue {
        .object(
            Dictionary(
                uniqueKeysWithValues: SpotAttribute.allCases.map { attribute in
                    (
                        attribute.rawValue,
                        .object([
                            "count": .integer(coverage.count(with: attribute)),
                            "share": .number(Figures.fraction(coverage.share(with: attribute))),
                        ])
                    )
                }))
    }

    private static func grid(_ grid: DensityGrid) -> JSONValue {
        .object([
            "projection": .string("EPSG:3857"),
            "columns": .integer(grid.columns), "rows": .integer(grid.rows),
            "origin": .array([.number(String(format: "%.2f", grid.minX)), .number(String(format: "%.2f", grid.maxY))]),
            "cell_size": .number(String(format: "%.2f", grid.cellSize)),
            "counts": .array(
                (0..<grid.rows).map { row in
                    .array((0..<grid.columns).map { .integer(grid.count(column: $0, row: row)) })
                }),
        ])
    }

    /// `before`, `after`, `change` and `change_percent` of a count.
    private static func change(_ change: some CountChanging) -> [String: JSONValue] {
        [
            "before": .integer(change.before), "after": .integer(change.after), "change": .integer(change.change),
            "change_percent": change.relativeChange.map { .number(Figures.percentNumber($0)) } ?? .null,
        ]
    }

    private static func diff(_ diff: ReportDiff) -> JSONValue {
        .object([
            "against": index(diff.against),
            "total": .object(change(diff.total)),
            "added": .integer(diff.references.added), "removed": .integer(diff.references.removed),
            "moved": .integer(diff.references.moved),
            "moved_threshold_m": .number(String(format: "%g", ReferenceChanges.movedThreshold)),
            "changes": .object(
                Dictionary(
                    uniqueKeysWithValues: SpotChange.Kind.allCases.map { kind in
                        (kind.rawValue, JSONValue.array(diff.references.changes(kind).map(spotChange)))
                    })),
            "max_drop": .number(Figures.fraction(diff.maxDrop)),
            "categories": .array(diff.categories.map { .object(category($0).merging(change($0)) { $1 }) }),
            "warnings": .array(
                diff.warnings.map { row in
                    .object(
                        category(row).merging(change(row)) { $1 }.merging([
                            "message": .string(Figures.warning(row, maxDrop: diff.maxDrop))
                        ]) { $1 })
                }),
        ])
    }

    /// One changed spot: `{"ref", "name", "category"}`, with `distance_m` for a move,
    /// `name_before` for a rename, `category_before` for a new category.
    private static func spotChange(_ change: SpotChange) -> JSONValue {
        var object: [String: JSONValue] = [
            "ref": .string(change.ref.description), "name": change.name.map(JSONValue.string) ?? .null,
            "category": change.category.map { .string($0.rawValue) } ?? .null,
        ]
        switch change.kind {
        case .moved: object["distance_m"] = .number(String(format: "%.1f", change.metres ?? 0))
        case .renamed: object["name_before"] = change.nameBefore.map(JSONValue.string) ?? .null
        case .recategorized: object["category_before"] = change.categoryBefore.map { .string($0.rawValue) } ?? .null
        case .added, .removed: break
        }
        return .object(object)
    }

    /// Selecting tags with their counts: `[{"tag": "amenity=embassy", "count": n}]`.
    private static func tags(_ tallies: [Tally]) -> JSONValue {
        .array(tallies.map { .object(["tag": .string($0.key), "count": .integer($0.count)]) })
    }
}
