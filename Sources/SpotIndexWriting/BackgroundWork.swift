import Foundation

/// A value computed on a thread of its own while the caller goes on. The index writer encodes
/// its independent sections this way (the string pool's byte-pair code, the cluster levels,
/// beside the spots and the text index), so that the end of a build uses every core, as the
/// reading does. The value is the same as computed in line: only the time changes.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the thread, before `done` is signalled; read only after waiting for it.
    private var value: Value?

    /// Starts `work` on a new thread.
    init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            value = work()
            done.signal()
        }
        thread.name = "SpotIndexWriter"
        thread.start()
    }

    /// The value, waiting for the thread to finish it.
    func wait() -> Value {
        done.wait()
        defer { done.signal() }  // a later wait returns at once
        return value!
    }
}
