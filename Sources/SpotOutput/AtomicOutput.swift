import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an output could not be written.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    /// Whether the output is refused before anything is touched (one of the inputs, a format
    /// its name contradicts: exit 64), could not be created (a missing folder, an existing
    /// file not to be replaced: exit 73) or writing it failed (exit 74).
    public enum Kind: Sendable { case refused, cannotCreate, io }
    /// What kind of failure.
    public let kind: Kind
    /// The output path, as it was given.
    public let file: String
    /// The system's reason.
    public let message: String

    /// An error of `kind` about `file`.
    public init(kind: Kind, file: String, message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    /// `FILE: what is wrong`.
    public var description: String { "\(file): \(message)" }
}

/// A file written all or nothing: bytes go to a temporary file beside the output, which is
/// fsynced and renamed over the output only by `commit()`, and the directory is fsynced after.
/// Until then, and on any failure, the output path holds what it held before.
///
/// Temporary files are named `.NAME.tmp.PID` beside the output; opening an output removes the
/// ones whose process is gone (left by a run that was killed with SIGKILL). After
/// `removeTemporariesOnTermination()`, SIGINT and SIGTERM remove them before the process ends.
public final class AtomicOutput {
    /// The path the output will have.
    public let path: String
    /// The path errors name: the output as it was given (a link, say).
    private let shownPath: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var committed = false

    /// Starts an output at `path`; throws `OutputError.cannotCreate`, naming `name` (by
    /// default `path`), when its directory does not exist or cannot be written.
    public init(path: String, shownAs name: String? = nil) throws(OutputError) {
        self.path = path
        shownPath = name ?? path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".tmp."
        Self.removeStaleTemporaries(in: directory, prefix: prefix)
        temporaryPath = directory + "/" + prefix + String(getpid())
        PendingTemporaries.shared.insert(temporaryPath)
        unlink(temporaryPath)
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            PendingTemporaries.shared.remove(temporaryPath)
            throw OutputError(kind: .cannotCreate, file: shownPath, message: String(cString: strerror(errno)))
        }
        var status = stat()
        if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
            discard()
            throw OutputError(kind: .cannotCreate, file: shownPath, message: "is a directory")
        }
    }

    deinit { discard() }

    /// Appends `bytes`; throws `OutputError.io` (a full disk, say).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        do {
            try writeAll(bytes, to: descriptor, path: shownPath)
        } catch {
            discard()
            throw error
        }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(OutputError) in try write(buffer) } }
        try result.get()
    }

    /// Makes the written bytes the output: fsync, rename over the path, fsync the directory.
    public func commit() throws(OutputError) {
        guard fsync(descriptor) == 0 else { throw failure() }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else { throw failure() }
        committed = true
        PendingTemporaries.shared.remove(temporaryPath)
        let directory = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Drops the temporary file; the output stays as it was.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !committed {
            unlink(temporaryPath)
            PendingTemporaries.shared.remove(temporaryPath)
        }
    }

    /// Makes SIGINT and SIGTERM remove the temporary files of the outputs not yet committed, then
    /// end the process by that signal (the shell sees 128 + its number: 130, 143). Outputs keep
    /// what they held before. Call once, early; the signals are then handled on a queue of
    /// their own, never inside a signal handler.
    public static func removeTemporariesOnTermination() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                PendingTemporaries.shared.removeAll()
                // Dispatch keeps the signal blocked; unblocked on this thread, it ends the process.
                signal(signalNumber, SIG_DFL)
                var signals = sigset_t()
                sigemptyset(&signals)
                sigaddset(&signals, signalNumber)
                pthread_sigmask(SIG_UNBLOCK, &signals, nil)
                raise(signalNumber)
            }
            source.resume()
            PendingTemporaries.shared.keep(source)
        }
    }

    private func failure() -> OutputError {
        let error = OutputError(kind: .io, file: shownPath, message: String(cString: strerror(errno)))
        discard()
        return error
    }

    /// Removes `prefix + PID` files in `directory` whose process no longer runs.
    private static func removeStaleTemporaries(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }
}

/// The temporary files of outputs being written, for removal when a signal ends the process.
private final class PendingTemporaries: @unchecked Sendable {
    static let shared = PendingTemporaries()
    private let lock = NSLock()
    // Guarded by `lock`:
    private var paths: Set<String> = []
    private var sources: [any DispatchSourceSignal] = []

    func insert(_ path: String) { lock.withLock { _ = paths.insert(path) } }

    func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Removes every pending temporary file; the lock stays held so that none is added after.
    func removeAll() {
        lock.lock()
        for path in paths { unlink(path) }
    }

    /// Keeps a signal source alive for the life of the process.
    func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }
}
