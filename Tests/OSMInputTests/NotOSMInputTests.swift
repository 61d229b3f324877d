import Foundation
import InputStreams
import SpotTestSupport
import Testing

@testable import OSMInput

@Suite("Inputs that hold no OSM data")
struct NotOSMInputTests {
    static let supported = "give OSM XML (plain, gzip or bzip2) or OSM PBF"

    @Test(
        "an index, an archive, an image, a database or JSON given as input says what it is",
        arguments: [
            ([0x89, 0x53, 0x50, 0x4F, 0x54, 0x0D, 0x0A, 0x1A, 1, 0], "a spots index"),
            (Array("PK\u{3}\u{4}\u{14}\u{0}".utf8), "a zip archive"),
            (Array("PK\u{5}\u{6}\u{0}\u{0}".utf8), "a zip archive"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "a PNG image"),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "a JPEG image"),
            (Array("SQLite format 3\u{0}\u{10}\u{0}".utf8), "an SQLite database (a GeoPackage, perhaps)"),
            (Array(#"{"type":"FeatureCollection","features":[]}"#.utf8), "JSON text (GeoJSON, perhaps)"),
            (Array(" \n\t[1, 2]".utf8), "JSON text (GeoJSON, perhaps)"),
            ([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8), "JSON text (GeoJSON, perhaps)"),
        ] as [([UInt8], String)])
    func namesTheFormat(_ bytes: [UInt8], _ name: String) throws {
        #expect(InputFormat(head: Array(bytes.prefix(InputFormat.headLength))) == .notOSM(name))
        try withTemporaryFile(bytes, named: "input") { path in
            var collector = Collector()
            #expect {
                _ = try OSMReader(file: path, filter: OSMElementFilter(types: [.node])).read(into: &collector)
            } throws: {
                let error = $0 as! OSMInputError
                return error.kind == .malformed && error.location == nil
                    && error.message == "this is \(name), not OSM data; \(Self.supported)"
            }
        }
    }

    @Test("an osmChange file is named as one, where its root element starts")
    func osmChange() throws {
        let text = "<?xml version=\"1.0\"?>\n<osmChange version=\"0.6\"><create/></osmChange>\n"
        try withTemporaryFile(Array(text.utf8), named: "changes.osc") { path in
            var collector = Collector()
            #expect {
                _ = try OSMReader(file: path, filter: OSMElementFilter(types: [.node])).read(into: &collector)
            } throws: {
                let error = $0 as! OSMInputError
                return error.kind == .malformed && error.location == .line(2, column: 1)
                    && error.message == "this is an osmChange file (edits to apply), not OSM data; \(Self.supported)"
            }
        }
    }

    @Test("OSM XML still reads: a document, with white space or a byte order mark before it")
    func xmlIsStillXML() {
        for text in ["<?xml version=\"1.0\"?><osm/>", "  \n<osm version=\"0.6\"/>", "\u{FEFF}<osm/>"] {
            #expect(InputFormat(head: Array(Array(text.utf8).prefix(InputFormat.headLength))) == .xml(.none))
        }
    }
}
