// The XML reader, differentially: the same input read by one sequential parser (expat alone) in
// one piece, and cut into small pieces parsed apart on two threads and on the caller's thread
// (pieces from 64 bytes, a size the input picks). All must hand over the same elements (type,
// id, version, line, coordinates and every tag, byte for byte), the same counts, or the same
// error message at the same place. Tight limits on tags and values make the limit checks part
// of the comparison.
// Scripts/fuzz compiles this file with Fuzz/Elements.swift and Sources/OSMInput into one module,
// linked with InputStreams.

import InputStreams

private let limits = OSMReadLimits(
    maxElementBytes: OSMReadLimits.standard.maxElementBytes, maxTags: 8, maxValueBytes: 64)
private let filter = OSMElementFilter(types: [.node, .way, .relation], tagKeys: ["amenity", "tourism"])

private func read(_ path: String, threads: Int, pieceSize: Int, parsesApart: Bool = true) -> Outcome {
    var collector = Collector()
    do throws(OSMInputError) {
        let summary = try OSMReader(
            file: path, filter: filter, limits: limits, threads: threads, pieceSize: pieceSize, parsesApart: parsesApart
        ).read(into: &collector)
        return Outcome(collector, summary)
    } catch {
        // A gzip error's byte offset depends on how far zlib read ahead, which depends on the
        // output room it had: compared without it.
        guard case .line? = error.location else { return .failed("\(error.kind): \(error.message)") }
        return .failed(error.description)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let pieceSize = 64 + (size > 0 ? Int(data![0]) : 0)
    withTemporaryFile(data, size) { path in
        let sequential = read(path, threads: 1, pieceSize: 1 << 20, parsesApart: false)
        for threads in [2, 1] {
            let chunked = read(path, threads: threads, pieceSize: pieceSize)
            if sequential != chunked {
                fatalError("pieces of \(pieceSize) bytes, \(threads) threads, differ:\n\(sequential)\n\(chunked)")
            }
        }
    }
    return 0
}
