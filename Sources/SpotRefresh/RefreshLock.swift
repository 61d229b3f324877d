import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock a refresh holds on its output: `flock(2)` on `.NAME.lock` beside it, holding the
/// holder's pid. The kernel drops the lock when the process ends however it ends, so a crash
/// never blocks the next night; a second refresh of the same output fails at once.
final class RefreshLock {
    /// The lock file.
    let path: String
    private let descriptor: Int32

    /// Takes the lock for `output`, or throws `RefreshError.locked` naming the holder's pid.
    init(output: String) throws(RefreshError) {
        let url = URL(fileURLWithPath: output)
        path = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw RefreshError(
                .cannotPublish, file: path, "cannot create the lock file: " + String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            close(descriptor)
            throw RefreshError(
                .locked, file: output,
                "another refresh (pid \(holder.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown")) holds \(path)")
        }
        let pid = Array("\(getpid())\n".utf8)
        ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
    }

    deinit { close(descriptor) }
}
