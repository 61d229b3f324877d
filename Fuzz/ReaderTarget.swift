// The XML reader, differentially: the same input read by one sequential parser (expat alone) in
// one piece, and cut into small pieces parsed apart on two threads and on the caller's thread
// (pieces from 64 bytes, a size the input picks). All must hand over the same elements (type,
// id, version, line, coordinates and every tag, byte for byte), the same counts, or the same
// error message at the same place. Tight limits on tags and values make the limit checks part
// of the comparison.
// The same bytes are then read as an osmChange file (`OSMReadForm.changes`) on one thread, in
// one piece and in the small pieces: each read must give the same elements with the same
// actions, or the same error; and no input reads both as an extract and as a change file.
// Scripts/fuzz compiles this file with Fuzz/Elements.swift and Sources/OSMInput into one module,
// linked with InputStreams.

import InputStreams

private let limits = OSMReadLimits(
    maxElementBytes: OSMReadLimits.standard.maxElementBytes, maxTags: 8, maxValueBytes: 64)
private let filter = OSMElementFilter(types: [.node, .way, .relation], tagKeys: ["amenity", "tourism"])

/// Collects every element it is handed, and its osmChange action.
private struct ActionCollector: OSMElementHandler {
    var collector = Collector()
    var actions: [OSMChangeAction?] = []

    mutating func handle(_ element: OSMElement) {
        collector.handle(element)
        actions.append(element.action)
    }
}

/// What one read in the change form gave: the outcome and every element's action.
private struct ChangeOutcome: Equatable {
    var outcome: Outcome
    var actions: [OSMChangeAction?]
}

private func read(
    _ path: String, threads: Int, pieceSize: Int, parsesApart: Bool = true, form: OSMReadForm = .extract
) -> ChangeOutcome {
    var collector = ActionCollector()
    do throws(OSMInputError) {
        let summary = try OSMReader(
            file: path, filter: filter, limits: limits, threads: threads, pieceSize: pieceSize,
            parsesApart: parsesApart, form: form
        ).read(into: &collector)
        if form == .extract && collector.actions.contains(where: { $0 != nil }) {
            fatalError("an element of an extract has an action")
        }
        return ChangeOutcome(outcome: Outcome(collector.collector, summary), actions: collector.actions)
    } catch {
        // A gzip error's byte offset depends on how far zlib read ahead, which depends on the
        // output room it had: compared without it.
        guard case .line? = error.location else {
            return ChangeOutcome(outcome: .failed("\(error.kind): \(error.message)"), actions: [])
        }
        return ChangeOutcome(outcome: .failed(error.description), actions: [])
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
        let changes = read(path, threads: 1, pieceSize: 1 << 20, form: .changes)
        let changesInPieces = read(path, threads: 1, pieceSize: pieceSize, form: .changes)
        if changes != changesInPieces {
            fatalError("as changes, pieces of \(pieceSize) bytes differ:\n\(changes)\n\(changesInPieces)")
        }
        if case .read = sequential.outcome, case .read = changes.outcome {
            fatalError("read both as an extract and as an osmChange file")
        }
    }
    return 0
}
