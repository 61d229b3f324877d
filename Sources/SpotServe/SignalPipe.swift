import Foundation

/// Signals turned into bytes on a pipe (the self-pipe trick): the handler, on whichever thread
/// the signal lands, only writes the signal's number, which is all a handler may safely do; the
/// server's main loop reads them when it waits.
enum SignalPipe {
    /// The pipe's two ends, made once by `install`; the handler writes to `writeEnd`.
    nonisolated(unsafe) private static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Catches `signals` from now on, on this thread and those it starts.
    static func install(_ signals: [Int32]) {
        if writeEnd < 0 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
            (readEnd, writeEnd) = (fds[0], fds[1])
        }
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        // A parent may have started the process with them blocked (a blocked mask is
        // inherited); the threads started from here on inherit this thread's mask.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// The next signal caught, waiting at most `seconds`; 0 when none came.
    static func wait(seconds: Double) -> Int32 {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return 0 }
        var byte: UInt8 = 0
        return read(readEnd, &byte, 1) == 1 ? Int32(byte) : 0
    }
}
