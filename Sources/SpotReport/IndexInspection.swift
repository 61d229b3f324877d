import SpotIndex
import Spots

/// What `spots inspect` shows of an index, as labelled rows: the file, the spots by OSM type,
/// category and result type, the extent and the data's date, the build's metadata and stages,
/// then (verbose) each section with its checksum, and the checksums' verdict.
public struct IndexInspection {
    /// The rows in order: a label ("spots", "section SPOT") and its value.
    public let rows: [(label: String, value: String)]
    /// The sections whose checksum does not match, in table order.
    public let damagedSections: [IndexSection]
    /// How many spots each OSM type has.
    public let spotsByType: [OSMType: Int]
    /// How many spots each category has (its MapKit name), `(none)` for those without one.
    public let spotsByCategory: [String: Int]
    /// How many spots each result type has.
    public let spotsByResultType: [ResultType: Int]

    /// Reads every spot's reference and kind and verifies every section's checksum. Both passes
    /// give the pages they read back as they go (`releaseResidentPages`), so inspecting an
    /// index of any size holds little of it at once: a server verifying a newly published index
    /// beside the one it serves grows by little. With `verbose`, the rows also give the format
    /// and each section with its checksum; the verdict on the checksums is always the last row.
    /// `state` is the "state" row's value: what the state file beside the index says, when the
    /// caller found one.
    public init(_ index: SpotIndexReader, verbose: Bool = false, state: String? = nil) throws(IndexError) {
        let checks = index.verifyChecksums()
        var byType: [OSMType: Int] = [:]
        var byCategory: [String: Int] = [:]
        var byResultType: [ResultType: Int] = [:]
        for spot in 0..<index.count {
            byType[try index.ref(at: spot).type, default: 0] += 1
            let kind = try index.kind(at: spot)
            byCategory[kind.category?.rawValue ?? "(none)", default: 0] += 1
            byResultType[kind.resultType, default: 0] += 1
            if spot % 65_536 == 65_535 { index.releaseResidentPages() }
        }
        index.releaseResidentPages()
        spotsByType = byType
        spotsByCategory = byCategory
        spotsByResultType = byResultType
        var rows = try Self.contents(
            of: index, byType: byType, byCategory: byCategory, byResultType: byResultType, verbose: verbose)
        if let state { rows.append(("state", state)) }
        for check in checks where verbose {
            let section = check.section
            let crc = "crc32 \(String(section.checksum, radix: 16)) \(check.isValid ? "ok" : "MISMATCH")"
            let place = "offset \(section.offset), \(NumberText.grouped(section.length)) bytes"
            rows.append(("section \(section.name)", place + ", " + crc))
        }
        damagedSections = checks.filter { !$0.isValid }.map(\.section)
        let verdict = damagedSections.isEmpty ? "ok" : "\(damagedSections.count) section(s) damaged"
        rows.append(("checksums", verdict))
        self.rows = rows
    }

    /// The rows as text: labels padded to one column, one row a line.
    public var text: String {
        let width = (rows.map(\.label.count).max() ?? 0) + 2
        return rows.map { $0.label.padding(toLength: width, withPad: " ", startingAt: 0) + $0.value + "\n" }.joined()
    }

    /// The rows before the checksums, for a person first: the file; what it holds (spots,
    /// categories, result types, bounding box, the data's date); how it was built (program,
    /// inputs, settings, counters, stages, the tags left out); with `verbose`, the format.
    private static func contents(
        of index: SpotIndexReader, byType: [OSMType: Int], byCategory: [String: Int],
        byResultType: [ResultType: Int], verbose: Bool
    ) throws(IndexError) -> [(label: String, value: String)] {
        let grouped = NumberText.grouped
        let metadata = try index.metadata()
        let types = OSMType.allCases.map { "\(grouped(byType[$0] ?? 0)) \($0.name)s" }.joined(separator: ", ")
        var rows: [(label: String, value: String)] = [("index", index.file)]
        if verbose {
            let sections = "\(grouped(index.fileSize)) bytes, \(index.sections.count) sections"
            rows.append(("format", "spots index version \(SpotIndexReader.formatVersion), \(sections)"))
        }
        rows.append(("spots", "\(grouped(index.count)) (\(types))"))
        let categories = byCategory.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        let more = categories.count > 8 ? ", ..." : ""
        rows.append(("categories", "\(categories.count): " + counts(categories.prefix(8)) + more))
        let resultTypes = ResultType.allCases.compactMap { type in byResultType[type].map { (type.rawValue, $0) } }
        rows.append(("result types", counts(resultTypes.map { (key: $0.0, value: $0.1) })))
        let bbox = metadata.bbox.map(\.description)
        rows.append(("bbox", bbox.map { $0 + "  (MINLON,MINLAT,MAXLON,MAXLAT)" } ?? "none"))
        rows.append(
            (
                "data timestamp",
                metadata.buildTime.map { $0 + " (the newest edit in the inputs, or SOURCE_DATE_EPOCH)" }
                    ?? "unknown (no timestamps in the inputs)"
            ))
        rows.append(("generator", metadata.generator))
        for input in metadata.inputs {
            let hash = input.sha256.map { ", sha256 \($0)" } ?? ""
            rows.append(("input", "\(input.name) (\(grouped(input.bytes)) bytes\(hash))"))
        }
        if let pipeline = metadata.pipeline {
            let exclusions = pipeline.keepAll ? ", keep all" : ", \(pipeline.exclude.count) excluded tags"
            let dedupe = pipeline.dedupe.enabled ? ", dedupe within \(Int(pipeline.dedupe.radius)) m" : ", no dedupe"
            rows.append(("pipeline", (pipeline.file ?? "built-in defaults") + exclusions + dedupe))
            let selection = IndexSelection(pipeline)
            rows.append(("select", selection.selected))
            rows.append(("unreached", selection.unreached))
        }
        rows.append(("statistics", counts(metadata.statistics.sorted { $0.key < $1.key })))
        for stage in metadata.stages {
            let dropped = counts(stage.dropped.sorted { $0.key < $1.key })
            let flow = "\(grouped(stage.input)) → \(grouped(stage.output))"
            rows.append(("stage \(stage.stage)", flow + (dropped.isEmpty ? "" : " (\(dropped))")))
        }
        for reason in ["unmapped", "uncategorized", "excluded"] {
            let tags = metadata.tagCounts(reason).sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            guard !tags.isEmpty else { continue }
            let values = tags.count > 8 ? ", ... (\(tags.count) values)" : ""
            rows.append((reason, counts(tags.prefix(8)) + values))
        }
        return rows
    }

    /// "cafe 12, museum 3": names and counts, in the order given.
    private static func counts(_ entries: some Sequence<(key: String, value: Int)>) -> String {
        entries.map { "\($0.key) \(NumberText.grouped($0.value))" }.joined(separator: ", ")
    }
}
