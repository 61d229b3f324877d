import Foundation
import SpotPipeline
import SpotTestSupport
import Testing

@testable import SpotRefresh

/// The refresh settings of the pipeline file `text`, written to a fresh folder.
func refreshSettings(_ text: String) throws -> RefreshSettings {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    return try RefreshSettings(try Pipeline.load(try folder.write(text, to: "city.json")))
}

@Suite("Refresh settings")
struct RefreshSettingsTests {
    @Test("the built-in defaults: at least one spot, a fall of at most 20 %, three generations")
    func defaults() throws {
        let settings = try RefreshSettings(try Pipeline.defaults())
        #expect(settings.gates == Gates(minSpots: 1, maxDrop: 0.2) && settings.keep == 3)
    }

    @Test("a pipeline file overrides the defaults field by field")
    func overrides() throws {
        let settings = try refreshSettings(#"{"gates": {"min_spots": 500}, "keep": 7}"#)
        #expect(settings.gates == Gates(minSpots: 500, maxDrop: 0.2) && settings.keep == 7)
        #expect(try refreshSettings(#"{"gates": {"max_drop": 0}}"#).gates == Gates(minSpots: 1, maxDrop: 0))
    }

    @Test(
        "invalid fields are refused with their JSON path, as an invalid pipeline file (exit 78)",
        arguments: [
            (#"{"gates": {"max_drop": 1.5}}"#, ".gates.max_drop", "expected a fraction from 0 to 1, got 1.5"),
            (#"{"gates": {"min_spots": 2.5}}"#, ".gates.min_spots", "expected a whole number of at least 0"),
            (#"{"gates": {"min_spot": 2}}"#, ".gates.min_spot", "unknown key (expected one of: max_drop, min_spots)"),
            (#"{"gates": 5}"#, ".gates", "expected an object"),
            (#"{"keep": 0}"#, ".keep", "expected a whole number of at least 1"),
        ])
    func refusesInvalidFields(_ text: String, _ path: String, _ message: String) throws {
        #expect {
            _ = try refreshSettings(text)
        } throws: { error in
            guard let error = error as? PipelineError else { return false }
            return !error.isUnreadable && error.file.hasSuffix("city.json") && error.path == path
                && error.message == message
        }
    }

    @Test("a build reads a pipeline file whose refresh fields only the refresh checks")
    func buildLeavesRefreshFields() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pipeline = try Pipeline.load(try folder.write(#"{"keep": 0}"#, to: "city.json"))
        #expect(pipeline.refreshFields.fields["keep"]?.path == ".keep")
        #expect(pipeline.refreshFields.base?.fields.file == "default.json")
        #expect(throws: PipelineError.self) { try RefreshSettings(pipeline) }
    }

    @Test("a refresh needs inputs and an output")
    func needsInputsAndOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let noInputs = try Pipeline.load(try folder.write(#"{"output": "city.spots"}"#, to: "a.json"))
        #expect(throws: PipelineError.self) { try noInputs.refreshOutput() }
        let noOutput = try Pipeline.load(try folder.write(#"{"inputs": ["city.osm"]}"#, to: "b.json"))
        #expect(throws: PipelineError.self) { try noOutput.refreshOutput() }
        let both = try Pipeline.load(
            try folder.write(#"{"inputs": ["city.osm"], "output": "city.spots"}"#, to: "c.json"))
        #expect(try both.refreshOutput() == folder.url.appendingPathComponent("city.spots").standardizedFileURL.path)
    }
}
