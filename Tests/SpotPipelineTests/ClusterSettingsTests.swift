import Foundation
import SpotCluster
import SpotIndex
import Testing

@testable import SpotPipeline

@Suite("Pipeline files: cluster settings")
struct ClusterSettingsTests {
    @Test("the defaults are supercluster's: zooms 0 to 16, 60 px at 512-px tiles; the index metadata records them")
    func defaults() throws {
        let pipeline = try Pipeline.defaults()
        #expect(pipeline.clusters == ClusterSettings(maxZoom: 16, radius: 60, extent: 512))
        #expect(pipeline.settings.clusters == pipeline.clusters)
    }

    @Test("fields a file gives replace the defaults; enabled false turns cluster levels off")
    func overrides() throws {
        #expect(
            try loadPipeline(#"{"clusters": {"max_zoom": 12}}"#).clusters
                == ClusterSettings(maxZoom: 12, radius: 60, extent: 512))
        #expect(
            try loadPipeline(#"{"clusters": {"radius": 40, "extent": 256}}"#).clusters
                == ClusterSettings(maxZoom: 16, radius: 40, extent: 256))
        #expect(try loadPipeline(#"{"clusters": {"enabled": false, "max_zoom": 12}}"#).clusters == nil)
        #expect(try loadPipeline(#"{"clusters": {"enabled": false}}"#).settings.clusters == nil)
    }

    @Test(
        "invalid fields are refused, naming their path",
        arguments: [
            (#"{"clusters": {"max_zoom": 25}}"#, ".clusters.max_zoom", "from 0 to 24"),
            (#"{"clusters": {"max_zoom": 2.5}}"#, ".clusters.max_zoom", "whole number"),
            (#"{"clusters": {"radius": 0}}"#, ".clusters.radius", "a radius in pixels from 1 to 1024"),
            (#"{"clusters": {"extent": 10}}"#, ".clusters.extent", "a tile size in pixels from 64 to 8192"),
            (#"{"clusters": {"enabled": "no"}}"#, ".clusters.enabled", "expected true or false"),
            (#"{"clusters": {"min_points": 3}}"#, ".clusters.min_points", "unknown key"),
            (#"{"clusters": true}"#, ".clusters", "expected an object"),
        ])
    func refusesInvalidFields(_ text: String, _ path: String, _ message: String) {
        let error = pipelineError(text)
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
}
