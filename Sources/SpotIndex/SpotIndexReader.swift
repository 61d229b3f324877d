import Foundation
import SpotText
import Spots

/// A loaded index: the file mapped into memory, its header and section table checked.
///
/// Each section is read by a view type of its own (FORMAT.md, "At a glance"), which checks on
/// open what it can in time independent of the number of spots: opening reads the header, the
/// section table, the headers of the sections and the small kind table. Every read of the file
/// goes through `SectionBytes`, checked against the bounds of its section, and every value read
/// is checked before it is used; a damaged or hostile file gives `IndexError`, never a crash or
/// a read outside the file. Section checksums are verified by `verifyChecksums()`, which reads
/// everything.
public final class SpotIndexReader: @unchecked Sendable {
    /// The version of the file format this reader reads (FORMAT.md); it refuses others.
    public static let formatVersion = Int(IndexLayout.version)
    /// The index as the user named it.
    public let file: String
    /// The sections, in table order.
    public let sections: [IndexSection]
    /// How many spots the index holds.
    public let count: Int
    /// The index's kinds: each distinct selecting tag of its spots (key, value and category),
    /// numbered by its position here, the kind number (KIND).
    public let kinds: [SelectingTag]
    /// The spatial tree over the spots (TREE), whose items are spot numbers.
    public let tree: PackedTreeView
    /// The cluster levels, when the build made them (FORMAT.md: optional sections).
    public let clusterLevels: ClusterLevels?
    /// How many distinct name tokens the text index holds.
    public var tokenCount: Int { tokens.count }
    /// The file's size in bytes.
    public var fileSize: Int { mapped.bytes.count }

    // The views that read the sections, one each (FORMAT.md, "Sections").
    private let mapped: MappedFile
    /// The header and section table; each section's bytes.
    private let header: IndexHeader
    /// META, decoded on each call of `metadata()` by `IndexMetadata`.
    private let metadataBytes: SectionBytes
    /// STRS.
    private let strings: StringTable
    /// The string index of the key `name`, when any spot has a name.
    private let nameKey: UInt32?
    /// The string number of `addr:housenumber`, if any spot has one.
    private let houseNumberKey: UInt32?
    /// The string numbers of the strings that start with `addr:`: STRS is sorted, so a range.
    private let addressKeys: Range<Int>
    /// For each string of `addressKeys`, in order, the part of an address line it is the key of
    /// (`AddressParts.Part`), or nil: a key's part found by subtraction, not a hash.
    private let addressLinePartOfKey: [AddressParts.Part?]
    /// The string number past the keys a label reads (`addr:*`, then `name`, which sorts after
    /// them): a spot's pairs are sorted by key, so its label is read when a key reaches it.
    private let labelKeysEnd: UInt32
    /// The string numbers of the strings that start with `name` (`name` and `name:xx` among
    /// them), and of the other keys search reads as names (`Spot.otherNameKeys` and
    /// `Spot.namedDetails`): the only keys of names.
    private let nameKeys: Range<Int>
    private let otherNameKeys: Set<UInt32>
    /// The string numbers of `brand` and `operator`, the display names of last resort.
    private let namedDetailKeys: Set<UInt32>
    /// SPOT.
    let spots: SpotRecords
    /// ATTR.
    private let attributes: AttributeLists
    /// REFS.
    let referenceOrder: ReferenceOrder
    /// MERG and MRGO.
    let mergedReferences: MergedReferences
    /// KLST.
    let kindLists: NumberedRankLists
    /// WLST, when the file has it (FORMAT.md: written since it joined version 4).
    let wordLists: NamedRankLists?
    /// TOKN.
    let tokens: StringTable
    /// The tokens decoded, when a token cursor first needs them: a walk of the tokens seeks them
    /// thousands of times a query.
    let tokenTrieOnce: StringTable.LazyTrie
    /// POST.
    let postings: PostingLists
    /// WORD, when the index was built with words other than the built-in ones.
    private let words: CategoryWordTable?
    /// HNUM, when the file has it.
    let letterHouseNumberList: LetterHouseNumbers?
    /// QUAL.
    private let qualities: PlaceQualities

    /// Maps and checks the index at `path`: each section's view checks what it can in time
    /// independent of the number of spots (FORMAT.md, "Checks a reader makes"). Its `file` is
    /// `name` when given (a candidate shown as the output it would replace), else `path`.
    public init(path: String, shownAs name: String? = nil) throws(IndexError) {
        file = name ?? path
        let mapped = try MappedFile(path: path)
        self.mapped = mapped
        let header = try IndexHeader(SectionBytes(mapped.bytes, file: path, name: "header"))
        self.header = header
        sections = header.sections
        typealias Tag = IndexLayout.Tag
        metadataBytes = try header.requiredBytes(of: Tag.metadata)
        words = header.bytes(of: Tag.words).map(CategoryWordTable.init)
        letterHouseNumberList = header.bytes(of: Tag.letterHouseNumbers).map(LetterHouseNumbers.init)
        strings = try StringTable(try header.requiredBytes(of: Tag.strings))
        nameKey = try strings.index(of: Array("name".utf8)).map(UInt32.init)
        houseNumberKey = try strings.index(of: Array(SearchAddress.houseNumberKey.utf8)).map(UInt32.init)
        addressKeys = try strings.range(withPrefix: Array("addr:".utf8))
        let parts = AddressParts.Part.allCases
        var addressLinePartOfKey = [AddressParts.Part?](repeating: nil, count: addressKeys.count)
        for (part, number) in zip(parts, try strings.indices(of: parts.map { Array("addr:\($0.key)".utf8) })) {
            guard let number else { continue }
            // Found by its own search, an `addr:` key lies in the prefix's range unless the
            // table is out of order.
            guard addressKeys.contains(number) else { throw strings.corrupt("is not in sorted order") }
            addressLinePartOfKey[number - addressKeys.lowerBound] = part
        }
        self.addressLinePartOfKey = addressLinePartOfKey
        labelKeysEnd = UInt32(max(addressKeys.upperBound, nameKey.map { Int($0) + 1 } ?? 0))
        nameKeys = try strings.range(withPrefix: Array("name".utf8))
        let namedDetailKeys = try strings.indices(of: Spot.namedDetails.map { Array($0.rawValue.utf8) })
            .compactMap { $0.map(UInt32.init) }
        self.namedDetailKeys = Set(namedDetailKeys)
        otherNameKeys = Set(
            try strings.indices(of: Spot.otherNameKeys.map { Array($0.utf8) }).compactMap { $0.map(UInt32.init) }
                + namedDetailKeys)
        kinds = try SelectingTags.decode(
            try header.requiredBytes(of: Tag.kinds), types: header.bytes(of: Tag.resultTypes), strings: strings)
        spots = try SpotRecords(try header.requiredBytes(of: Tag.spots), kindCount: kinds.count)
        count = spots.count
        attributes = AttributeLists(try header.requiredBytes(of: Tag.attributes))
        referenceOrder = try ReferenceOrder(try header.requiredBytes(of: Tag.refs), spotCount: count)
        mergedReferences = try MergedReferences(
            merged: try header.requiredBytes(of: Tag.merged), order: try header.requiredBytes(of: Tag.mergedOrder),
            spotCount: count)
        let kindListBytes = try header.requiredBytes(of: Tag.kindLists)
        kindLists = try NumberedRankLists(kindListBytes, spotCount: spots.count)
        guard kindLists.count == kinds.count else {
            throw kindListBytes.corrupt("holds \(kindLists.count) lists for \(kinds.count) kinds")
        }
        wordLists = try header.bytes(of: Tag.wordLists).map { [count] (bytes) throws(IndexError) in
            try NamedRankLists(bytes, spotCount: count)
        }
        tokens = try StringTable(try header.requiredBytes(of: Tag.tokens))
        tokenTrieOnce = StringTable.LazyTrie(tokens)
        postings = try PostingLists(
            try header.requiredBytes(of: Tag.postings), tokenCount: tokens.count, spotCount: count)
        qualities = try PlaceQualities(try header.requiredBytes(of: Tag.qualities), spotCount: count)
        tree = try PackedTreeView(treeSection: try header.requiredBytes(of: Tag.tree), spotCount: count)
        clusterLevels = try ClusterLevels.open(header, spotCount: count, spotTree: tree)
    }

    /// The build metadata (decoded from JSON on each call).
    public func metadata() throws(IndexError) -> IndexMetadata {
        do {
            return try IndexMetadata.decode(metadataBytes)
        } catch {
            throw corrupt("META", "metadata is not valid JSON of the expected shape")
        }
    }

    /// Folded query words and the categories and values they name, as the build stored them
    /// (WORD); nil for an index built with the built-in words, which it does not store
    /// (`SearchWords.builtIn`, of SpotBuiltInWords, which a search carries).
    public func storedSearchWords() throws(IndexError) -> SearchWords? {
        try words?.decode()
    }

    // MARK: Spots

    /// The OSM reference of spot `spot`.
    public func ref(at spot: Int) throws(IndexError) -> OSMRef {
        try spots.ref(of: spot)
    }

    /// The coordinate of spot `spot`.
    public func coordinate(at spot: Int) throws(IndexError) -> Coordinate {
        try spots.coordinate(of: spot)
    }

    /// The quality flags of spot `spot`, stored at build time.
    public func quality(at spot: Int) throws(IndexError) -> PlaceQuality {
        try qualities.quality(of: spot)
    }

    /// The kind number of spot `spot`: its position in `kinds`.
    public func kindNumber(at spot: Int) throws(IndexError) -> Int {
        try spots.kindNumber(of: spot)
    }

    /// The kind of spot `spot`: its selecting tag and category.
    public func kind(at spot: Int) throws(IndexError) -> SelectingTag {
        kinds[try kindNumber(at: spot)]
    }

    /// Spot number `number` (0 ..< count), decoded.
    public func spot(at number: Int) throws(IndexError) -> Spot {
        let kind = try kind(at: number)
        var spot = Spot(
            ref: try ref(at: number), coordinate: try coordinate(at: number), tagKey: kind.key, kind: kind.value,
            category: kind.category)
        spot.resultType = kind.resultType
        var pairs = try attributes.pairs(of: number, in: spots)
        while let (key, value) = try pairs.next() {
            spot.setAttribute(key: try attributeString(key), value: try attributeString(value))
        }
        spot.merged = try mergedRefs(of: number)
        spot.hasWikipedia = try quality(at: number).contains(.wikipedia)
        return spot
    }

    /// The string numbers (keys and values, undecoded) of the attributes of spot `spot` that
    /// may hold a name search reads: `name`, `name:*`, `Spot.otherNameKeys` and
    /// `Spot.namedDetails`, in stored order.
    /// Which of them search reads, and in what order, is `Spot.nameRank`'s to say.
    public func nameNumbers(at spot: Int) throws(IndexError) -> [(key: Int, value: Int)] {
        var numbers: [(key: Int, value: Int)] = []
        var pairs = try attributes.pairs(of: spot, in: spots)
        while let (key, value) = try pairs.next() {
            if nameKeys.contains(Int(key)) || otherNameKeys.contains(key) { numbers.append((Int(key), Int(value))) }
        }
        return numbers
    }

    /// The `addr:*` attributes of spot `spot` (`Spot.address`), read without decoding the others.
    public func address(at spot: Int) throws(IndexError) -> [String: String] {
        var address: [String: String] = [:]
        for (key, value) in try addressNumbers(at: spot) {
            address[String(try string(numbered: key).dropFirst("addr:".count))] = try string(numbered: value)
        }
        return address
    }

    /// What a result shows of spot `spot` beside its record's fields (`SpotLabel`) for a reader
    /// of `language`: its name, display name and the parts of its address line, read in one
    /// walk of its attributes, with only these values decoded.
    public func label(at spot: Int, language: String? = nil) throws(IndexError) -> SpotLabel {
        try labels(of: [spot], language: language)[0]
    }

    /// The labels of `spots` (`label(at:language:)`), in their order: the values they share (the
    /// street, postcode and city of one neighbourhood's results) decoded once.
    public func labels(of spots: [Int], language: String? = nil) throws(IndexError) -> [SpotLabel] {
        var addressValues = RecentStrings()
        var labels: [SpotLabel] = []
        labels.reserveCapacity(spots.count)
        // The keys a display name may come from, by string number: their text and rank.
        var shownKeys: [UInt32: (key: String, rank: Int)?] = [:]
        for spot in spots {
            var label = SpotLabel()
            var shown: (rank: Int, key: String, value: UInt32)?
            var pairs = try attributes.pairs(of: spot, in: self.spots)
            // Pairs come by key: the address, then brand, name, name:xx, operator. The walk ends
            // past the label's keys once the display name can be bettered by none.
            while let (key, value) = try pairs.next(), key < labelKeysEnd || shown?.rank != 0 {
                if key == nameKey { label.name = try attributeString(value) }
                if nameKeys.contains(Int(key)) || namedDetailKeys.contains(key) {
                    if shownKeys[key] == nil {
                        let text = try attributeString(key)
                        shownKeys[key] = .some(DisplayName.rank(ofKey: text, language: language).map { (text, $0) })
                    }
                    if let (text, rank) = shownKeys[key]!, rank < shown?.rank ?? .max { shown = (rank, text, value) }
                } else if addressKeys.contains(Int(key)),
                    let part = addressLinePartOfKey[Int(key) - addressKeys.lowerBound]
                {
                    label.addressParts[part] = try addressValues.string(value, decoding: attributeString)
                }
            }
            if let shown {
                // Most often the display name is the name, read already.
                let name: String
                if shown.key == "name", let read = label.name {
                    name = read
                } else {
                    name = try attributeString(shown.value)
                }
                label.displayName = DisplayName(key: shown.key, name: name)
            }
            labels.append(label)
        }
        return labels
    }

    /// The string numbers (`string(numbered:)`) of the `addr:*` keys of spot `spot` and of their
    /// values, in stored order, nothing decoded: for a caller that meets the same values often
    /// (a search's candidates share streets and cities) and decodes each once.
    public func addressNumbers(at spot: Int) throws(IndexError) -> [(key: Int, value: Int)] {
        var numbers: [(key: Int, value: Int)] = []
        var pairs = try attributes.pairs(of: spot, in: spots)
        while let (key, value) = try pairs.next() {
            if addressKeys.contains(Int(key)) { numbers.append((Int(key), Int(value))) }
        }
        return numbers
    }

    /// The `name` of spot `spot`, read without decoding its other attributes.
    public func name(at spot: Int) throws(IndexError) -> String? {
        try value(ofKey: nameKey, at: spot)
    }

    /// The `addr:housenumber` of spot `spot`, read without decoding its other attributes.
    public func houseNumber(at spot: Int) throws(IndexError) -> String? {
        try value(ofKey: houseNumberKey, at: spot)
    }

    /// The string number (`string(numbered:)`) of the `addr:housenumber` of spot `spot`, nothing
    /// decoded: for a caller that meets the same numbers often and reads each once.
    public func houseNumberNumber(at spot: Int) throws(IndexError) -> Int? {
        try valueNumber(ofKey: houseNumberKey, at: spot).map(Int.init)
    }

    /// The value of the attribute whose key is string `key` of STRS, read alone; nil when the
    /// spot has none (or no spot has the key).
    private func value(ofKey key: UInt32?, at spot: Int) throws(IndexError) -> String? {
        try valueNumber(ofKey: key, at: spot).map { (value) throws(IndexError) in try attributeString(value) }
    }

    /// The string number of the value of the attribute whose key is string `key` of STRS.
    private func valueNumber(ofKey key: UInt32?, at spot: Int) throws(IndexError) -> UInt32? {
        guard let key else { return nil }
        var pairs = try attributes.pairs(of: spot, in: spots)
        while let (stored, value) = try pairs.next() {
            if stored == key { return value }
        }
        return nil
    }

    /// The numbers of the attribute keys of spot `spot`, in stored order, without decoding any
    /// string: for a caller that counts keys (a report) and names each number once
    /// (`string(numbered:)`).
    public func attributeKeyNumbers(at spot: Int) throws(IndexError) -> [Int] {
        var pairs = try attributes.pairs(of: spot, in: spots)
        var keys: [Int] = []
        while let (key, _) = try pairs.next() { keys.append(Int(key)) }
        return keys
    }

    /// The attribute key or value that `attributeKeyNumbers(at:)` or `addressNumbers(at:)` gives
    /// as `number`.
    public func string(numbered number: Int) throws(IndexError) -> String {
        try attributeString(UInt32(clamping: number))
    }

    // MARK: Checks

    /// Gives back the memory a pass over the whole file made resident (`verifyChecksums`, an
    /// inspection): the pages are read again from the page cache when a later read touches them,
    /// so a long-running reader holds only what its requests use.
    public func releaseResidentPages() {
        mapped.releaseResidentPages()
    }

    /// Each section with whether its bytes match its CRC-32. Sections are read a mebibyte at a
    /// time and each piece's pages are given back once it is read (`releaseResidentPages`), so
    /// that verifying a file of any size holds about a mebibyte of it at once: a server verifying
    /// a newly published index beside the one it serves grows by no more.
    public func verifyChecksums() -> [(section: IndexSection, isValid: Bool)] {
        zip(header.sections, header.contents).map { section, bytes in
            let crc = bytes.crc32(pieceBytes: 1 << 20) { piece in
                mapped.releaseResidentPages(offset: Int(section.offset) + piece.lowerBound, length: piece.count)
            }
            return (section, crc == section.checksum)
        }
    }

    /// Throws for the first section whose bytes do not match its CRC-32: for commands that
    /// read a whole index (export, report) and must not pass on damaged bytes.
    public func requireValidChecksums() throws(IndexError) {
        if let bad = verifyChecksums().first(where: { !$0.isValid }) {
            throw IndexError(.corrupt, file: file, section: bad.section.name, "checksum mismatch")
        }
    }

    /// String `index` of STRS, which ATTR names.
    private func attributeString(_ index: UInt32) throws(IndexError) -> String {
        guard Int(index) < strings.count else {
            throw corrupt("STRS", "string \(index), used in ATTR, is out of bounds")
        }
        return try strings.string(Int(index))
    }

    func corrupt(_ section: String, _ message: String) -> IndexError {
        IndexError(.corrupt, file: file, section: section, message)
    }
}

/// What a search result shows of a spot beside its record's fields (reference, point, category):
/// its `name` and the parts of its address line, as `SpotIndexReader.label(at:)` reads them.
public struct SpotLabel: Sendable, Equatable {
    /// The OSM `name`, or nil.
    public var name: String?
    /// The name it shows (`DisplayName`), or nil.
    public var displayName: DisplayName?
    /// The parts of the address that its line is made of.
    public var addressParts = AddressParts()
    /// The address on one line (`AddressLine`), or nil.
    public var addressLine: String? { AddressLine.line(of: addressParts) }
}
