import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map(transform)`, its elements transformed on `threads` threads (every core by default):
    /// the array is cut into runs of consecutive positions (none shorter than `minimumRun`, a
    /// few per thread), each thread takes the next run not yet taken until none is left, and
    /// transforms it straight into the result's storage. The result is the same as `map`'s, in
    /// the same order; only the time changes. Several runs a thread even out elements that cost
    /// unequally (a batch's requests). A build's steps after reading (making the candidates, the
    /// per-candidate stages, the writer's per-spot text) and a batch of requests use it.
    public func concurrentMap<Result: Sendable>(
        threads: Int = ProcessInfo.processInfo.activeProcessorCount, minimumRun: Int = 1024,
        _ transform: @Sendable (Element) -> Result
    ) -> [Result] {
        let runs = Swift.max(1, Swift.min(threads * Self.runsPerThread, count / Swift.max(1, minimumRun)))
        guard runs > 1, threads > 1 else { return map(transform) }
        return withUnsafeBufferPointer { elements in
            [Result](unsafeUninitializedCapacity: count) { storage, initialized in
                let results = DisjointRuns(storage: storage, runs: runs)
                let source = SendableElements(elements: elements)
                let next = NextRun(count: runs)
                DispatchQueue.concurrentPerform(iterations: Swift.min(threads, runs)) { _ in
                    while let run = next.take() {
                        for position in results.positions(ofRun: run) {
                            results.initialize(position, to: transform(source.elements[position]))
                        }
                    }
                }
                initialized = elements.count
            }
        }
    }

    /// How many runs each thread of `concurrentMap` gets on average: enough that a thread left
    /// with the costliest run waits little for the others, few enough that taking one costs nothing.
    private static var runsPerThread: Int { 8 }
}

/// The runs of `concurrentMap` not yet taken, handed out one at a time to whichever thread asks.
private final class NextRun: @unchecked Sendable {
    // Unchecked: `taken` is read and written only while `lock` is held.
    private let lock = NSLock()
    private let count: Int
    private var taken = 0

    init(count: Int) { self.count = count }

    /// The next run no thread has taken, or nil when every run is taken.
    func take() -> Int? {
        lock.withLock {
            guard taken < count else { return nil }
            defer { taken += 1 }
            return taken
        }
    }
}

/// A result's storage shared by the threads of `concurrentMap`. Invariant: the runs cut the
/// positions `0..<storage.count` into disjoint ranges, each run is taken by one thread only
/// (`NextRun`), which initializes exactly the positions of that run, each once, and the storage
/// outlives every thread (they are all joined before `concurrentMap` counts the storage
/// initialized).
private struct DisjointRuns<Result>: @unchecked Sendable {
    let storage: UnsafeMutableBufferPointer<Result>
    let runs: Int

    /// The positions of run `run` of `runs`: consecutive, the runs differing in length by one at most.
    func positions(ofRun run: Int) -> Range<Int> {
        storage.count * run / runs..<storage.count * (run + 1) / runs
    }

    /// Initializes the element at `position`, which must be in a run this thread took.
    func initialize(_ position: Int, to value: Result) {
        precondition(storage.indices.contains(position), "a position outside the result")
        (storage.baseAddress! + position).initialize(to: value)
    }
}

/// The elements of the array being mapped, read (never written) by every thread while
/// `concurrentMap` holds the array.
private struct SendableElements<Element: Sendable>: @unchecked Sendable {
    let elements: UnsafeBufferPointer<Element>
}
