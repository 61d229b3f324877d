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

    func run(_ records: inout [SpotRecord], report: inout StageReport) {
        // A later meeting of an object with a higher version takes the first meeting's place.
        var first: [OSMRef: Int] = [:]
        var repeated = [Bool](repeating: false, count: records.count)
        for position in records.indices {
            guard let earlier = first[records[position].spot.ref] else {
                first[records[position].spot.ref] = position
                continue
            }
            report.drop("repeated_objects")
            repeated[position] = true
            if records[position].version > records[earlier].version { records.swapAt(earlier, position) }
        }
        records.retain { position, record in
            guard !repeated[position] else { return false }
            guard exclude.contains(record.spot.tag) else { return true }
            if let tourism = record.context["tourism"], !exclude.contains("tourism=" + tourism) {
                record.spot.tagKey = "tourism"
                record.spot.kind = tourism
                return true
            }
            report.drop("excluded", tag: record.spot.tag)
            return false
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

    func run(_ records: inout [SpotRecord], report: inout StageReport) {
        records.retain { _, record in
            record.spot.category = table.category(key: record.spot.tagKey, value: record.spot.kind, context: record.context)
            guard record.spot.category == nil else { return true }
            let reason = table.hasRule(key: record.spot.tagKey, value: record.spot.kind) ? "uncategorized" : "unmapped"
            if keepUnmapped {
                report.count(reason, tag: record.spot.tag)
                return true
            }
            report.drop(reason, tag: record.spot.tag)
            return false
        }
    }
}

/// Tidies text: trims and collapses white space in every attribute, and removes attributes
/// left empty. Drops no spot.
struct NormalizeStage: Stage {
    let name = "normalize"

    func run(_ records: inout [SpotRecord], report: inout StageReport) {
        for position in records.indices {
            let original = records[position].spot
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
            records[position].spot = spot
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

    func run(_ records: inout [SpotRecord], report: inout StageReport) {
        records.sort { $0.spot.ref < $1.spot.ref }
    }
}
