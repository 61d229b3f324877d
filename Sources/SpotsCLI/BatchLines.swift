import Foundation
import ProcessSupport
import SpotExport
import SpotIndex
import SpotOutput
import SpotPipeline

/// The `--batch` loop of `search` and `cluster`: one JSON request per line of a file (or `-`
/// for standard input), one JSON line of results per request, in order. A line that is not a
/// valid request gets `{"error":"..."}` and the rest go on; a damaged index stops the batch.
enum BatchLines {
    /// Answers each non-empty line of `file` with the line `answer` makes of it, to `output`.
    static func run(_ file: String, to output: OutputTarget, answer: ([UInt8]) throws -> [UInt8]) throws {
        let handle: FileHandle
        if file == "-" {
            handle = .standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: file) else {
                throw UsageError("--batch: cannot read '\(file)'")
            }
            handle = opened
        }
        let sink = try OutputSink(output)
        ProcessMemory.keepFreedForNextRequests()
        func respond(_ line: [UInt8]) throws {
            guard !line.isEmpty else { return }
            do {
                try sink.write(try answer(line) + [0x0A])
            } catch let error as IndexError {
                throw error
            } catch {
                try sink.write(BatchAnswer.error("\(error)") + [0x0A])
            }
        }
        // Bytes, not Data: a search for the newline over Data reads its storage byte by byte.
        var pending: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: 0x0A) {
                try respond(Array(pending[lineStart..<newline]))
                lineStart = newline + 1
            }
            pending.removeFirst(lineStart)
        }
        try respond(pending)
        try sink.finish()
    }
}
