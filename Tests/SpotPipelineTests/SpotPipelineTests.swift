import Foundation
import SpotIndex
import SpotPipeline
import SpotTestSupport
import Spots
import Testing

@Suite("SpotBuild")
struct SpotBuildTests {
    /// Builds `documents` (written to files in order) with the default pipeline (changed by
    /// `configure`) and opens the result.
    func build(_ documents: [String], sourceDateEpoch: Int? = nil, configure: (inout Pipeline) -> Void = { _ in })
        throws -> (SpotIndexReader, BuildStatistics)
    {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try documents.enumerated().map { number, document in
            try folder.write(document, to: "\(number).osm")
        }
        var pipeline = try Pipeline.defaults()
        pipeline.inputs = inputs
        configure(&pipeline)
        let (bytes, statistics) = try SpotBuild(pipeline: pipeline, sourceDateEpoch: sourceDateEpoch).run()
        return (try SpotIndexReader(path: try folder.write(bytes, to: "out.spots")), statistics)
    }

    @Test("amenity wins over tourism; the tag's value is the kind; attributes are kept")
    func selectsSpots() throws {
        let (index, statistics) = try build([
            """
            <osm><node id="7" lat="60.1" lon="24.9"><tag k="tourism" v="hotel"/><tag k="amenity" v="ice_cream"/>
            <tag k="name" v="Jäätelö"/><tag k="name:en" v="Ice cream"/><tag k="addr:street" v="Esplanadi"/>
            <tag k="opening_hours" v="Mo-Su 10:00-20:00"/><tag k="shop" v="x"/></node>
            <node id="8" lat="60.2" lon="24.8"><tag k="tourism" v="zoo_keeper_hut"/></node>
            <node id="9" lat="91" lon="24.8"><tag k="amenity" v="cafe"/></node></osm>
            """
        ]) { $0.keepAll = true }
        #expect(index.count == 2)
        let spot = try index.spot(at: try #require(try index.spotNumber(for: OSMRef(.node, 7))))
        #expect(spot.ref == OSMRef(.node, 7))
        #expect(spot.tag == "amenity=ice_cream" && spot.kind == "ice_cream" && spot.category == .cafe)
        #expect(spot.name == "Jäätelö" && spot.names == ["en": "Ice cream"] && spot.address == ["street": "Esplanadi"])
        #expect(spot.details == [.openingHours: "Mo-Su 10:00-20:00"])
        #expect(try index.spot(at: try #require(try index.spotNumber(for: OSMRef(.node, 8)))).category == nil)
        #expect(statistics.stages[0].dropped == ["bad_coordinates": 1] && statistics.spots == 2)
        #expect(try index.metadata().stages.first?.dropped["bad_coordinates"] == 1)
        #expect(
            try index.metadata().bbox
                == GeoBox(westE7: 248_000_000, southE7: 601_000_000, eastE7: 249_000_000, northE7: 602_000_000))
    }

    @Test("an object in two inputs is one record: the higher version, the first on a tie")
    func foldsRepeats() throws {
        let older =
            #"<osm><node id="1" version="1" lat="1" lon="1"><tag k="amenity" v="cafe"/><tag k="name" v="old"/></node><node id="2" version="3" lat="2" lon="2"><tag k="amenity" v="bar"/><tag k="name" v="first"/></node></osm>"#
        let newer =
            #"<osm><node id="1" version="2" lat="1" lon="1"><tag k="amenity" v="cafe"/><tag k="name" v="new"/></node><node id="2" version="3" lat="2" lon="2"><tag k="amenity" v="bar"/><tag k="name" v="second"/></node></osm>"#
        for documents in [[older, newer], [newer, older]] {
            let (index, statistics) = try build(documents) { $0.dedupe.enabled = false }
            #expect(index.count == 2)
            #expect(try index.spot(at: try #require(try index.spotNumber(for: OSMRef(.node, 1)))).name == "new")
            #expect(
                try index.spot(at: try #require(try index.spotNumber(for: OSMRef(.node, 2)))).name
                    == (documents[0] == older ? "first" : "second"))
            #expect(statistics.stages.first { $0.stage == "select" }?.dropped["repeated_objects"] == 2)
        }
    }

    @Test("areas are resolved after the last input: a way and a multipolygon may use nodes and ways of other inputs")
    func areasAcrossInputs() throws {
        let nodes =
            #"<osm><node id="1" lat="1" lon="1"/><node id="2" lat="1" lon="1.002"/><node id="3" lat="1.002" lon="1.002"/><node id="4" lat="1.002" lon="1"/></osm>"#
        let ways = #"""
            <osm><way id="7"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="1"/><tag k="amenity" v="school"/></way>
            <way id="8"><nd ref="1"/><nd ref="3"/></way><way id="9"><nd ref="3"/><nd ref="4"/><nd ref="1"/></way>
            <relation id="5"><member type="way" ref="8" role="outer"/><member type="way" ref="9" role="outer"/>
            <tag k="type" v="multipolygon"/><tag k="tourism" v="museum"/></relation></osm>
            """#
        let (index, statistics) = try build([ways, nodes]) { $0.dedupe.enabled = false }
        #expect(index.count == 2)
        let school = try index.spot(at: try #require(try index.spotNumber(for: OSMRef(.way, 7))))
        #expect(school.coordinate == Coordinate(latitudeE7: 10_010_000, longitudeE7: 10_010_000))
        // The triangle 1-3-4: its centroid, a third of the way from the corner 4.
        let museum = try index.spot(at: try #require(try index.spotNumber(for: OSMRef(.relation, 5))))
        #expect(museum.coordinate == Coordinate(latitudeE7: 10_013_333, longitudeE7: 10_006_667))
        #expect(statistics.stages[0].dropped.isEmpty)
        let (alone, aloneStatistics) = try build([ways]) { $0.dedupe.enabled = false }
        #expect(alone.count == 0 && aloneStatistics.stages[0].dropped == ["missing_nodes": 2])
    }

    @Test("the build time is SOURCE_DATE_EPOCH when given, else the newest input timestamp")
    func recordsBuildTime() throws {
        let document =
            #"<osm><node id="1" lat="1" lon="1" timestamp="2020-02-02T02:02:02Z"><tag k="amenity" v="cafe"/></node></osm>"#
        #expect(try build([document]).0.metadata().buildTime == "2020-02-02T02:02:02Z")
        #expect(try build([document], sourceDateEpoch: 0).0.metadata().buildTime == "1970-01-01T00:00:00Z")
    }
}
