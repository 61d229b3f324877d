/// The fixed numbers of the file format; FORMAT.md beside this file explains each.
package enum IndexLayout {
    /// PNG-style magic: a high byte, the name, CR LF and ^Z catch text-mode transfers.
    package static let magic: [UInt8] = [0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A]
    package static let version: UInt32 = 6
    package static let headerSize = 32
    package static let sectionEntrySize = 32
    package static let maxSections = 64
    package static let alignment = 8
    /// Stands for "none" where a string index is optional.
    package static let noString = UInt32.max

    package static let spotRecordSize = SpotRecordField.recordSize
    package static let kindRecordSize = 12
    package static let refRecordSize = 16
    package static let boxSize = 16
    /// Children per node of the packed R-tree.
    package static let nodeSize = 16
    /// Strings per block of STRS: a spot's strings are looked up one by one, and each lookup
    /// decodes half a block on average.
    package static let poolBlockSize = 8
    /// Tokens per block of TOKN: prefix searches scan runs of tokens, so blocks can be longer.
    package static let tokenBlockSize = 16
    /// Token lists per block of POST.
    package static let postingBlockSize = 16
    /// The longest text one byte-pair code may stand for (`StringTable`); a reader refuses longer.
    package static let maxCodeExpansion = 64

    /// Bytes per entry of an order table (REFS, MRGO) of `count` entries, each a number below
    /// `count`: the fewest that hold `count` − 1, from 1 to 4 (as flatbush stores its indices
    /// in 16 bits when they fit).
    package static func orderEntrySize(count: Int) -> Int {
        count <= 1 << 8 ? 1 : count <= 1 << 16 ? 2 : count <= 1 << 24 ? 3 : 4
    }

    /// Section tags, four ASCII bytes read as a little-endian UInt32.
    package enum Tag {
        package static let metadata = tag("META")
        package static let strings = tag("STRS")
        package static let kinds = tag("KIND")
        package static let spots = tag("SPOT")
        package static let attributes = tag("ATTR")
        package static let refs = tag("REFS")
        package static let merged = tag("MERG")
        package static let mergedOrder = tag("MRGO")
        package static let kindLists = tag("KLST")
        package static let tree = tag("TREE")
        package static let tokens = tag("TOKN")
        package static let postings = tag("POST")
        /// The search words, when they are not the built-in ones: optional (FORMAT.md).
        package static let words = tag("WORD")
        package static let qualities = tag("QUAL")
        package static let required = [
            metadata, strings, kinds, spots, attributes, refs, merged, mergedOrder, kindLists, tree, tokens, postings,
            qualities,
        ]
        /// The spots of each search word line beyond their kinds: optional (FORMAT.md).
        package static let wordLists = tag("WLST")
        /// The kinds' result types: optional, absent when every kind is a point of interest.
        package static let resultTypes = tag("KTYP")
        /// The house numbers that do not start with a digit: optional, absent in a file written
        /// before it joined.
        package static let letterHouseNumbers = tag("HNUM")
        package static let clusters = tag("CLUS")
        package static let clusterTrees = tag("CTRE")
        package static let clusterDetails = tag("CDET")
        package static let clusterMembers = tag("CMEM")
        package static let spotVisibility = tag("SVIS")
        /// The cluster levels: optional, but all or none.
        package static let clusterLevels = [clusters, clusterTrees, clusterDetails, clusterMembers, spotVisibility]
    }

    package static func tag(_ name: StaticString) -> UInt32 {
        var value: UInt32 = 0
        for i in (0..<4).reversed() { value = value << 8 | UInt32(name.utf8Start[i]) }
        return value
    }

    package static func name(ofTag tag: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        return bytes.allSatisfy { (0x20..<0x7F).contains($0) }
            ? String(decoding: bytes, as: UTF8.self) : "0x" + String(tag, radix: 16)
    }
}

/// The fields of a spot record (SPOT; FORMAT.md), named once for the writer and the reader:
/// each case's raw value is its offset in the 20-byte record, little-endian.
package enum SpotRecordField: Int, CaseIterable {
    /// The latitude, degrees × 10^7 (Int32).
    case latitude = 0
    /// The longitude, degrees × 10^7 (Int32).
    case longitude = 4
    /// Where the spot's attributes start in ATTR (UInt32).
    case attributeOffset = 8
    /// The kind number, a record of KIND (UInt16).
    case kind = 12
    /// The low 16 bits of the packed OSM reference: the id shifted left by 2, the type in the
    /// low 2 bits, 48 bits in all (UInt16).
    case referenceLow = 14
    /// The high 32 bits of the packed OSM reference (UInt32).
    case referenceHigh = 16

    /// The size of a record.
    package static let recordSize = 20
}
