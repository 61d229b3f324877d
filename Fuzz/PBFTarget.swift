// The PBF reader, two ways. The input as a file, read on the caller's thread and on three
// decoding threads: both must hand over the same elements (type, id, version, coordinates,
// tags, node references and members, byte for byte) and counts, or the same error. And the
// input's bytes decoded directly as one PrimitiveBlock and as one HeaderBlock, the messages
// inside the blobs (most mutations of a whole file only break its zlib data): they must decode
// or throw, never crash or read out of bounds. Tight limits make the limit checks part of it.
// Scripts/fuzz compiles this file with Fuzz/Elements.swift and Sources/OSMInput into one module,
// linked with InputStreams.

import InputStreams

private let limits = OSMReadLimits(maxElementBytes: 1 << 16, maxTags: 8, maxValueBytes: 64)
private let filter = OSMElementFilter(
    types: [.node, .way, .relation], tagKeys: ["amenity", "tourism"], bareTypes: [.node, .way])

private func read(_ path: String, threads: Int) -> Outcome {
    var collector = Collector()
    do throws(OSMInputError) {
        let summary = try OSMReader(file: path, filter: filter, limits: limits, threads: threads).read(into: &collector)
        return Outcome(collector, summary)
    } catch {
        return .failed(error.description)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPBF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var decoder = PrimitiveBlockDecoder(filter: filter, limits: limits)
    _ = try? decoder.decode(bytes)
    _ = try? PBFHeader(bytes).checkFeatures()
    guard InputFormat(head: Array(bytes.prefix(InputFormat.headLength))) == .pbf else { return 0 }
    withTemporaryFile(data, size) { path in
        let inOrder = read(path, threads: 1)
        let parallel = read(path, threads: 3)
        if inOrder != parallel {
            fatalError("1 and 3 threads differ:\n\(inOrder)\n\(parallel)")
        }
    }
    return 0
}
