/// The three kinds of OpenStreetMap object. Their order (node < way < relation) is the
/// tie-break order everywhere in Spots.
public enum OSMType: UInt8, CaseIterable, Comparable, Sendable {
    case node = 0
    case way = 1
    case relation = 2

    /// The name OSM uses: "node", "way" or "relation".
    public var name: String {
        switch self {
        case .node: "node"
        case .way: "way"
        case .relation: "relation"
        }
    }

    /// The one-letter prefix of a short reference: "n", "w" or "r".
    public var letter: Character {
        switch self {
        case .node: "n"
        case .way: "w"
        case .relation: "r"
        }
    }

    public static func < (lhs: OSMType, rhs: OSMType) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One OpenStreetMap object: its type and id. Ids are exact 64-bit integers and may be
/// negative (objects an editor has not uploaded yet).
public struct OSMRef: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Node, way or relation.
    public let type: OSMType
    /// The object's id within its type.
    public let id: Int64

    /// A reference to object `id` of `type`.
    public init(_ type: OSMType, _ id: Int64) {
        self.type = type
        self.id = id
    }

    /// The short form used in exports: "n123", "w45", "r-6".
    public var description: String { "\(type.letter)\(id)" }

    /// The reference a short form names ("n123" is node 123, "w-5" way -5), or nil when `text`
    /// is not a type letter followed by a 64-bit id. The inverse of `description`.
    public init?(parsing text: some StringProtocol) {
        guard let letter = text.first, let type = OSMType.allCases.first(where: { $0.letter == letter }),
            let id = Int64(text.dropFirst())
        else { return nil }
        self.init(type, id)
    }

    /// Type first, then id.
    public static func < (lhs: OSMRef, rhs: OSMRef) -> Bool {
        (lhs.type, lhs.id) < (rhs.type, rhs.id)
    }
}
