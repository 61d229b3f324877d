import Foundation

/// One piece of the XML text, in a buffer of the ring, as the reading thread cut it.
struct Piece: Sendable {
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

/// What the reading thread hands over next, in input order.
enum PipelineItem {
    /// The next piece.
    case piece(Piece)
    /// Reading failed after the pieces handed over before (an I/O or gzip error, an empty input).
    case failure(OSMInputError)
    /// The input ended: raw bytes read and XML bytes after inflating.
    case end(inputBytes: Int, xmlBytes: Int)
}

/// The state the reading thread, the parsing threads and the caller's thread share: a ring of
/// buffers, the pieces cut into them in input order, the pieces waiting for a parsing thread,
/// and the parsed pieces waiting to be handed over in order. One condition guards it all.
///
/// Memory is bounded by the ring: a piece keeps its buffer until its elements are handed over.
final class ReadPipeline: @unchecked Sendable {
    /// The ring's buffers, each `pieceSize` bytes.
    let buffers: [UnsafeMutableRawBufferPointer]
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var freeSlots: [Int]
    private var items: [PipelineItem] = []
    private var work: [Piece] = []
    private var results: [Int: PieceResult] = [:]
    private var producerDone = false
    private var cancelled = false
    private var running = 0

    /// A ring of `slots` buffers of `pieceSize` bytes.
    init(pieceSize: Int, slots: Int) {
        buffers = (0..<slots).map { _ in .allocate(byteCount: pieceSize, alignment: 64) }
        freeSlots = Array(0..<slots)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The bytes of `piece`.
    func bytes(of piece: Piece) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffers[piece.slot][..<piece.count])
    }

    /// Runs `body` on a thread of its own, counted until it returns.
    func spawn(_ body: @escaping @Sendable () -> Void) {
        condition.withLock { running += 1 }
        let thread = Thread { [self] in
            body()
            condition.withLock {
                running -= 1
                condition.broadcast()
            }
        }
        thread.name = "OSMReader"
        thread.start()
    }

    /// Stops every thread at its next step and waits until all have returned.
    func stop() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
            while running > 0 { condition.wait() }
        }
    }

    // MARK: The reading thread

    /// A free buffer to fill; nil once stopped.
    func acquireSlot() -> Int? {
        condition.withLock {
            while freeSlots.isEmpty && !cancelled { condition.wait() }
            return cancelled ? nil : freeSlots.removeFirst()
        }
    }

    /// Hands over `item`; a piece to parse apart also goes to the parsing threads when `parallel`.
    func publish(_ item: PipelineItem, parallel: Bool) {
        condition.withLock {
            items.append(item)
            switch item {
            case .piece(let piece):
                if parallel && piece.parallel { work.append(piece) }
            case .failure, .end:
                producerDone = true
            }
            condition.broadcast()
        }
    }

    // MARK: The parsing threads

    /// The next piece to parse apart; nil when there is none and will be none.
    func nextWork() -> Piece? {
        condition.withLock {
            while work.isEmpty && !producerDone && !cancelled { condition.wait() }
            return cancelled || work.isEmpty ? nil : work.removeFirst()
        }
    }

    /// Hands over a parsed piece.
    func finish(_ piece: Piece, result: PieceResult) {
        condition.withLock {
            results[piece.index] = result
            condition.broadcast()
        }
    }

    // MARK: The caller's thread

    /// The next item in input order, waiting for the reading thread.
    func nextItem() -> PipelineItem {
        condition.withLock {
            while items.isEmpty { condition.wait() }
            return items.removeFirst()
        }
    }

    /// What parsing `piece` apart gave, waiting for it.
    func result(of piece: Piece) -> PieceResult {
        condition.withLock {
            while results[piece.index] == nil { condition.wait() }
            return results.removeValue(forKey: piece.index)!
        }
    }

    /// Returns a piece's buffer to the ring once its elements are handed over.
    func release(_ piece: Piece) {
        condition.withLock {
            freeSlots.append(piece.slot)
            condition.broadcast()
        }
    }
}

/// A value handed to another thread that then owns it alone (the input and its observer, which
/// only the reading thread uses once it starts).
struct Handover<Value>: @unchecked Sendable {
    let value: Value
}

/// The reading thread's work: read and inflate the input into the ring's buffers, cut the text
/// at proven top-level element boundaries and hand the pieces over in order.
struct PieceProducer {
    let input: InputFile
    let stream: DecodedStream
    let pipeline: ReadPipeline
    /// Whether parallel pieces go to parsing threads (else the caller parses every piece).
    let parallel: Bool

    func run() {
        let capacity = pipeline.buffers[0].count
        var cutter = PieceCutter()
        var xmlBytes = 0
        var index = 0
        // Once the input has ended it is not read again (a terminal would wait for more).
        var ended = false
        // Bytes after the last cut, at the end of the last buffer, that start the next one.
        var carry: (slot: Int, range: Range<Int>)?
        while true {
            guard let slot = pipeline.acquireSlot() else { return }
            let buffer = pipeline.buffers[slot]
            var count = 0
            if let (from, range) = carry {
                memmove(buffer.baseAddress!, pipeline.buffers[from].baseAddress! + range.lowerBound, range.count)
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
                        rawBytesRead: input.bytesRead)
                    pipeline.publish(.piece(piece), parallel: parallel)
                }
                pipeline.publish(.failure(failure), parallel: parallel)
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
                rawBytesRead: input.bytesRead)
            index += 1
            carry = (slot, cut.end..<count)
            pipeline.publish(.piece(piece), parallel: parallel)
            if isFinal {
                pipeline.publish(.end(inputBytes: input.bytesRead, xmlBytes: xmlBytes), parallel: parallel)
                return
            }
        }
    }
}
