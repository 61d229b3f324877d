/// An osmChange file's structure (`OSMReadForm.changes`): its `<osmChange>` root, whose children
/// are `<create>`, `<modify>` and `<delete>` blocks (and an optional `<bounds>`, ignored), each
/// holding elements read as an extract's top-level elements are, with the block's action.
/// What is read inside a block is ParseState+Elements.swift's, as for an extract.
extension ParseState {
    /// The root element's start tag in an osmChange file: `<osmChange>`, or a refusal.
    mutating func startChangeRoot(_ name: UnsafePointer<CChar>, _ attributes: ExpatAttributes) {
        guard equal(name, "osmChange") else {
            halt(
                equal(name, "osm")
                    ? "this is OSM data (an extract), not an osmChange file"
                    : "expected <osmChange> as the root element, found <\(String(cString: name))>")
            return
        }
        context = .root
        noteTimestamp(attributes, key: "timestamp")
    }

    /// A start tag directly inside `<osmChange>`: an action block, `<bounds>` (ignored as an
    /// unknown top-level element is), or a refusal naming what was found.
    mutating func startChangeChild(_ name: UnsafePointer<CChar>, _ attributes: ExpatAttributes) {
        if let action = OSMChangeAction.allCases.first(where: { equal(name, $0.xmlName) }) {
            self.action = action
            context = .actionBlock
        } else if equal(name, "bounds") {
            startTopLevel(name, attributes)
        } else if let type = Self.elementType(name) {
            halt(
                "<\(type.xmlName)> directly inside <osmChange>; its elements belong in <create>, <modify> or <delete>"
            )
        } else {
            halt("an osmChange action must be <create>, <modify> or <delete>, found <\(String(cString: name))>")
        }
    }
}
