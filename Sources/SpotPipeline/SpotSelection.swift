import OSMInput
import SpotIndex
import Spots

/// Which OSM objects become spots: those with a tag of one of `keys` (the pipeline's `select`,
/// `amenity` and `tourism` by default), the first key present selecting; and with `addresses`,
/// also those with a house number and none of the keys, as address points
/// (`SelectingTag.address`).
public struct SpotSelection: Sendable, Equatable {
    /// The selecting keys, in order of precedence.
    public let keys: [String]
    /// Whether objects with `addr:housenumber` and no selecting tag are address points.
    public let addresses: Bool
    /// The keys as bytes, to compare an element's tag keys with.
    private let keyBytes: [[UInt8]]

    /// The selection of `keys`, in order of precedence, and of address points when `addresses`.
    public init(keys: [String], addresses: Bool) {
        self.keys = keys
        self.addresses = addresses
        keyBytes = keys.map { Array($0.utf8) }
    }

    /// The default: `amenity`, then `tourism`; no address points.
    public static let standard = SpotSelection(keys: ["amenity", "tourism"], addresses: false)

    /// The tag keys an object needs one of to be read as a candidate.
    var readKeys: [String] { keys + (addresses ? [SelectingTag.address.key] : []) }

    /// Whether the element is selected: it has a selecting key or, with `addresses`, a house number.
    func selects(_ element: some OSMTagged) -> Bool {
        selectingPosition(of: element) != nil
    }

    /// The position in `keys` of a tag key that selects, or nil.
    func position(ofKey key: OSMBytes) -> Int? {
        keyBytes.firstIndex { $0.elementsEqual(key.buffer) }
    }

    /// The tag that selects a selected element: its first selecting key's (with the key's
    /// position in `keys`), else the address point kind's (position `keys.count`).
    func selectingTag(of element: some OSMTagged) -> (key: String, value: String, position: Int) {
        let (position, tag) = selectingPosition(of: element)!
        guard position < keys.count else { return (SelectingTag.address.key, SelectingTag.address.value, position) }
        return (keys[position], element.tag(at: tag).value.string, position)
    }

    /// The position in `keys` of the element's first selecting key (`keys.count` for an
    /// address point) and the number of its tag, read in one pass over the tags; nil when the
    /// element is not selected.
    private func selectingPosition(of element: some OSMTagged) -> (position: Int, tag: Int)? {
        var best: (position: Int, tag: Int)?
        for index in 0..<element.tagCount {
            let key = element.tag(at: index).key
            if let position = position(ofKey: key) {
                if position < best?.position ?? Int.max { best = (position, index) }
            } else if addresses, best == nil, key.equals("addr:housenumber") {
                best = (keys.count, index)
            }
        }
        return best
    }
}
