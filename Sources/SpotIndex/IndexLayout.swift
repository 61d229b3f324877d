/// The fixed numbers of the file format; FORMAT.md beside this file explains each.
enum IndexLayout {
    /// PNG-style magic: a high byte, the name, CR LF and ^Z catch text-mode transfers.
    static let magic: [UInt8] = [0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A]
    static let version: UInt32 = 5
    static let headerSize = 32
    static let sectionEntrySize = 32
    static let maxSections = 64
    static let alignment = 8
    /// Stands for "none" where a string index is optional.
    static let noString = UInt32.max

    static let spotRecordSize = 20
    static let kindRecordSize = 12
    static let refRecordSize = 16
    static let orderEntrySize = 4
    static let boxSize = 16
    /// Children per node of the packed R-tree.
    static let nodeSize = 16
    /// Strings per block of STRS: a spot's strings are looked up one by one, and each lookup
    /// decodes half a block on average.
    static let poolBlockSize = 8
    /// Tokens per block of TOKN: prefix searches scan runs of tokens, so blocks can be longer.
    static let tokenBlockSize = 16
    /// Token lists per block of POST.
    static let postingBlockSize = 16

    /// Section tags, four ASCII bytes read as a little-endian UInt32.
    enum Tag {
        static let metadata = tag("META")
        static let strings = tag("STRS")
        static let kinds = tag("KIND")
        static let spots = tag("SPOT")
        static let attributes = tag("ATTR")
        static let refs = tag("REFS")
        static let merged = tag("MERG")
        static let mergedOrder = tag("MRGO")
        static let kindLists = tag("KLST")
        static let tree = tag("TREE")
        static let tokens = tag("TOKN")
        static let postings = tag("POST")
        /// The search words, when they are not the built-in ones: optional (FORMAT.md).
        static let words = tag("WORD")
        static let qualities = tag("QUAL")
        static let required = [
            metadata, strings, kinds, spots, attributes, refs, merged, mergedOrder, kindLists, tree, tokens, postings,
            qualities,
        ]
        /// The spots of each search word line beyond their kinds: optional (FORMAT.md).
        static let wordLists = tag("WLST")
        static let clusters = tag("CLUS")
        static let clusterTrees = tag("CTRE")
        static let clusterDetails = tag("CDET")
        static let clusterMembers = tag("CMEM")
        static let spotVisibility = tag("SVIS")
        /// The cluster levels: optional, but all or none.
        static let clusterLevels = [clusters, clusterTrees, clusterDetails, clusterMembers, spotVisibility]
    }

    static func tag(_ name: StaticString) -> UInt32 {
        var value: UInt32 = 0
        for i in (0..<4).reversed() { value = value << 8 | UInt32(name.utf8Start[i]) }
        return value
    }

    static func name(ofTag tag: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        return bytes.allSatisfy { (0x20..<0x7F).contains($0) }
            ? String(decoding: bytes, as: UTF8.self) : "0x" + String(tag, radix: 16)
    }
}
