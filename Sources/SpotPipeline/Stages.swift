import Spots

/// Keeps one candidate per OSM object (the higher version; the first on a tie) and drops the
/// objects whose selecting tag is excluded (street furniture: `amenity=bench`). An object whose
/// selecting tag is excluded but that also has a tag of a later selecting key that is not
/// (`amenity=shelter` with `tourism=wilderness_hut`) is selected by that tag instead.
struct SelectStage: Stage {
    let name = "select"
    /// The selecting keys, in order of precedence.
    let keys: [String]
    /// Selecting tags to drop; empty with `--keep-all`.
    let exclude: Set<String>

    func run(_ candidates: inout [SpotCandidate], report: inout StageReport) {
        // A later meeting of an object with a higher version takes the first meeting's place.
        var first: [OSMRef: Int] = [:]
        var repeated = [Bool](repeating: false, count: candidates.count)
        for position in candidates.indices {
            guard let earlier = first[candidates[position].spot.ref] else {
                first[candidates[position].spot.ref] = position
                continue
            }
            report.drop("repeated_objects")
            repeated[position] = true
            if candidates[position].version > candidates[earlier].version { candidates.swapAt(earlier, position) }
        }
        candidates.retain { position, candidate in
            guard !repeated[position] else { return false }
            guard exclude.contains(candidate.spot.tag) else { return true }
            let later = keys.drop { $0 != candidate.spot.tagKey }.dropFirst()
            if let key = later.first(where: { key in
                candidate.context[key].map { !exclude.contains(key + "=" + $0) } ?? false
            }) {
                candidate.spot.tagKey = key
                candidate.spot.kind = candidate.context[key]!
                return true
            }
            report.drop("excluded", tag: candidate.spot.tag)
            return false
        }
    }
}

/// Gives each spot its category and result type from the table. A spot left without a category
/// is dropped unless `keepUnmapped`, and counted by its tag either way: as "unmapped" when the
/// table has no rule for the value (the to-do list of the table), as "uncategorized" when a
/// rule deliberately gives none (`tourism=information` that is a signpost, not an office).
/// Address points have no category and are kept.
struct CategorizeStage: Stage {
    let name = "categorize"
    let table: CategoryTable
    let keepUnmapped: Bool

    func run(_ candidates: inout [SpotCandidate], report: inout StageReport) {
        candidates.retain { _, candidate in
            guard candidate.spot.resultType != .address else { return true }
            candidate.spot.resultType = table.resultType(ofKey: candidate.spot.tagKey)
            candidate.spot.category = table.category(
                key: candidate.spot.tagKey, value: candidate.spot.kind, context: candidate.context)
            guard candidate.spot.category == nil else { return true }
            let reason =
                table.hasRule(key: candidate.spot.tagKey, value: candidate.spot.kind) ? "uncategorized" : "unmapped"
            if keepUnmapped {
                report.count(reason, tag: candidate.spot.tag)
                return true
            }
            report.drop(reason, tag: candidate.spot.tag)
            return false
        }
    }
}

/// Tidies text: trims and collapses white space in every attribute, and removes attributes
/// left empty; keeps the elevation (`ele`) of physical features alone (a peak's height is what
/// its card shows, a restaurant's is noise). Drops no spot.
struct NormalizeStage: Stage {
    let name = "normalize"

    func run(_ candidates: inout [SpotCandidate], report: inout StageReport) {
        for position in candidates.indices {
            let original = candidates[position].spot
            let attributes = original.attributeTags
            // Most spots are tidy already: they are left as they are, not made again.
            guard !Self.isNormal(original, attributes: attributes) else { continue }
            var spot = Spot(
                ref: original.ref, coordinate: original.coordinate, tagKey: original.tagKey, kind: original.kind,
                category: original.category, merged: original.merged)
            spot.resultType = original.resultType
            spot.hasWikipedia = original.hasWikipedia
            for (key, value) in attributes {
                guard Self.keepsAttribute(key, of: spot) else { continue }
                let tidy = Self.tidy(value)
                if tidy.isEmpty {
                    report.count("empty_attributes", tag: key)
                } else {
                    spot.setAttribute(key: key, value: tidy)
                }
            }
            candidates[position].spot = spot
        }
    }

    /// Whether `spot`, with `attributes` (its `attributeTags`), is as the stage would leave it:
    /// every attribute kept and every value tidy and not empty.
    private static func isNormal(_ spot: Spot, attributes: [(key: String, value: String)]) -> Bool {
        attributes.allSatisfy { key, value in
            keepsAttribute(key, of: spot) && !value.isEmpty && isTidy(value)
        }
    }

    /// Whether the stage keeps attribute `key` of `spot`: the elevation of physical features
    /// alone.
    private static func keepsAttribute(_ key: String, of spot: Spot) -> Bool {
        key != Spot.Detail.elevation.rawValue || spot.resultType == .physicalFeature
    }

    /// `text` with leading and trailing white space removed and inner runs made one space.
    static func tidy(_ text: String) -> String {
        isTidy(text) ? text : text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether `text` is as `tidy` would make it, read from its bytes (most values are, and
    /// splitting into Characters costs far more): no white space but single spaces between
    /// other characters, none followed by a non-ASCII one (which could be a mark that joins
    /// the space into one whitespace Character). White space is Unicode's White_Space:
    /// U+0009 to U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029,
    /// U+202F, U+205F and U+3000, here by their UTF-8 bytes.
    static func isTidy(_ text: String) -> Bool {
        guard text.utf8.first != 0x20 else { return false }
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            switch (beforePrevious, previous, byte) {
            case (_, _, 0x09...0x0D), (_, 0x20, 0x20), (_, 0x20, 0x80...), (_, 0xC2, 0x85), (_, 0xC2, 0xA0),
                (0xE1, 0x9A, 0x80), (0xE2, 0x80, 0x80...0x8A), (0xE2, 0x80, 0xA8), (0xE2, 0x80, 0xA9),
                (0xE2, 0x80, 0xAF), (0xE2, 0x81, 0x9F), (0xE3, 0x80, 0x80):
                return false
            default:
                beforePrevious = previous
                previous = byte
            }
        }
        return previous != 0x20
    }
}

/// Puts the spots in index order: by OSM type, then id.
struct CollectStage: Stage {
    let name = "collect"

    func run(_ candidates: inout [SpotCandidate], report: inout StageReport) {
        candidates.sort { $0.spot.ref < $1.spot.ref }
    }
}
