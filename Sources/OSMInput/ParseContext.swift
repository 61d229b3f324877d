/// Where the parser stands in the document: its state, named as libosmium's XML parser names
/// its `context` (`root`, `top`, `node`, …, `ignored_node`). The parser changes state on each
/// start and end tag; what a state needs to know rides with it.
///
/// Small and trivially copyable (checked by `BitwiseCopyable`): changing state allocates
/// nothing and copies a few words. The element being copied, which grows with every child,
/// stays in place in `ParseState.open`, as libosmium keeps its builders beside its context.
enum ParseContext: BitwiseCopyable {
    /// Before the root element's start tag: the prolog (XML declaration, comments, a DOCTYPE).
    /// For the size limit the prolog counts as a top-level element (`ElementExtent.prolog`).
    case prolog
    /// Directly inside the root element, between top-level elements (an extract's) or between
    /// action blocks (an osmChange file's).
    case root
    /// Directly inside a `<create>`, `<modify>` or `<delete>` block of an osmChange file, between
    /// its elements, which are read as an extract's top-level elements; `ParseState.action` says
    /// which block.
    case actionBlock
    /// Inside a top-level element of a type the filter wants, being copied into the batch
    /// (`ParseState.open`) and dropped again at its end when the filter keeps it not even bare.
    case element(ElementExtent)
    /// Inside a top-level element that is only counted: a type the filter does not want, or no
    /// element type at all (`<bounds>`, Overpass's `<meta>`, `<changeset>`).
    case ignoredElement(ElementExtent)
    /// After the root element's end: where what expat accepted after it (whitespace, comments,
    /// processing instructions) ends, as the parser counts.
    case epilog(TextPosition)
}

/// Where a top-level element starts, for the size limit and its error, and how deep in it the
/// parser stands.
struct ElementExtent: BitwiseCopyable {
    /// Expat's byte index of the element's start tag.
    let start: Int
    /// The start tag's line and column (from 0) in the input.
    let position: (line: Int, column: Int)
    /// Levels below the element where the parser stands: 0 in the element itself, 1 in one of
    /// its children (`<tag>`, `<nd>`, `<member>`), more inside a child.
    var depth = 0

    /// The prolog's extent: it starts at byte 0, at line 1, column 0.
    static let prolog = ElementExtent(start: 0, position: (line: 1, column: 0))
}

/// A top-level element of a wanted type while it is read (`ParseContext.element`): its record,
/// whose tags, node references and members grow at the end of the batch.
struct OpenElement: BitwiseCopyable {
    /// The element as read so far.
    var record: ElementRecord
    /// Where the element's bytes start in the batch's arena.
    var arenaStart: Int
    /// Whether the element of an extract is marked deleted (`visible="false"` or JOSM's
    /// `action="delete"`): skipped and counted. Never set in an osmChange file, whose deletions
    /// are delivered (`ElementRecord.action`).
    var isDeleted = false
    /// Whether the element has a tag the filter asks for, or the filter asks for none.
    var matchesFilter: Bool

    /// What `ParseState.open` holds before the first element is read.
    static let placeholder = OpenElement(
        record: ElementRecord(
            type: .node, id: 0, version: 0, line: 0, latitudeE7: nil, longitudeE7: nil, firstTag: 0, tagCount: 0),
        arenaStart: 0, matchesFilter: false)
}
