/// The node locations and way node lists of a state: its overlay (what changed since the base)
/// over its base file's tables (`NodeTable`, `WayTable`).
public struct StateGeometry {
    /// The base's tables.
    public let baseNodes: NodeTable, baseWays: WayTable
    /// The overlay's tables.
    public let overlayNodes: NodeTable, overlayWays: WayTable
    /// The base file, mapped while the tables are read.
    public let baseFile: StateFile

    /// The geometry of `state`, whose base file lies in `folder`; throws when the base is
    /// missing or not the one the state names.
    public init(_ state: StateFile, metadata: StateMetadata, folder: String) throws(StateError) {
        let reference = metadata.base!
        baseFile = try StateFile(path: folder + "/" + reference.name)
        guard baseFile.identity == reference.token else {
            throw StateError(
                .mismatched, file: baseFile.path, "is not the base of \(state.path) (written by another build)")
        }
        baseNodes = try NodeTable(baseFile, NodeTable.base)
        baseWays = try WayTable(baseFile, WayTable.base)
        overlayNodes = try NodeTable(state, NodeTable.overlay)
        overlayWays = try WayTable(state, WayTable.overlay)
    }

    /// The coordinates of node `id`, or nil when the state has none.
    public func location(of id: Int64) throws(StateError) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        if let changed = try overlayNodes.location(of: id) {
            return changed.latitudeE7 == NodeTable.deleted ? nil : changed
        }
        return try baseNodes.location(of: id)
    }

    /// The node references of way `id`, or nil when the state has none.
    public func nodes(of id: Int64) throws(StateError) -> [Int64]? {
        if let changed = try overlayWays.nodes(of: id) { return changed }
        return try baseWays.nodes(of: id) ?? nil
    }
}
