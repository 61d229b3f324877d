import SpotIndex
import Spots

/// Keeps one record per OSM object (the higher version; the first on a tie) and drops the
/// objects whose selecting tag is excluded (street furniture: `amenity=bench`). An object whose
/// amenity value is excluded but that also has a tourism value that is not (`amenity=shelter`
/// with `tourism=wilderness_hut`) is selected by its tourism tag instead.
struct SelectStage: Stage {
    let name = "select"
    /// Selecting tags to drop; empty with `--keep-all`.
    let exclude: Set<String>

    func run(_ records: [SpotRecord], report: inout StageReport) -> [SpotRecord] {
        var positions: [OSMRef: Int] = [:]
        var kept: [SpotRecord] = []
        for record in records {
            if let position = positions[record.spot.ref] {
                report.drop("repeated_objects")
                if record.version > kept[position].version { kept[position] = record }
            } else {
                positions[record.spot.ref] = kept.count
                kept.append(record)
            }
        }
        return kept.compactMap { record in
            guard exclude.contains(record.spot.tag) else { return record }
            if let tourism = record.context["tourism"], !exclude.contains("tourism=" + tourism) {
                var record = record
                record.spot.tagKey = "tourism"
                record.spot.kind = tourism
                return record
            }
            report.drop("excluded", tag: record.spot.tag)
            return nil
        }
    }
}

/// Gives each spot its category from the table. A spot left without one is dropped unless
/// `keepUnmapped`, and counted by its tag either way: as "unmapped" when the table has no rule
/// for the value (the to-do list of the table), as "uncategorized" when a rule deliberately
/// gives none (`tourism=information` that is a signpost, not an office).
struct CategorizeStage: Stage {
    let name = "categorize"
    let table: CategoryTable
    let keepUnmapped: Bool

    func run(_ records: [SpotRecord], report: inout StageReport) -> [SpotRecord] {
        records.compactMap { record in
            var record = record
            record.spot.category = table.category(key: record.spot.tagKey, value: record.spot.kind, context: record.context)
            guard record.spot.category == nil else { return record }
            let reason = table.hasRule(key: record.spot.tagKey, value: record.spot.kind) ? "uncategorized" : "unmapped"
            if keepUnmapped {
                report.count(reason, tag: record.spot.tag)
                return record
            }
            report.drop(reason, tag: record.spot.tag)
            return nil
        }
    }
}

/// Tidies text: trims and collapses white space in every attribute, and removes attributes
/// left empty. Drops no spot.
struct NormalizeStage: Stage {
    let name = "normalize"

    func run(_ records: [SpotRecord], report: inout StageReport) -> [SpotRecord] {
        records.map { record in
            var record = record
            let original = record.spot
            var spot = Spot(
                ref: original.ref, coordinate: original.coordinate, tagKey: original.tagKey, kind: original.kind,
                category: original.category, merged: original.merged)
            for (key, value) in original.attributeTags {
                let tidy = Self.tidy(value)
                if tidy.isEmpty {
                    report.count("empty_attributes", tag: key)
                } else {
                    spot.setAttribute(key: key, value: tidy)
                }
            }
            record.spot = spot
            return record
        }
    }

    /// `text` with leading and trailing white space removed and inner runs made one space.
    static func tidy(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// Puts the spots in index order: by OSM type, then id.
struct CollectStage: Stage {
    let name = "collect"

    func run(_ records: [SpotRecord], report: inout StageReport) -> [SpotRecord] {
        records.sorted { $0.spot.ref < $1.spot.ref }
    }
}
