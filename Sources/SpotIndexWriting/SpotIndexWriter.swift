import ProcessSupport
import SpotBuiltInWords
import SpotCluster
import SpotIndex
import SpotText
import Spots

/// Encodes spots and metadata as an index file (the format version `IndexLayout.version`,
/// FORMAT.md).
///
/// The writer produces the file's bytes; putting them on disk atomically is the caller's job
/// (SpotOutput writes to a temporary file beside the output, fsyncs and renames). Equal inputs
/// give equal bytes, whatever the order of `spots`.
public enum SpotIndexWriter {
    /// The OSM ids a spot record can hold: 46-bit signed, beside the 2-bit OSM type in 6 bytes.
    /// OpenStreetMap's ids are below 2^34; a builder drops spots outside this range.
    public static let storableIDs: ClosedRange<Int64> = -(1 << 45)...(1 << 45) - 1

    /// The index bytes for `spots` with `metadata`, searched with `words` (the query words that
    /// name categories and OSM values, none by default: stored in WORD unless they are
    /// `SearchWords.builtIn`, which every reader has), with cluster levels made with `clusters`
    /// when given. Every spot's id must be
    /// in `storableIDs`.
    public static func encode(
        _ spots: consuming [Spot], metadata: IndexMetadata, words: SearchWords = SearchWords(),
        clusters: ClusterSettings? = nil
    ) -> [UInt8] {
        precondition(
            spots.allSatisfy { storableIDs.contains($0.ref.id) }, "an OSM id outside SpotIndexWriter.storableIDs")
        // The spots in input order are not kept beside the ordered ones.
        let ordered = hilbertOrder(consume spots)
        let referenceOrder = ordered.indices.sorted { ordered[$0].ref < ordered[$1].ref }
        var rankOfSpot = [Int](repeating: 0, count: ordered.count)
        for (rank, spot) in referenceOrder.enumerated() { rankOfSpot[spot] = rank }

        // What each spot's text gives, worked out once for every spot on every core.
        let texts = ordered.concurrentMap(minimumRun: 4096, SpotTextParts.init)
        var collected = StringCollector()
        var letterHouseNumbers: Set<String> = []
        for (spot, text) in zip(ordered, texts) {
            letterHouseNumbers.formUnion(text.letterHouseNumbers)
            collected.insert(spot.tagKey)
            collected.insert(spot.kind)
            if let category = spot.category { collected.insert(category.rawValue) }
            for attribute in text.attributeTags {
                collected.insert(attribute.key)
                collected.insert(attribute.value)
            }
        }
        let pool = collected.sortedPool()
        // Independent of what follows: encoded on other threads meanwhile.
        let poolSection = BackgroundWork { pool.encoded() }
        let coordinates = ordered.map(\.coordinate)
        let categories = ordered.map(\.category)
        let isPlace = ordered.map { $0.resultType != .address }
        let clusterLevels = clusters.map { settings in
            BackgroundWork {
                ClusterLevelsWriter(
                    coordinates: coordinates, categories: categories, isPlace: isPlace, settings: settings
                )
                .sections(treeNodeSize: IndexLayout.nodeSize)
            }
        }
        var kinds = KindTable()
        var spotSection = ByteWriter()
        var attributes = ByteWriter()
        var merged: [(ref: OSMRef, spot: UInt32)] = []
        var text = TextIndexBuilder()
        var qualities = ByteWriter()
        for (position, spot) in ordered.enumerated() {
            spotSection.appendRecord(
                of: spot, attributeOffset: UInt32(attributes.bytes.count), kind: kinds.number(of: spot, pool: pool))
            for attribute in texts[position].attributeTags {
                attributes.appendVarint(pool.index(of: attribute.key))
                attributes.appendVarint(pool.index(of: attribute.value))
            }
            for ref in spot.merged { merged.append((ref, UInt32(position))) }
            qualities.append(texts[position].quality.rawValue)
            text.add(texts[position].tokens, rank: rankOfSpot[position])
        }
        var kindLists: [[Int]] = Array(repeating: [], count: kinds.count)
        for (rank, spot) in referenceOrder.enumerated() { kindLists[kinds.number(ofSpot: spot)].append(rank) }
        let wordLines = WordLines(words)
        let wordLists = wordLines.spotLists(
            ordered, attributeTags: texts.map(\.attributeTags), rankOfSpot: rankOfSpot, text: text)
        let mergedOrder = merged.indices.sorted { merged[$0].ref < merged[$1].ref }
        return container(
            [
                (IndexLayout.Tag.metadata, metadata.encoded()),
                (IndexLayout.Tag.strings, poolSection.wait()),
                (IndexLayout.Tag.kinds, kinds.encoded()),
                (IndexLayout.Tag.spots, spotSection.bytes),
                (IndexLayout.Tag.attributes, attributes.bytes),
                (IndexLayout.Tag.refs, encodeOrder(referenceOrder)),
                (IndexLayout.Tag.merged, encodeRefs(merged)),
                (IndexLayout.Tag.mergedOrder, encodeOrder(mergedOrder)),
                (IndexLayout.Tag.kindLists, encodeRankLists(kindLists)),
                (IndexLayout.Tag.tree, encodeTree(coordinates)),
                (
                    IndexLayout.Tag.tokens,
                    StringTableWriter.encode(text.sortedTokens, blockSize: IndexLayout.tokenBlockSize)
                ),
                (IndexLayout.Tag.postings, text.postings()),
                (IndexLayout.Tag.qualities, qualities.bytes),
                (IndexLayout.Tag.wordLists, encodeNamedRankLists(wordLists)),
            ] + (kinds.encodedResultTypes().map { [(IndexLayout.Tag.resultTypes, $0)] } ?? [])
                + (words == .builtIn ? [] : [(IndexLayout.Tag.words, wordLines.encoded())])
                + [(IndexLayout.Tag.letterHouseNumbers, encodeLines(letterHouseNumbers))]
                + (clusterLevels?.wait() ?? []))
    }

    /// `lines` sorted by their bytes, each ending in a line feed (HNUM).
    private static func encodeLines(_ lines: Set<String>) -> [UInt8] {
        lines.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 + [0x0A] }
    }

    /// An order table (REFS, MRGO): `numbers`, each below their count, in
    /// `IndexLayout.orderEntrySize(count:)` bytes each.
    private static func encodeOrder(_ numbers: [Int]) -> [UInt8] {
        let width = IndexLayout.orderEntrySize(count: numbers.count)
        var section = ByteWriter()
        for number in numbers { section.append(UInt32(number), width: width) }
        return section.bytes
    }

    /// List count, the end of each rank list in bytes, then the rank lists (KLST, WLST).
    private static func encodeRankLists(_ lists: [[Int]]) -> [UInt8] {
        var encodedLists = ByteWriter()
        var section = ByteWriter()
        section.append(UInt32(lists.count))
        for list in lists {
            encodedLists.appendRankList(list)
            section.append(UInt32(encodedLists.bytes.count))
        }
        section.append(encodedLists.bytes)
        return section.bytes
    }

    /// List count, the end of each entry in bytes, then the entries, sorted by name: a varint
    /// name length, the name, a rank list (WLST).
    private static func encodeNamedRankLists(_ lists: [(name: String, ranks: [Int])]) -> [UInt8] {
        var entries = ByteWriter()
        var section = ByteWriter()
        section.append(UInt32(lists.count))
        for (name, ranks) in lists.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes($1.name.utf8) }) {
            entries.appendVarint(UInt32(name.utf8.count))
            entries.append(Array(name.utf8))
            entries.appendRankList(ranks)
            section.append(UInt32(entries.bytes.count))
        }
        section.append(entries.bytes)
        return section.bytes
    }

    /// Spots sorted by the Hilbert index of their coordinate over the spots' extent, ties by
    /// OSM type then id.
    static func hilbertOrder(_ spots: [Spot]) -> [Spot] {
        guard let keys = HilbertKeys(enclosing: spots.map(\.coordinate)) else { return [] }
        // Positions are sorted, not spots: a spot is large, and the sort's buffer would be too.
        let key = spots.map { keys.key($0.coordinate) }
        let order = spots.indices.sorted { (key[$0], spots[$0].ref) < (key[$1], spots[$1].ref) }
        return order.map { spots[$0] }
    }

    /// 16 bytes per reference: id, type, 3 reserved bytes, spot number.
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
        let levels = PackedTree.boxLevels(over: points, nodeSize: IndexLayout.nodeSize)
        var writer = ByteWriter()
        writer.append(UInt32(IndexLayout.nodeSize))
        writer.append(UInt32(levels.count))
        for level in levels { writer.append(UInt32(level.count)) }
        if levels.count % 2 == 1 { writer.append(UInt32(0)) }
        for level in levels {
            for box in level { writer.append(box) }
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
        // The header checksum: CRC-32 of the header's first 24 bytes, continued over the table.
        let head = file.bytes[..<24].withUnsafeBytes { CRC32.checksum($0) }
        let tableEnd = IndexLayout.headerSize + sections.count * IndexLayout.sectionEntrySize
        let table = file.bytes[IndexLayout.headerSize..<tableEnd]
        file.set(table.withUnsafeBytes { CRC32.checksum($0, continuing: head) }, at: 24)
        return file.bytes
    }
}

/// What the writer reads of a spot's text: a function of the spot alone.
private struct SpotTextParts: Sendable {
    /// The spot's attributes, flattened (`Spot.attributeTags`), for the pool and the record.
    let attributeTags: [(key: String, value: String)]
    /// The spot's quality (QUAL), whose score its postings are grouped by.
    let quality: PlaceQuality
    /// The spot's name and address tokens (`TextIndexBuilder.tokens(of:address:score:)`).
    let tokens: [(token: String, key: PostingGroup.Key)]
    /// The spot's house numbers that do not start with a digit (HNUM).
    let letterHouseNumbers: [String]

    init(_ spot: Spot) {
        attributeTags = spot.attributeTags
        quality = PlaceQuality(of: spot)
        let address = SearchAddress(spot.address)
        tokens = TextIndexBuilder.tokens(of: spot, address: address, score: quality.score)
        letterHouseNumbers = address.houseNumbers.filter { !SearchAddress.startsWithDigit($0) }
    }
}

extension ByteWriter {
    /// Appends the record of `spot` (SPOT), each field where `SpotRecordField` puts it.
    fileprivate mutating func appendRecord(of spot: Spot, attributeOffset: UInt32, kind: UInt16) {
        let start = bytes.count
        append([UInt8](repeating: 0, count: SpotRecordField.recordSize))
        // 48 bits: the id shifted left by 2, the type in the low 2 bits.
        let packedRef = UInt64(bitPattern: spot.ref.id << 2 | Int64(spot.ref.type.rawValue))
        set(spot.coordinate.latitudeE7, at: start + SpotRecordField.latitude.rawValue)
        set(spot.coordinate.longitudeE7, at: start + SpotRecordField.longitude.rawValue)
        set(attributeOffset, at: start + SpotRecordField.attributeOffset.rawValue)
        set(kind, at: start + SpotRecordField.kind.rawValue)
        set(UInt16(truncatingIfNeeded: packedRef), at: start + SpotRecordField.referenceLow.rawValue)
        set(UInt32(truncatingIfNeeded: packedRef >> 16), at: start + SpotRecordField.referenceHigh.rawValue)
    }
}
