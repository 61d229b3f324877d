import Foundation

/// One first-in, first-out queue of work served by a fixed set of threads, started at once and
/// kept until `finish()`: the same threads answer every request, so the allocator keeps one
/// arena each for them rather than one for every thread a shared pool happens to lend.
final class WorkQueue: @unchecked Sendable {
    // Unchecked: `jobs`, `running` and `closed` are changed under `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var running = 0
    private var closed = false
    private var threads: [Thread] = []

    /// A queue served by `count` threads (at least one).
    init(threads count: Int) {
        for index in 0..<max(1, count) {
            let thread = Thread { self.serve() }  // the thread holds the queue until `finish()`
            thread.name = "spots-worker-\(index)"
            threads.append(thread)
            thread.start()
        }
    }

    /// Queues `job`, to run on one of the threads after every job queued before it has started.
    func add(_ job: @escaping @Sendable () -> Void) {
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Waits until every job queued has run, then lets the threads end. No job may be added after.
    func finish() {
        condition.withLock {
            while head < jobs.count || running > 0 { condition.wait() }
            closed = true
            condition.broadcast()
        }
    }

    private func serve() {
        while let job = next() {
            job()
            condition.withLock {
                running -= 1
                condition.broadcast()
            }
        }
    }

    /// The next job (nil once closed), counted as running.
    private func next() -> (@Sendable () -> Void)? {
        condition.withLock {
            while head == jobs.count && !closed { condition.wait() }
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            running += 1
            return job
        }
    }
}
