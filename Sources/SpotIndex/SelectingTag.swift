import Spots

/// The tag that selected a spot, with the category it maps to: `amenity=fast_food`, `.restaurant`.
/// Spots share these; an index stores each distinct one once (KIND) and calls it a kind, and
/// its position there the spot's kind number.
///
/// `value` is what `Spot.kind` holds ("fast_food"), `key` what `Spot.tagKey` holds.
public struct SelectingTag: Sendable, Equatable {
    /// The key: "amenity", "shop", ….
    public let key: String
    /// The OSM value ("fast_food").
    public let value: String
    /// The category, or nil.
    public let category: Category?
    /// What its spots are (KTYP; points of interest in an index without it).
    public let resultType: ResultType

    /// The kind of address points: objects with a house number and no selecting tag, which
    /// have no category and are of type `address`.
    public static let address = SelectingTag(
        key: "addr:housenumber", value: "*", category: nil, resultType: .address)

    /// A kind.
    public init(key: String, value: String, category: Category?, resultType: ResultType = .pointOfInterest) {
        self.key = key
        self.value = value
        self.category = category
        self.resultType = resultType
    }

    /// The selecting tag as OSM writes it: "amenity=cafe" ("addr:housenumber=*" for address points).
    public var tag: String { key + "=" + value }
}

/// The kinds (KIND; FORMAT.md): 12 bytes per kind, the string numbers of its key, its value
/// and its category's name (`IndexLayout.noString` for none). The table is small (at most
/// 65,535 kinds) and decoded whole on open, every string and category checked.
enum SelectingTags {
    /// The kinds in `bytes`, whose strings are in `strings`, with their result types in `types`
    /// (KTYP; nil: every kind is a point of interest), in kind-number order.
    static func decode(
        _ bytes: SectionBytes, types: SectionBytes?, strings: StringTable
    ) throws(IndexError) -> [SelectingTag] {
        let records = try RecordTable(bytes, recordSize: IndexLayout.kindRecordSize)
        // Kinds share their keys and categories: each string is decoded once.
        var decoded: [UInt32: String] = [:]
        func string(_ field: Int, of kind: Int) throws(IndexError) -> String? {
            let index: UInt32 = records.field(at: field, of: kind)
            guard index != IndexLayout.noString else { return nil }
            guard Int(index) < strings.count else { throw bytes.corrupt("a string index is out of bounds") }
            if let known = decoded[index] { return known }
            let string = try strings.string(Int(index))
            decoded[index] = string
            return string
        }
        let resultTypes = try types.map { (types) throws(IndexError) in
            try Self.resultTypes(types, count: records.count)
        }
        var kinds: [SelectingTag] = []
        for kind in 0..<records.count {
            guard let key = try string(0, of: kind), let value = try string(4, of: kind) else {
                throw bytes.corrupt("a kind has no key or value")
            }
            var category: Category?
            if let name = try string(8, of: kind) {
                guard let known = Category(rawValue: name) else { throw bytes.corrupt("unknown category") }
                category = known
            }
            kinds.append(
                SelectingTag(
                    key: key, value: value, category: category, resultType: resultTypes?[kind] ?? .pointOfInterest))
        }
        return kinds
    }

    /// The result types of KTYP: one byte per kind, `ResultTypeCode`.
    private static func resultTypes(_ bytes: SectionBytes, count: Int) throws(IndexError) -> [ResultType] {
        guard bytes.count == count else { throw bytes.corrupt("holds \(bytes.count) result types for \(count) kinds") }
        var types: [ResultType] = []
        for offset in 0..<count {
            guard let type = ResultTypeCode.type(ofCode: try bytes.load(UInt8.self, at: offset)) else {
                throw bytes.corrupt("an unknown result type")
            }
            types.append(type)
        }
        return types
    }
}

/// How KTYP writes a result type: 0 point of interest, 1 physical feature, 2 address.
package enum ResultTypeCode {
    private static let order: [ResultType] = [.pointOfInterest, .physicalFeature, .address]

    /// The byte of `type`.
    package static func code(of type: ResultType) -> UInt8 { UInt8(order.firstIndex(of: type)!) }

    /// The type of `code`, or nil for an unknown one.
    package static func type(ofCode code: UInt8) -> ResultType? {
        Int(code) < order.count ? order[Int(code)] : nil
    }
}
