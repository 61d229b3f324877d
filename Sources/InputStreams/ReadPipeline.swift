import Foundation

/// A stretch of input the reading thread hands over (an XML piece, a PBF blob): its place in
/// the input and the pipeline slot it holds until the caller releases it.
public protocol PipelineWork: Sendable {
    /// Its place in the input, from 0.
    var index: Int { get }
    /// The slot it holds, from 0 to the pipeline's slot count.
    var slot: Int { get }
}

/// What the reading thread hands over next, in input order.
public enum PipelineItem<Work: PipelineWork> {
    /// The next stretch of input.
    case work(Work)
    /// Reading failed after the stretches handed over before (an I/O or gzip error, an empty input).
    case failure(OSMInputError)
    /// The input ended: raw bytes read and bytes after inflating.
    case end(inputBytes: Int, decodedBytes: Int)
}

/// A value handed to another thread that then owns it alone (the input and its observer, which
/// only the reading thread uses once it starts).
public struct Handover<Value>: @unchecked Sendable {
    /// The value handed over.
    public let value: Value

    /// `value`, to be handed to another thread.
    public init(value: Value) {
        self.value = value
    }
}

/// The state the reading thread, the decoding threads and the caller's thread share: a fixed
/// number of slots, the stretches of input read into them in input order, those waiting for a
/// decoding thread, and the decoded ones waiting to be handed over in order. One condition
/// guards it all. The XML reader's stretches are pieces of text parsed into batches, the PBF
/// reader's are blobs decoded into batches, the bzip2 reader's are blocks decoded into bytes.
///
/// Memory is bounded by the slots: a stretch holds its slot until its elements are handed over.
public final class ReadPipeline<Work: PipelineWork, Result>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var freeSlots: [Int]
    private var items: [PipelineItem<Work>] = []
    private var work: [Work] = []
    private var results: [Int: Result] = [:]
    private var producerDone = false
    private var cancelled = false
    private var running = 0

    /// A pipeline of `slots` slots.
    public init(slots: Int) {
        freeSlots = Array(0..<slots)
    }

    /// Runs `body` on a thread of its own, counted until it returns.
    public func spawn(_ body: @escaping @Sendable () -> Void) {
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
    public func stop() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
            while running > 0 { condition.wait() }
        }
    }

    // MARK: The reading thread

    /// A free slot to fill; nil once stopped.
    public func acquireSlot() -> Int? {
        condition.withLock {
            while freeSlots.isEmpty && !cancelled { condition.wait() }
            return cancelled ? nil : freeSlots.removeFirst()
        }
    }

    /// Hands over `item`, in input order; a stretch also goes to the decoding threads when
    /// `toWorkers`.
    public func publish(_ item: PipelineItem<Work>, toWorkers: Bool) {
        condition.withLock {
            items.append(item)
            switch item {
            case .work(let stretch):
                if toWorkers { work.append(stretch) }
            case .failure, .end:
                producerDone = true
            }
            condition.broadcast()
        }
    }

    // MARK: The decoding threads

    /// The next stretch to decode; nil when there is none and will be none.
    public func nextWork() -> Work? {
        condition.withLock {
            while work.isEmpty && !producerDone && !cancelled { condition.wait() }
            return cancelled || work.isEmpty ? nil : work.removeFirst()
        }
    }

    /// Hands over a decoded stretch.
    public func finish(_ stretch: Work, result: Result) {
        condition.withLock {
            results[stretch.index] = result
            condition.broadcast()
        }
    }

    // MARK: The caller's thread

    /// The next item in input order, waiting for the reading thread.
    public func nextItem() -> PipelineItem<Work> {
        condition.withLock {
            while items.isEmpty { condition.wait() }
            return items.removeFirst()
        }
    }

    /// What decoding `stretch` gave, waiting for it.
    public func result(of stretch: Work) -> Result {
        condition.withLock {
            while results[stretch.index] == nil { condition.wait() }
            return results.removeValue(forKey: stretch.index)!
        }
    }

    /// Frees a stretch's slot once its elements are handed over.
    public func release(_ stretch: Work) {
        condition.withLock {
            freeSlots.append(stretch.slot)
            condition.broadcast()
        }
    }
}
