import Testing

@testable import OSMInput

// Plain nodes are read without expat in pieces parsed apart. Whatever a node looks like, the
// reader must hand over what expat alone gives (the reference of `expectSameOutcome`), and
// must take the plain form only where it is sure.

@Suite("Plain nodes read without expat")
struct PlainNodeTests {
    /// What `PlainNode.read` makes of `text` as a whole piece.
    func plain(_ text: String) -> PlainNode? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer {
            PlainNode.read($0.baseAddress!, from: 0, count: $0.count, maxBytes: 1000)
        }
    }

    @Test("the plain form: known attributes, any order and quote, kept bytes")
    func plainForms() throws {
        let node = try #require(
            plain(#"<node id="42" version="3" timestamp="2021-04-21T20:21:46Z" lat="1.5" lon="-2.25"/>"#))
        #expect(node.id == 42 && node.version == 3 && !node.isDeleted)
        #expect(node.latitude?.count == 3 && node.longitude?.count == 5 && node.timestamp?.count == 20)
        for text in [
            #"<node lon='0' lat='0' id='7'/>"#,
            #"<node  id="7"   lat="0" lon="0"  />"#,
            #"<node id="7" user="Zürich € 🗺 >" lat="0" lon="0"/>"#,
            #"<node id="7" user='say "hi" />' changeset="1" uid="2" lat="0" lon="0"/>"#,
            #"<node id="-7" version="x" lat="" lon="abc"/>"#,
        ] {
            #expect(plain(text) != nil, "\(text)")
        }
        #expect(plain(#"<node id="7" user="Zürich"/>"#)?.characters == 28)
        #expect(plain(#"<node id="7" visible="false"/>"#)?.isDeleted == true)
        #expect(plain(#"<node id="7" action="delete"/>"#)?.isDeleted == true)
        #expect(plain(#"<node id="7" action="modify" visible="true"/>"#)?.isDeleted == false)
    }

    @Test("anything expat would change, refuse or read otherwise is left to expat")
    func notPlain() {
        for text in [
            #"<node id="7" lat="0" lon="0">"#,  // children follow
            #"<node id="7" lat="0" lon="0"></node>"#,
            "<node id=\"7\"\tlat=\"0\"/>",  // a tab between attributes
            "<node id=\"7\"\nlat=\"0\"/>",
            #"<node id = "7"/>"#,
            #"<node id="7"lat="0"/>"#,
            #"<node id="7" id="8"/>"#,
            #"<node id="7" name="x"/>"#,
            #"<node id="7" idx="1"/>"#,
            #"<node lat="0" lon="0"/>"#,
            #"<node id="x"/>"#,
            #"<node id="99999999999999999999"/>"#,
            #"<node id="7" user="a&amp;b"/>"#,
            #"<node id="7" user="a<b"/>"#,
            "<node id=\"7\" user=\"a\tb\"/>",
            "<node id=\"7\" user=\"a\u{1}b\"/>",
            "<node id=\"7\" user=\"a\u{7F}b\"/>",
            "<node id=\"7\" user=\"\u{FFFE}\"/>",
            #"<node id="7" user="open/>"#,
            #"<nodes id="7"/>"#,
            #"<node id="7" / >"#,
        ] {
            #expect(plain(text) == nil, "\(text)")
        }
        for bytes: [UInt8] in [
            [0xC3, 0x28], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        ] {
            let text = Array(#"<node id="7" user=""#.utf8) + bytes + Array(#""/>"#.utf8)
            let read = text.withUnsafeBufferPointer {
                PlainNode.read($0.baseAddress!, from: 0, count: $0.count, maxBytes: 1000)
            }
            #expect(read == nil, "\(bytes)")
        }
        // Larger than the element limit.
        let bytes = Array(#"<node id="7" lat="0" lon="0"/>"#.utf8)
        #expect(
            bytes.withUnsafeBufferPointer { PlainNode.read($0.baseAddress!, from: 0, count: $0.count, maxBytes: 20) }
                == nil)
    }

    @Test("nodes in and out of the plain form, between other elements, read as expat reads them")
    func mixedDocument() throws {
        let variants = [
            #"<node id="1001" user="Zürich €" lat="1.5" lon="2.5" version="4"/>"#,
            #"<node id="1002" lat='1' lon='2' user='a "b" c'/>"#,
            #"<node id="1003" lat="1" lon="2" user="a&amp;b"/>"#,
            "<node id=\"1004\"\tlat=\"1\" lon=\"2\"/>",
            "<node id=\"1005\"\n     lat=\"1\" lon=\"2\"/>",
            #"<node id="1006" lat="1" lon="2" visible="false"/>"#,
            #"<node id="1007" lat="1" lon="2" action="delete"/>"#,
            #"<node id="1008" lat="1" lon="2" timestamp="2030-01-01T00:00:00Z"/>"#,
            #"<node id="1009" lat="1" lon="2" foo="bar"/>"#,
            #"<node id="1010" lat="1" lon="2"></node>"#,
            #"<node id="1011" lat = "1" lon="2"/>"#,
            #"<node id="+1012" version="v" lat="1e1" lon="2."/>"#,
            #"<node id="1013" lat="1" lon="2"/><node id="1014" lat="3" lon="4"/> text <way id="1015"/>"#,
        ]
        let insertions = Dictionary(uniqueKeysWithValues: variants.enumerated().map { (3 * $0.offset + 2, $0.element) })
        for (indent, lineEnd) in [("  ", "\n"), (nil, "\n"), ("", "\r\n"), ("", "\r")] {
            let text = document(indent: indent, lineEnd: lineEnd, nodes: 60, insertions: insertions)
            for filter in [allTypes, poiNodes, areaElements] {
                let (reference, cut) = try expectSameOutcome(Array(text.utf8), pieceSizes: somePieces, filter: filter)
                #expect(reference.error == nil)
                #expect(reference.summary.newestTimestamp == "2030-01-01T00:00:00Z")
                #expect(reference.summary.deleted == 2 && reference.summary.plainNodes == 0)
                #expect(
                    cut.contains { $0.summary.plainNodes > 10 },
                    "\(indent.debugDescription) \(lineEnd.debugDescription)")
            }
        }
    }

    @Test("errors next to plain nodes: the same message, line and column as expat alone")
    func errorsBesidePlainNodes() throws {
        for insertion in [
            #"<node id="1" lat="0" lon="0"/><node id="2" lat="0" lat="1"/>"#,
            #"<node id="1" lat="0" lon="0"/><node id="2" user="a<b"/>"#,
            #"<node id="1" lat="0" lon="0"/> &bogus; <node id="3" lat="0" lon="0"/>"#,
            #"<node id="1" lat="0" lon="0"/><node id="x" lat="0" lon="0"/>"#,
            #"<node id="1" lat="0" lon="0"/></way>"#,
            "<node id=\"1\" lat=\"0\" lon=\"0\"/><node id=\"2\" user=\"\u{FFFF}\"/>",
        ] {
            for indent in ["  ", nil] {
                let text = document(indent: indent, nodes: 40, insertions: [21: insertion])
                let (reference, _) = try expectSameOutcome(Array(text.utf8), pieceSizes: somePieces)
                #expect(reference.error != nil, "\(insertion)")
            }
        }
    }
}
