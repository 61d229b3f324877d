/// What a build read, kept and skipped; stored in the index's metadata under these names.
public struct BuildStatistics: Equatable, Sendable {
    /// Top-level elements read, over all inputs.
    public var nodes = 0, ways = 0, relations = 0
    /// Elements marked deleted in the input, skipped.
    public var deletedElements = 0
    /// Nodes with an amenity or tourism tag but an impossible coordinate, skipped.
    public var badCoordinates = 0
    /// Meetings of an OSM object already seen (overlapping inputs), folded into one record.
    public var repeatedObjects = 0
    /// Spots written.
    public var spots = 0
    /// Raw input bytes read, and XML bytes after inflating.
    public var inputBytes = 0, xmlBytes = 0

    /// Zero counts.
    public init() {}

    /// The counters by their snake_case names, as the index metadata stores them.
    public var byName: [String: Int] {
        [
            "nodes": nodes, "ways": ways, "relations": relations, "deleted_elements": deletedElements,
            "bad_coordinates": badCoordinates, "repeated_objects": repeatedObjects, "spots": spots,
            "input_bytes": inputBytes, "xml_bytes": xmlBytes,
        ]
    }
}
