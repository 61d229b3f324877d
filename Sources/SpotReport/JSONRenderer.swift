import Foundation
import SpotJSON
import Spots

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
                coverage.categories.map { .object(category($0).merging(figures($0, of: coverage)) { $1 }) }),
            "result_types": .array(
                coverage.resultTypes.map {
                    .object(resultType($0.resultType).merging(figures($0, of: coverage)) { $1 })
                }),
            "unmapped": tags(coverage.unmapped),
            "uncategorized": tags(coverage.uncategorized),
            "excluded": tags(coverage.excluded),
            "languages": .array(
                coverage.languages.map { .object(["language": .string($0.key), "count": .integer($0.count)]) }),
            "where": .object([
                "bbox": coverage.extent.map { .array($0.edgesE7.map { .numberText(Figures.degrees($0)) }) } ?? .null,
                "grid": coverage.grid.map(grid) ?? .null,
            ]),
        ]
        if let diff = report.diff { root["diff"] = self.diff(diff) }
        return JSONValue.object(root).text(.report) + "\n"
    }

    /// A string, or null.
    private static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// Strings as an array.
    private static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    private static func index(_ summary: IndexSummary) -> JSONValue {
        let selection = summary.selection
        return .object([
            "file": .string(summary.file), "generator": .string(summary.generator),
            "build_time": optional(summary.buildTime),
            "inputs": strings(summary.inputs),
            "select": selection.map { strings($0.keys) } ?? .null,
            "addresses": selection.map { .bool($0.addresses) } ?? .null,
            "unreached_categories": selection.map { strings($0.unreachedCategories) } ?? .null,
        ])
    }

    /// `category`, `group` and `mapkit_category` of a row.
    private static func category(_ row: some CategoryRow) -> [String: JSONValue] {
        [
            "category": optional(row.category?.rawValue), "group": .string(row.group.rawValue),
            "mapkit_category": optional(row.category?.mapKitRawValue),
        ]
    }

    /// `result_type` of a row.
    private static func resultType(_ type: ResultType) -> [String: JSONValue] {
        ["result_type": .string(type.rawValue)]
    }

    /// `count`, `share` and `attributes` of a category or a result type.
    private static func figures(_ row: some CoverageRow, of coverage: CoverageReport) -> [String: JSONValue] {
        [
            "count": .integer(row.coverage.count), "share": .numberText(Figures.fraction(coverage.share(of: row))),
            "attributes": attributes(row.coverage),
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
                            "share": .numberText(Figures.fraction(coverage.share(with: attribute))),
                        ])
                    )
                }))
    }

    private static func grid(_ grid: DensityGrid) -> JSONValue {
        .object([
            "projection": .string("EPSG:3857"),
            "columns": .integer(grid.columns), "rows": .integer(grid.rows),
            "origin": .array([
                .numberText(String(format: "%.2f", grid.minX)), .numberText(String(format: "%.2f", grid.maxY)),
            ]),
            "cell_size": .numberText(String(format: "%.2f", grid.cellSize)),
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
            "change_percent": change.relativeChange.map { .numberText(Figures.percentNumber($0)) } ?? .null,
        ]
    }

    private static func diff(_ diff: ReportDiff) -> JSONValue {
        .object([
            "against": index(diff.against),
            "total": .object(change(diff.total)),
            "added": .integer(diff.references.added), "removed": .integer(diff.references.removed),
            "moved": .integer(diff.references.moved),
            "moved_threshold_m": .numberText(String(format: "%g", ReferenceChanges.movedThreshold)),
            "changes": .object(
                Dictionary(
                    uniqueKeysWithValues: SpotChange.Kind.allCases.map { kind in
                        (kind.rawValue, JSONValue.array(diff.references.changes(kind).map(spotChange)))
                    })),
            "max_drop": .numberText(Figures.fraction(diff.maxDrop)),
            "categories": .array(diff.categories.map { .object(category($0).merging(change($0)) { $1 }) }),
            "result_types": .array(
                diff.resultTypes.map {
                    .object(resultType($0.resultType).merging(change($0)) { $1 })
                }),
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
        case .moved: object["distance_m"] = .numberText(String(format: "%.1f", change.metres ?? 0))
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
