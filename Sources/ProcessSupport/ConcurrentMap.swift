import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map(transform)`, its elements transformed on every core: the array is cut into one
    /// run of positions per core (none shorter than `minimumRun`), and each run is transformed
    /// on a thread of its own, straight into the result's storage. The result is the same as
    /// `map`'s, in the same order; only the time changes. A build's steps after reading (making
    /// the candidates, the per-candidate stages, the writer's per-spot text) use it, so that
    /// they use every core as the reading does.
    public func concurrentMap<Result: Sendable>(
        minimumRun: Int = 1024, _ transform: @Sendable (Element) -> Result
    ) -> [Result] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let runs = Swift.max(1, Swift.min(cores, count / Swift.max(1, minimumRun)))
        guard runs > 1 else { return map(transform) }
        return withUnsafeBufferPointer { elements in
            [Result](unsafeUninitializedCapacity: count) { storage, initialized in
                let results = DisjointRuns(storage: storage, runs: runs)
                let source = SendableElements(elements: elements)
                DispatchQueue.concurrentPerform(iterations: runs) { run in
                    for position in results.positions(ofRun: run) {
                        results.initialize(position, to: transform(source.elements[position]))
                    }
                }
                initialized = elements.count
            }
        }
    }
}

/// A result's storage shared by the threads of `concurrentMap`. Invariant: the runs cut the
/// positions `0..<storage.count` into disjoint ranges, each thread initializes exactly the
/// positions of its own run, each once, and the storage outlives every thread (they are all
/// joined before `concurrentMap` counts the storage initialized).
private struct DisjointRuns<Result>: @unchecked Sendable {
    let storage: UnsafeMutableBufferPointer<Result>
    let runs: Int

    /// The positions of run `run` of `runs`: consecutive, the runs differing in length by one at most.
    func positions(ofRun run: Int) -> Range<Int> {
        storage.count * run / runs..<storage.count * (run + 1) / runs
    }

    /// Initializes the element at `position`, which must be in this thread's run.
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
