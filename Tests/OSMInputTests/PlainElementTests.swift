import Testing

@testable import OSMInput

// Plain elements are read without expat in pieces parsed apart. Whatever an element looks like,
// the reader must hand over what expat alone gives (the reference of `expectSameOutcome`), and
// must take the plain form only where it is sure.

@Suite("Plain elements read without expat")
struct PlainElementTests {
    /// Copies of the texts read, kept while the test runs: the values read point into them.
    final class Texts {
        private var buffers: [UnsafeMutableRawBufferPointer] = []

        deinit {
            for buffer in buffers { buffer.deallocate() }
        }

        /// A copy of `bytes` that lives as long as this.
        func keep(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            buffer.copyBytes(from: bytes)
            buffers.append(buffer)
            return UnsafeRawBufferPointer(buffer)
        }
    }

    let texts = Texts()

    /// What `PlainElement.read` makes of `text` as a whole piece, with its children.
    func read(_ bytes: [UInt8], limits: OSMReadLimits = testLimits) -> (PlainElement, PlainChildren)? {
        var children = PlainChildren()
        let element = PlainElement.read(XMLBytes(texts.keep(bytes)), from: 0, limits: limits, children: &children)
        return element.map { ($0, children) }
    }

    func plain(_ text: String, limits: OSMReadLimits = testLimits) -> PlainElement? {
        read(Array(text.utf8), limits: limits)?.0
    }

    static let testLimits = OSMReadLimits(maxElementBytes: 1000, maxTags: 3, maxValueBytes: 10)

    @Test("the plain form: known attributes, any order and quote, kept bytes")
    func plainForms() throws {
        let node = try #require(
            plain(#"<node id="42" version="3" timestamp="2021-04-21T20:21:46Z" lat="1.5" lon="-2.25"/>"#))
        #expect(node.attributes.id == 42 && node.attributes.version == 3 && !node.attributes.isDeleted)
        #expect(node.attributes.latitudeE7 == 15_000_000 && node.attributes.longitudeE7 == -22_500_000)
        #expect(node.attributes.timestamp?.string == "2021-04-21T20:21:46Z")
        for text in [
            #"<node lon='0' lat='0' id='7'/>"#,
            #"<node  id="7"   lat="0" lon="0"  />"#,
            #"<node id="7" user="Zürich € 🗺 >" lat="0" lon="0"/>"#,
            #"<node id="7" user='say "hi" />' changeset="1" uid="2" lat="0" lon="0"/>"#,
            #"<node id="-7" version="x" lat="" lon="abc"/>"#,
        ] {
            #expect(plain(text) != nil, "\(text)")
        }
        #expect(plain(#"<node id="7" user="Zürich"/>"#)?.lastLineCharacters == 28)
        #expect(plain(#"<node id="7" visible="false"/>"#)?.attributes.isDeleted == true)
        #expect(plain(#"<node id="7" action="delete"/>"#)?.attributes.isDeleted == true)
        #expect(plain(#"<node id="7" action="modify" visible="true"/>"#)?.attributes.isDeleted == false)
    }

    @Test("children: tags, node references and members, with their lines and columns")
    func plainChildren() throws {
        let way =
            "<way id=\"5\" version=\"2\">\n  <nd ref=\"1\"/>\n\t<nd ref='-2' />\n"
            + "  <tag k=\"name\" v=\"Töölö\"/> <tag v=\"x\" k=\"a\"/>\n</way>"
        let (element, children) = try #require(read(Array(way.utf8)))
        #expect(element.type == .way && element.attributes.id == 5 && element.attributes.version == 2)
        #expect(children.refs == [1, -2] && children.tags.count == 2 && children.members.isEmpty)
        #expect(element.end == way.utf8.count && element.lineFeeds == 4 && element.lastLineCharacters == 6)
        #expect(children.tags.map(\.key.string) == ["name", "a"])
        #expect(children.tags.map(\.value.string) == ["Töölö", "x"])

        let relation =
            #"<relation id="9"><member type="way" ref="3" role="outer"/>"#
            + #"<member ref="x" type="area"/><member role="" type="node" ref="4"/><tag k="type" v="route"/></relation>"#
        let (member, members) = try #require(read(Array(relation.utf8)))
        #expect(member.type == .relation && member.lineFeeds == 0 && member.lastLineCharacters == relation.count)
        #expect(members.members.map(\.type) == [.way, nil, .node] && members.members.map(\.ref) == [3, nil, 4])
        #expect(members.members.map { $0.role?.buffer.count } == [5, nil, 0] && members.tags.count == 1)

        let node = #"<node id="1" lat="1" lon="2"><tag k="amenity" v="cafe"/></node>"#
        #expect(try #require(read(Array(node.utf8))).1.tags.count == 1)
        #expect(plain(#"<node id="1" lat="1" lon="2"></node>"#) != nil)
        #expect(plain(#"<way id="1" >  </way>"#) != nil)
        // Within the limits of the reader: three tags, ten bytes.
        #expect(plain(#"<way id="1"><tag k="a" v="1"/><tag k="b" v="2"/><tag k="c" v="0123456789"/></way>"#) != nil)
    }

    @Test("anything expat would change, refuse or read otherwise is left to expat")
    func notPlain() {
        for text in [
            #"<node id="7" lat="0" lon="0">"#,  // no end tag
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
            #"<way id="7"><nd ref="1"/>"#,  // no end tag
            #"<way id="7"><nd ref="1"/></wayx>"#,
            #"<way id="7"><nd ref="1"/></way >"#,
            #"<way id="7"><nd ref="1"/></node>"#,
            #"<way id="7"><nd ref="x"/></way>"#,
            #"<way id="7"><nd/></way>"#,
            #"<way id="7"><nd ref="1" ref="2"/></way>"#,
            #"<way id="7"><nd ref="1" foo="2"/></way>"#,
            #"<way id="7"><nd ref="1"></nd></way>"#,
            #"<way id="7"><member type="node" ref="1"/></way>"#,
            #"<relation id="7"><nd ref="1"/></relation>"#,
            #"<relation id="7"><member type="node" type="way"/></relation>"#,
            #"<node id="7"><nd ref="1"/></node>"#,
            #"<node id="7"><tag k="a"/></node>"#,
            #"<node id="7"><tag k="a" v="b" k="c"/></node>"#,
            #"<node id="7"><tag k="a" v="b&amp;c"/></node>"#,
            #"<node id="7"><tags k="a" v="b"/></node>"#,
            #"<node id="7">text<tag k="a" v="b"/></node>"#,
            #"<node id="7"><!-- a comment --></node>"#,
            "<node id=\"7\">\r\n<tag k=\"a\" v=\"b\"/></node>",
            #"<node id="7"><tag k="a" v="01234567890"/></node>"#,  // a value over the limit
            #"<node id="7"><tag k="a" v="1"/><tag k="b" v="2"/><tag k="c" v="3"/><tag k="d" v="4"/></node>"#,
        ] {
            #expect(plain(text) == nil, "\(text)")
        }
        for bytes: [UInt8] in [
            [0xC3, 0x28], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        ] {
            let text = Array(#"<node id="7" user=""#.utf8) + bytes + Array(#""/>"#.utf8)
            #expect(read(text) == nil, "\(bytes)")
        }
        // Larger than the element limit.
        let small = OSMReadLimits(maxElementBytes: 20, maxTags: 3, maxValueBytes: 10)
        #expect(plain(#"<node id="7" lat="0" lon="0"/>"#, limits: small) == nil)
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
            "<way id=\"1016\" timestamp=\"2030-01-01T00:00:00Z\">\n <nd ref=\"1\"/>\n <tag k=\"amenity\" v=\"cafe\"/>\n</way>",
            "<way id=\"1017\">\n <nd ref=\"1\"/>\r\n <tag k=\"amenity\" v=\"cafe\"/>\n</way>",
            #"<way id="1018" visible="false"><nd ref="1"/><tag k="amenity" v="x &amp; y"/></way>"#,
            #"<relation id="1019"><member type="node" ref="1"/><member type="x" ref="y" role="ü"/></relation>"#,
            #"<node id="1020" lat="1" lon="2"><tag k="tourism" v="hotel"/><tag k="name" v="Zürich €"/></node>"#,
            #"<node id="1021" lat="1" lon="2"><tag k="shop" v="bakery"></tag></node>"#,
        ]
        let insertions = Dictionary(uniqueKeysWithValues: variants.enumerated().map { (3 * $0.offset + 2, $0.element) })
        for (indent, lineEnd) in [("  ", "\n"), (nil, "\n"), ("", "\r\n"), ("", "\r")] {
            let text = document(indent: indent, lineEnd: lineEnd, nodes: 60, insertions: insertions)
            for filter in [allTypes, poiNodes, areaElements] {
                let (reference, cut) = try expectSameOutcome(Array(text.utf8), pieceSizes: somePieces, filter: filter)
                #expect(reference.error == nil)
                #expect(reference.summary.newestTimestamp == "2030-01-01T00:00:00Z")
                #expect(reference.summary.deleted == (filter.types.contains(.way) ? 3 : 2))
                #expect(reference.summary.plainElements == 0)
                #expect(
                    cut.contains { $0.summary.plainElements > 10 },
                    "\(indent.debugDescription) \(lineEnd.debugDescription)")
            }
        }
    }

    @Test("errors next to plain elements: the same message, line and column as expat alone")
    func errorsBesidePlainElements() throws {
        for insertion in [
            #"<node id="1" lat="0" lon="0"/><node id="2" lat="0" lat="1"/>"#,
            #"<node id="1" lat="0" lon="0"/><node id="2" user="a<b"/>"#,
            #"<node id="1" lat="0" lon="0"/> &bogus; <node id="3" lat="0" lon="0"/>"#,
            #"<node id="1" lat="0" lon="0"/><node id="x" lat="0" lon="0"/>"#,
            #"<node id="1" lat="0" lon="0"/></way>"#,
            "<node id=\"1\" lat=\"0\" lon=\"0\"/><node id=\"2\" user=\"\u{FFFF}\"/>",
            #"<way id="1"><nd ref="1"/></way><way id="2"><nd ref="x"/></way>"#,
            "<way id=\"1\">\n<nd ref=\"1\"/>\n</way><way id=\"2\">\n<tag k=\"a\" v=\"b\"/>\n</way>\n</node>",
            #"<node id="1"><tag k="a" v="b"/></node><node id="2"><tag k="a" v="<"/></node>"#,
            #"<relation id="1"><member type="node" ref="1"/></relation><relation><tag k="a" v="b"/></relation>"#,
        ] {
            for indent in ["  ", nil] {
                let text = document(indent: indent, nodes: 40, insertions: [21: insertion])
                let (reference, _) = try expectSameOutcome(Array(text.utf8), pieceSizes: somePieces)
                #expect(reference.error != nil, "\(insertion)")
            }
        }
    }
}
