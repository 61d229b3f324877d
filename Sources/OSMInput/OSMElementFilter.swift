/// Which elements the parser hands to the handler. Everything is still parsed and counted;
/// the filter only decides what is copied out, so that the common case (a node with no
/// interesting tag) costs no more than expat's own work.
public struct OSMElementFilter: Sendable {
    /// Element types to deliver.
    public var types: Set<OSMElementType>
    /// Deliver only elements with a tag whose key is one of these; empty delivers all.
    public var tagKeys: [String]
    /// Types (among `types`) whose elements without any of `tagKeys` are delivered too, bare:
    /// with their location, node references or members but no tags. Area geometry needs every
    /// node's location and every way's nodes, tagged or not.
    public var bareTypes: Set<OSMElementType>

    /// A filter for `types` carrying any of `tagKeys` (all elements of those types when empty),
    /// and the rest of `bareTypes` without their tags.
    public init(types: Set<OSMElementType>, tagKeys: [String] = [], bareTypes: Set<OSMElementType> = []) {
        self.types = types
        self.tagKeys = tagKeys
        self.bareTypes = bareTypes.intersection(types)
    }
}
