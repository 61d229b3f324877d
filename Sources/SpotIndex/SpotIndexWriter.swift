import Spots

/// Encodes spots and metadata as an index file (format version 1, FORMAT.md).
///
/// The writer produces the file's bytes; putting them on disk atomically is the caller's job
/// (SpotPipeline writes to a temporary file beside the output, fsyncs and renames). Equal inputs
/// give equal bytes, whatever the order of `spots`.
public enum SpotIndexWriter {
    /// The index bytes for `spots` with `metadata`, and `categoryWords` (folded query words to
    /// the categories they name) for search.
    public static func encode(_ spots: [Spot], metadata: IndexMetadata, categoryWords: [String: [Category]] = [:]) -> [UInt8] {
        let ordered = hilbertOrder(spots)
        var pool = StringPool()
        var kinds = KindTable()
        var spotSection = ByteWriter()
        var attributes = ByteWriter()
        var ownRefs: [(ref: OSMRef, spot: UInt32)] = []
        var merged: [(ref: OSMRef, spot: UInt32)] = []
        var text = TextIndexBuilder()
        for (position, spot) in ordered.enumerated() {
            let index = UInt32(position)
            spotSection.append(spot.ref.id)
            spotSection.append(spot.coordinate.latitudeE7)
            spotSection.append(spot.coordinate.longitudeE7)
            spotSection.append(UInt32(attributes.bytes.count))
            spotSection.append(kinds.index(of: spot, pool: &pool))
            spotSection.append(spot.ref.type.rawValue)
            spotSection.append(UInt8(0))
            for attribute in spot.attributeTags {
                attributes.appendVarint(pool.index(of: attribute.key))
                attributes.appendVarint(pool.index(of: attribute.value))
            }
            ownRefs.append((spot.ref, index))
            for ref in spot.merged { merged.append((ref, index)) }
            for name in spot.allNames { text.add(name: name, spot: index) }
            text.refs.append(spot.ref)
        }
        var referenceOrder = ByteWriter()
        var kindLists: [[UInt32]] = Array(repeating: [], count: kinds.count)
        for entry in ownRefs.sorted(by: { $0.ref < $1.ref }) {
            referenceOrder.append(entry.spot)
            kindLists[kinds.number(ofSpot: Int(entry.spot))].append(entry.spot)
        }
        var kindListSection = ByteWriter()
        kindListSection.append(UInt32(kindLists.count))
        var end: UInt32 = 0
        for list in kindLists {
            end += UInt32(list.count)
            kindListSection.append(end)
        }
        for list in kindLists { for spot in list { kindListSection.append(spot) } }
        var mergedOrder = ByteWriter()
        for position in merged.indices.sorted(by: { merged[$0].ref < merged[$1].ref }) { mergedOrder.append(UInt32(position)) }
        // One line per category: its name, then the words that name it, separated by tabs.
        var wordLists: [String: [String]] = [:]
        for (word, categories) in categoryWords {
            for category in categories { wordLists[category.rawValue, default: []].append(word) }
        }
        let wordText = wordLists.keys.sorted().map { ([$0] + wordLists[$0]!.sorted()).joined(separator: "\t") + "\n" }.joined()
        return container([
            (IndexLayout.Tag.metadata, metadata.encoded()),
            (IndexLayout.Tag.strings, pool.encoded()),
            (IndexLayout.Tag.kinds, kinds.encoded()),
            (IndexLayout.Tag.spots, spotSection.bytes),
            (IndexLayout.Tag.attributes, attributes.bytes),
            (IndexLayout.Tag.refs, referenceOrder.bytes),
            (IndexLayout.Tag.merged, encodeRefs(merged)),
            (IndexLayout.Tag.mergedOrder, mergedOrder.bytes),
            (IndexLayout.Tag.kindLists, kindListSection.bytes),
            (IndexLayout.Tag.tree, encodeTree(ordered.map(\.coordinate))),
            (IndexLayout.Tag.tokens, text.tokens()),
            (IndexLayout.Tag.postings, text.postings()),
            (IndexLayout.Tag.words, Array(wordText.utf8)),
        ])
    }

    /// Spots sorted by the Hilbert index of their coordinate over the spots' extent, ties by
    /// OSM type then id.
    static func hilbertOrder(_ spots: [Spot]) -> [Spot] {
        guard let box = BoundingBox(enclosing: spots.map(\.coordinate)) else { return [] }
        let width = max(1, Int64(box.maxLongitudeE7) - Int64(box.minLongitudeE7))
        let height = max(1, Int64(box.maxLatitudeE7) - Int64(box.minLatitudeE7))
        func key(_ spot: Spot) -> UInt32 {
            let x = UInt32((Int64(spot.coordinate.longitudeE7) - Int64(box.minLongitudeE7)) * 0xFFFF / width)
            let y = UInt32((Int64(spot.coordinate.latitudeE7) - Int64(box.minLatitudeE7)) * 0xFFFF / height)
            return Hilbert.index(x: x, y: y)
        }
        return spots.map { (key($0), $0) }.sorted { ($0.0, $0.1.ref) < ($1.0, $1.1.ref) }.map(\.1)
    }

    /// 16 bytes per reference: id, type, 3 reserved bytes, spot index.
    private static func encodeRefs(_ refs: [(ref: OSMRef, spot: UInt32)]) -> [UInt8] {
        var writer = ByteWriter()
        for entry in refs {
            writer.append(entry.ref.id)
            writer.append(entry.ref.type.rawValue)
            writer.append([0, 0, 0])
            writer.append(entry.spot)
        }
        return writer.bytes
    }

    /// The packed R-tree's levels above the spots: node size, level count, each level's box
    /// count, then the boxes, lowest level first.
    private static func encodeTree(_ points: [Coordinate]) -> [UInt8] {
        var levels: [[[Int32]]] = []
        var below: [[Int32]] = points.map { [$0.longitudeE7, $0.latitudeE7, $0.longitudeE7, $0.latitudeE7] }
        while below.count > 1 || (levels.isEmpty && below.count == 1) {
            let level = stride(from: 0, to: below.count, by: IndexLayout.nodeSize).map { start in
                below[start..<min(start + IndexLayout.nodeSize, below.count)].reduce(into: below[start]) { box, child in
                    box = [min(box[0], child[0]), min(box[1], child[1]), max(box[2], child[2]), max(box[3], child[3])]
                }
            }
            levels.append(level)
            below = level
        }
        var writer = ByteWriter()
        writer.append(UInt32(IndexLayout.nodeSize))
        writer.append(UInt32(levels.count))
        for level in levels { writer.append(UInt32(level.count)) }
        if levels.count % 2 == 1 { writer.append(UInt32(0)) }
        for level in levels {
            for box in level { for value in box { writer.append(value) } }
        }
        return writer.bytes
    }

    /// Header, section table and the sections, each aligned, each with its CRC-32.
    private static func container(_ sections: [(tag: UInt32, bytes: [UInt8])]) -> [UInt8] {
        var file = ByteWriter()
        file.append(IndexLayout.magic)
        file.append(IndexLayout.version)
        file.append(UInt32(sections.count))
        file.append(UInt64(0))  // file size, set below
        file.append(UInt32(0))  // header checksum, set below
        file.append(UInt32(0))
        var offset = IndexLayout.headerSize + sections.count * IndexLayout.sectionEntrySize
        for section in sections {
            offset = (offset + IndexLayout.alignment - 1) / IndexLayout.alignment * IndexLayout.alignment
            file.append(section.tag)
            file.append(UInt32(0))
            file.append(UInt64(offset))
            file.append(UInt64(section.bytes.count))
            file.append(section.bytes.withUnsafeBytes { CRC32.checksum($0) })
            file.append(UInt32(0))
            offset += section.bytes.count
        }
        for section in sections {
            file.pad(to: IndexLayout.alignment)
            file.append(section.bytes)
        }
        file.set(UInt64(file.bytes.count), at: 16)
        file.set(IndexHeader.checksum(of: file.bytes, sectionCount: sections.count), at: 24)
        return file.bytes
    }
}

/// Each distinct string once, numbered in order of first use. Strings are told apart by their
/// bytes: Swift's String equality would merge canonically equivalent spellings ("é" and
/// "e" + U+0301), and the index keeps text exactly as OSM spells it.
struct StringPool {
    private var indices: [[UInt8]: UInt32] = [:]
    private var strings: [[UInt8]] = []

    mutating func index(of string: String) -> UInt32 {
        let bytes = Array(string.utf8)
        if let index = indices[bytes] { return index }
        let index = UInt32(strings.count)
        indices[bytes] = index
        strings.append(bytes)
        return index
    }

    /// Count, end offsets, then the UTF-8 bytes (FORMAT.md, STRS).
    func encoded() -> [UInt8] { StringPool.encode(strings) }

    static func encode(_ strings: [[UInt8]]) -> [UInt8] {
        var writer = ByteWriter()
        writer.append(UInt32(strings.count))
        var end: UInt32 = 0
        for string in strings {
            end += UInt32(string.count)
            writer.append(end)
        }
        for string in strings { writer.append(string) }
        return writer.bytes
    }
}

/// Each distinct (selecting key, value, category) once: a spot stores a 16-bit kind number.
struct KindTable {
    private var indices: [[UInt32]: UInt16] = [:]
    private var kinds: [[UInt32]] = []

    /// The kind number of each spot, by spot number, as given out.
    private var spotKinds: [UInt16] = []

    var count: Int { kinds.count }

    mutating func index(of spot: Spot, pool: inout StringPool) -> UInt16 {
        let kind = [pool.index(of: spot.tagKey), pool.index(of: spot.kind), spot.category.map { pool.index(of: $0.rawValue) } ?? IndexLayout.noString]
        let index: UInt16
        if let known = indices[kind] {
            index = known
        } else {
            precondition(kinds.count < Int(UInt16.max), "more than 65,535 distinct selecting tags")
            index = UInt16(kinds.count)
            indices[kind] = index
            kinds.append(kind)
        }
        spotKinds.append(index)
        return index
    }

    /// The kind number given to spot `spot` (spots numbered in the order they were given).
    func number(ofSpot spot: Int) -> Int { Int(spotKinds[spot]) }

    func encoded() -> [UInt8] {
        var writer = ByteWriter()
        for kind in kinds { for value in kind { writer.append(value) } }
        return writer.bytes
    }
}

/// Collects name tokens and the spots they belong to, for the TOKN and POST sections.
struct TextIndexBuilder {
    /// Token → spot → whether the token starts one of the spot's names.
    private var lists: [String: [UInt32: Bool]] = [:]
    /// Each spot's own reference, by spot number: lists are in reference order.
    var refs: [OSMRef] = []

    mutating func add(name: String, spot: UInt32) {
        for (token, startsName) in SearchText.tokens(ofName: name) {
            lists[token, default: [:]][spot, default: false] = lists[token]?[spot] == true || startsName
        }
    }

    /// The distinct tokens, sorted by their UTF-8 bytes.
    private var sortedTokens: [[UInt8]] {
        lists.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func tokens() -> [UInt8] { StringPool.encode(sortedTokens) }

    /// Count, then for each token the end of its list, then the lists: first the spots whose name
    /// the token starts, then the others, each part in the order of the spots' OSM references
    /// (so that the first spots of a list are the first results of a text search), the top bit
    /// set where the token starts one of the spot's names.
    func postings() -> [UInt8] {
        var writer = ByteWriter()
        let tokens = sortedTokens
        writer.append(UInt32(tokens.count))
        var end: UInt32 = 0
        for token in tokens {
            end += UInt32(lists[String(decoding: token, as: UTF8.self)]!.count)
            writer.append(end)
        }
        for token in tokens {
            let list = lists[String(decoding: token, as: UTF8.self)]!.sorted { a, b in
                a.value != b.value ? a.value : refs[Int(a.key)] < refs[Int(b.key)]
            }
            for (spot, startsName) in list {
                writer.append(spot | (startsName ? IndexLayout.startsNameFlag : 0))
            }
        }
        return writer.bytes
    }
}
