import SpotIndex
import Spots

/// `spots inspect INDEX`: the header, counts, extent, build metadata and checksum verdict.
enum InspectCommand {
    static let options = [Help.option]

    static let help = Help(
        command: "inspect",
        overview: "Show what an index holds and verify every section's checksum.",
        arguments: [Help.index],
        options: options,
        discussion: "Exits 65 when a checksum does not match or the file is damaged.")

    static func run(_ arguments: Arguments) throws {
        let path = try arguments.onlyPositional("<index>")
        let index = try SpotIndexReader(path: path)
        let checks = index.verifyChecksums()
        var rows = try contents(of: index)
        for check in checks {
            let section = check.section
            let crc = "crc32 \(String(section.checksum, radix: 16)) \(check.isValid ? "ok" : "MISMATCH")"
            let place = "offset \(section.offset), \(grouped(section.length)) bytes"
            rows.append(("section \(section.name)", place + ", " + crc))
        }
        let bad = checks.filter { !$0.isValid }
        rows.append(("checksums", bad.isEmpty ? "ok" : "\(bad.count) section(s) damaged"))
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        print(rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n"))
        if let first = bad.first {
            throw IndexError(.corrupt, file: index.file, section: first.section.name, "checksum mismatch")
        }
    }

    /// The rows before the checksums: the file, the build's metadata, the spots and the stages.
    private static func contents(of index: SpotIndexReader) throws -> [(String, String)] {
        var byType: [OSMType: Int] = [:]
        var byCategory: [String: Int] = [:]
        for position in 0..<index.count {
            byType[try index.ref(at: position).type, default: 0] += 1
            byCategory[try index.kind(at: position).category?.rawValue ?? "(none)", default: 0] += 1
        }
        let metadata = try index.metadata()
        let types = OSMType.allCases.map { "\(grouped(byType[$0] ?? 0)) \($0.name)s" }.joined(separator: ", ")
        let sections = "\(grouped(index.fileSize)) bytes, \(index.sections.count) sections"
        var rows: [(String, String)] = [
            ("index", index.file),
            ("format", "spots index version \(SpotIndexReader.formatVersion), \(sections)"),
            ("generator", metadata.generator),
            ("built", metadata.buildTime ?? "unknown (no timestamps in the inputs)"),
        ]
        for input in metadata.inputs {
            let hash = input.sha256.map { ", sha256 \($0)" } ?? ""
            rows.append(("input", "\(input.name) (\(grouped(input.bytes)) bytes\(hash))"))
        }
        if let pipeline = metadata.pipeline {
            let exclusions = pipeline.keepAll ? ", keep all" : ", \(pipeline.exclude.count) excluded tags"
            let dedupe = pipeline.dedupe.enabled ? ", dedupe within \(Int(pipeline.dedupe.radius)) m" : ", no dedupe"
            rows.append(("pipeline", (pipeline.file ?? "built-in defaults") + exclusions + dedupe))
        }
        rows.append(("spots", "\(grouped(index.count)) (\(types))"))
        let bbox = metadata.bbox.map(\.description)
        rows.append(("bbox", bbox.map { $0 + "  (MINLON,MINLAT,MAXLON,MAXLAT)" } ?? "none"))
        let categories = byCategory.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        let more = categories.count > 8 ? ", ..." : ""
        rows.append(("categories", "\(categories.count): " + counts(categories.prefix(8)) + more))
        rows.append(("statistics", counts(metadata.statistics.sorted { $0.key < $1.key })))
        for stage in metadata.stages {
            let dropped = counts(stage.dropped.sorted { $0.key < $1.key })
            let flow = "\(grouped(stage.input)) → \(grouped(stage.output))"
            rows.append(("stage \(stage.stage)", flow + (dropped.isEmpty ? "" : " (\(dropped))")))
        }
        let unmapped = metadata.tagCounts("unmapped").sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        if !unmapped.isEmpty {
            let values = unmapped.count > 8 ? ", ... (\(unmapped.count) values)" : ""
            rows.append(("unmapped", counts(unmapped.prefix(8)) + values))
        }
        return rows
    }

    /// "cafe 12, museum 3": names and counts, in the order given.
    private static func counts(_ entries: some Sequence<(key: String, value: Int)>) -> String {
        entries.map { "\($0.key) \(grouped($0.value))" }.joined(separator: ", ")
    }
}
