import SpotIndex
import SpotJSON
import SpotReport
import Spots

/// What `/v1/index` answers: what `spots inspect` shows, as one JSON object (keys sorted):
/// `file`, `format_version`, `bytes`, `generator`, `built` (null without timestamps in the
/// inputs), `spots`, `spots_by_type`, `categories` (name to count, `(none)` for spots without
/// one), `bbox` ([minlon, minlat, maxlon, maxlat] or null), `statistics`, `sections` (name,
/// offset, length, crc32, ok) and `checksums` ("ok" or how many sections are damaged).
enum IndexJSON {
    /// The object for `index`, whose checksums `inspection` verified.
    static func description(of index: SpotIndexReader, inspection: IndexInspection) throws(IndexError) -> [UInt8] {
        let byType = Dictionary(uniqueKeysWithValues: inspection.spotsByType.map { ($0.key.name + "s", $0.value) })
        let metadata = try index.metadata()
        let damaged = Set(inspection.damagedSections.map(\.name))
        let sections: [JSONValue] = index.sections.map { section in
            .object([
                "name": .string(section.name), "offset": .number(Double(section.offset)),
                "length": .number(Double(section.length)), "crc32": .string(String(section.checksum, radix: 16)),
                "ok": .bool(!damaged.contains(section.name)),
            ])
        }
        let bbox = metadata.bbox.map { box in
            JSONValue.array([box.westE7, box.southE7, box.eastE7, box.northE7].map { .number(Double($0) / 1e7) })
        }
        let object: JSONValue = .object([
            "file": .string(index.file),
            "format_version": .number(Double(SpotIndexReader.formatVersion)),
            "bytes": .number(Double(index.fileSize)),
            "generator": .string(metadata.generator),
            "built": metadata.buildTime.map { .string($0) } ?? .null,
            "spots": .number(Double(index.count)),
            "spots_by_type": counts(byType),
            "categories": counts(inspection.spotsByCategory),
            "bbox": bbox ?? .null,
            "statistics": counts(metadata.statistics),
            "sections": .array(sections),
            "checksums": .string(damaged.isEmpty ? "ok" : "\(damaged.count) section(s) damaged"),
        ])
        return Array(object.text(.compact).utf8)
    }

    private static func counts(_ map: [String: Int]) -> JSONValue {
        .object(map.mapValues { .number(Double($0)) })
    }
}
