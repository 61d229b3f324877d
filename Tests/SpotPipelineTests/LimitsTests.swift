import OSMInput
import SpotPipeline
import Testing

@Suite("Pipeline files: read limits")
struct LimitsTests {
    @Test("the built-in defaults are the reader's standard limits")
    func defaultsAreStandard() throws {
        #expect(try Pipeline.defaults().limits == OSMReadLimits.standard)
    }

    @Test("a field given replaces its default; the others stay")
    func fieldOverrides() throws {
        let limits = try loadPipeline(#"{"limits": {"max_tags": 5}}"#).limits
        #expect(
            limits
                == OSMReadLimits(
                    maxElementBytes: OSMReadLimits.standard.maxElementBytes, maxTags: 5,
                    maxValueBytes: OSMReadLimits.standard.maxValueBytes))
    }

    @Test("a limit below 1, or not a whole number, names its JSON path")
    func refusesBadLimits() {
        #expect(pipelineError(#"{"limits": {"max_tags": 0}}"#)?.path == ".limits.max_tags")
        #expect(pipelineError(#"{"limits": {"max_element_bytes": 1.5}}"#)?.path == ".limits.max_element_bytes")
        #expect(pipelineError(#"{"limits": {"max_values": 10}}"#) != nil)
    }
}
