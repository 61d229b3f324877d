import Foundation
import InputStreams

/// One piece of the XML text, in a buffer of the ring, as the reading thread cut it.
struct Piece: PipelineWork {
    /// Its place in the input, from 0.
    var index: Int
    /// The ring buffer that holds it, from its first byte.
    var slot: Int
    /// Its length in bytes.
    var count: Int
    /// Whether it starts and ends at a proven cut and may be parsed apart (`PieceCutter`).
    var parallel: Bool
    /// Whether it ends the input.
    var isFinal: Bool
    /// Raw bytes read from the input when it was cut, for progress.
    var rawBytesRead: Int
}

/// The XML reader's ring of buffers, one per pipeline slot, each holding a piece from its first byte.
final class PieceRing: @unchecked Sendable {
    /// The buffers, each `pieceSize` bytes.
    let buffers: [UnsafeMutableRawBufferPointer]

    /// `slots` buffers of `pieceSize` bytes.
    init(pieceSize: Int, slots: Int) {
        buffers = (0..<slots).map { _ in .allocate(byteCount: pieceSize, alignment: 64) }
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The bytes of `piece`.
    func bytes(of piece: Piece) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffers[piece.slot][..<piece.count])
    }
}

/// The reading thread's work: read and inflate the input into the ring's buffers, cut the text
/// at proven top-level element boundaries and hand the pieces over in order.
struct PieceProducer {
    let input: InputFile
    let stream: DecodedStream
    let pipeline: ReadPipeline<Piece, PieceResult>
    let ring: PieceRing
    /// Whether parallel pieces go to parsing threads (else the caller parses every piece).
    let parallel: Bool

    func run() {
        let capacity = ring.buffers[0].count
        var cutter = PieceCutter()
        var xmlBytes = 0
        var index = 0
        // Once the input has ended it is not read again (a terminal would wait for more).
        var ended = false
        // Bytes after the last cut, at the end of the last buffer, that start the next one.
        var carry: (slot: Int, range: Range<Int>)?
        while true {
            guard let slot = pipeline.acquireSlot() else { return }
            let buffer = ring.buffers[slot]
            var count = 0
            if let (from, range) = carry {
                memmove(buffer.baseAddress!, ring.buffers[from].baseAddress! + range.lowerBound, range.count)
                count = range.count
            }
            var failure: OSMInputError?
            do throws(OSMInputError) {
                while count < capacity && !ended {
                    let read = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                    if read == 0 {
                        ended = true
                        break
                    }
                    count += read
                    xmlBytes += read
                }
            } catch {
                failure = error
            }
            if ended && xmlBytes == 0 {
                failure = OSMInputError(.malformed, file: input.name, "empty input: no XML")
            }
            if let failure {
                // What was read before the failure is parsed first, as a sequential read would.
                if count > 0 {
                    let piece = Piece(
                        index: index, slot: slot, count: count, parallel: false, isFinal: false,
                        rawBytesRead: stream.rawBytesRead)
                    pipeline.publish(.work(piece), toWorkers: parallel && piece.parallel)
                }
                pipeline.publish(.failure(failure), toWorkers: false)
                return
            }
            var cut = cutter.cut(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            if ended && !cut.proven {
                // The rest of the input, with the root's end: the last piece.
                cut = PieceCutter.Cut(end: count, parallel: false)
            }
            let isFinal = ended && cut.end == count
            let piece = Piece(
                index: index, slot: slot, count: cut.end, parallel: cut.parallel, isFinal: isFinal,
                rawBytesRead: stream.rawBytesRead)
            index += 1
            carry = (slot, cut.end..<count)
            pipeline.publish(.work(piece), toWorkers: parallel && piece.parallel)
            if isFinal {
                pipeline.publish(.end(inputBytes: stream.rawBytesRead, decodedBytes: xmlBytes), toWorkers: false)
                return
            }
        }
    }
}
