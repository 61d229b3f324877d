import Foundation
import InputStreams
import ProcessSupport
import SpotExport
import SpotIndex
import SpotOutput
import SpotPipeline

/// The `--batch` loop of `search` and `cluster`: one JSON request per line of a file (or `-`
/// for standard input), one JSON line of results per request, in order. A line that is not a
/// valid request gets `{"error":"..."}` and the rest go on; a damaged index stops the batch.
///
/// The lines read so far are answered on `threads` threads at once (`concurrentMap`) and
/// written in their order, a group of at most `linesPerThread` lines a thread at a time, so
/// that the answers held at once stay few. A client that writes a line and waits for its answer
/// gets it: lines are answered as soon as they are read, never held back to fill a group.
enum BatchLines {
    /// Answers each non-empty line of `file` with the line `answer` makes of it, to `output`.
    static func run(
        _ file: String, to output: OutputTarget, threads: Int, answer: @Sendable ([UInt8]) throws -> [UInt8]
    ) throws {
        let input: InputFile
        do {
            input = try InputFile(file)
        } catch {
            throw UsageError("--batch: cannot read '\(file)'")
        }
        let sink = try OutputSink(output)
        ProcessMemory.keepFreedForNextRequests()
        let lineBreak: [UInt8] = [0x0A]
        func respond(_ lines: [[UInt8]]) throws {
            let answers = lines.filter { !$0.isEmpty }.concurrentMap(threads: threads, minimumRun: 1) { line in
                Result { try answer(line) }
            }
            for answer in answers {
                switch answer {
                case .success(let line): try sink.write(line)
                case .failure(let error as IndexError): throw error
                case .failure(let error): try sink.write(BatchAnswer.error("\(error)"))
                }
                try sink.write(lineBreak)
            }
        }
        let group = threads * linesPerThread
        // Each read returns what a pipe holds so far, not a full chunk (FileHandle's reads wait
        // for one), so that a client waiting on its answers gets them.
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var pending: [UInt8] = []
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in try input.read(into: buffer) }
            if count == 0 { break }
            pending.append(contentsOf: chunk[..<count])
            var lines: [[UInt8]] = []
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: 0x0A) {
                lines.append(Array(pending[lineStart..<newline]))
                lineStart = newline + 1
                if lines.count == group {
                    try respond(lines)
                    lines.removeAll(keepingCapacity: true)
                }
            }
            try respond(lines)
            try sink.flush()
            pending.removeFirst(lineStart)
        }
        try respond([pending])
        try sink.finish()
    }

    /// The most lines a thread is given at once: enough to share out unequal lines evenly, few
    /// enough that a group's answers (a viewport's clusters can be large) take little memory.
    private static let linesPerThread = 64
}
