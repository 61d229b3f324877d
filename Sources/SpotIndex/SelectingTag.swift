import Spots

/// The tag that selected a spot, with the category it maps to: `amenity=fast_food`, `.restaurant`.
/// Spots share these; an index stores each distinct one once (KIND) and calls it a kind, and
/// its position there the spot's kind number.
///
/// `value` is what `Spot.kind` holds ("fast_food"), `key` what `Spot.tagKey` holds.
public struct SelectingTag: Sendable, Equatable {
    /// The key: "amenity" or "tourism".
    public let key: String
    /// The OSM value ("fast_food").
    public let value: String
    /// The category, or nil.
    public let category: Category?
}

/// The kinds (KIND; FORMAT.md): 12 bytes per kind, the string numbers of its key, its value
/// and its category's name (`IndexLayout.noString` for none). The table is small (at most
/// 65,535 kinds) and decoded whole on open, every string and category checked.
enum SelectingTags {
    /// The kinds in `bytes`, whose strings are in `strings`, in kind-number order.
    static func decode(_ bytes: SectionBytes, strings: StringTable) throws(IndexError) -> [SelectingTag] {
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
            kinds.append(SelectingTag(key: key, value: value, category: category))
        }
        return kinds
    }
}
