/// What an `OSMReader` reads: an ordinary extract of OSM data, or an osmChange file of edits.
public enum OSMReadForm: Sendable {
    /// OSM data (`<osm>` root; XML or PBF): the objects as they are, deleted ones skipped and
    /// counted (`OSMReadSummary.deleted`); every element's `action` is nil.
    case extract
    /// An osmChange file (`<osmChange>` root, XML only, as OpenStreetMap replication and
    /// `osmium derive-changes` write it): its elements inside `<create>`, `<modify>` and
    /// `<delete>` blocks, each with its block's action (`OSMElement.action`), deletions delivered.
    case changes
}

/// What an osmChange file does to one object: the block (`<create>`, `<modify>`, `<delete>`)
/// that holds it. An element marked `visible="false"` in any block is a deletion.
public enum OSMChangeAction: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    /// A new object (`<create>`).
    case create
    /// A new version of an object (`<modify>`).
    case modify
    /// An object removed (`<delete>`): often without tags nor coordinates.
    case delete

    /// The name of its XML block element.
    var xmlName: StaticString {
        switch self {
        case .create: "create"
        case .modify: "modify"
        case .delete: "delete"
        }
    }
}
