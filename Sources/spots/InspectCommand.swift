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
        var byType: [OSMType: Int] = [:]
        var byCategory: [String: Int] = [:]
        for position in 0..<index.count {
            byType[try index.ref(at: position).type, default: 0] += 1
            byCategory[try index.kind(at: position).category?.rawValue ?? "(none)", default: 0] += 1
        }
        let metadata = try index.metadata()
        let types = OSMType.allCases.map { "\(grouped(byType[$0] ?? 0)) \($0.name)s" }.joined(separator: ", ")
        let categories = byCategory.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        var rows: [(String, String)] = [
            ("index", index.file),
            ("format", "spots index version \(SpotIndexReader.formatVersion), \(grouped(index.fileSize)) bytes, \(index.sections.count) sections"),
            ("generator", metadata.generator),
            ("built", metadata.buildTime ?? "unknown (no timestamps in the inputs)"),
        ]
        rows += metadata.inputs.map { ("input", "\($0.name) (\(grouped($0.bytes)) bytes" + ($0.sha256.map { ", sha256 \($0)" } ?? "") + ")") }
        if let pipeline = metadata.pipeline {
            rows.append(("pipeline", (pipeline.file ?? "built-in defaults") + (pipeline.keepAll ? ", keep all" : ", \(pipeline.exclude.count) excluded tags")
                + (pipeline.dedupe.enabled ? ", dedupe within \(Int(pipeline.dedupe.radius)) m" : ", no dedupe")))
        }
        rows.append(("spots", "\(grouped(index.count)) (\(types))"))
        rows.append(("bbox", metadata.bboxE7.map { $0.map(Coordinate.decimalString).joined(separator: ",") + "  (MINLON,MINLAT,MAXLON,MAXLAT)" } ?? "none"))
        rows.append(("categories", "\(categories.count): " + categories.prefix(8).map { "\($0.key) \(grouped($0.value))" }.joined(separator: ", ") + (categories.count > 8 ? ", ..." : "")))
        rows.append(("statistics", metadata.statistics.sorted { $0.key < $1.key }.map { "\($0.key) \(grouped($0.value))" }.joined(separator: ", ")))
        for stage in metadata.stages {
            let dropped = stage.dropped.sorted { $0.key < $1.key }.map { "\($0.key) \(grouped($0.value))" }
            rows.append(("stage \(stage.stage)", "\(grouped(stage.input)) → \(grouped(stage.output))" + (dropped.isEmpty ? "" : " (\(dropped.joined(separator: ", ")))")))
        }
        let unmapped = metadata.tagCounts("unmapped").sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        if !unmapped.isEmpty {
            rows.append(("unmapped", unmapped.prefix(8).map { "\($0.key) \(grouped($0.value))" }.joined(separator: ", ") + (unmapped.count > 8 ? ", ... (\(unmapped.count) values)" : "")))
        }
        for check in checks {
            let section = check.section
            rows.append(("section \(section.name)", "offset \(section.offset), \(grouped(section.length)) bytes, crc32 \(String(section.checksum, radix: 16)) \(check.isValid ? "ok" : "MISMATCH")"))
        }
        let bad = checks.filter { !$0.isValid }
        rows.append(("checksums", bad.isEmpty ? "ok" : "\(bad.count) section(s) damaged"))
        let width = rows.map(\.0.count).max()! + 2
        print(rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n"))
        if let first = bad.first {
            throw IndexError(.corrupt, file: index.file, section: first.section.name, "checksum mismatch")
        }
    }
}
