import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command's output goes, decided before anything is read or written: standard output
/// for `-`; an open descriptor (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`) or a file that is
/// not a regular one (a FIFO, a character device), written straight through; or a regular file
/// (new, or replaced when allowed), written atomically by `AtomicOutput`. A symbolic link to a
/// regular file is followed: its target is replaced and the link kept.
public struct OutputTarget: Sendable {
    /// How the bytes reach the output.
    public enum Destination: Sendable, Equatable {
        /// A descriptor the process already has (1 for `-` and `/dev/stdout`).
        case descriptor(Int32)
        /// A FIFO, a device or another file that is not regular, at this path: opened for
        /// writing and written straight through.
        case special(String)
        /// A regular file at this path (links resolved), written to a temporary file beside it
        /// and renamed over it.
        case file(String)
    }

    /// The output as it was given (`-`, a path).
    public let path: String
    /// Whether the output is a regular file (written beside and renamed), not a descriptor or
    /// a FIFO or device.
    public var isRegularFile: Bool {
        if case .file = destination { return true }
        return false
    }
    /// How the bytes reach it.
    public let destination: Destination

    /// Resolves `path`. Throws `OutputError.refused` when it is one of `inputs` (the same
    /// device and inode, or the same path once links are resolved; `-` inputs aside), and
    /// `OutputError.cannotCreate` for a directory, or for an existing regular file unless
    /// `overwrite` is true; the error then says `replaceWith` replaces it.
    public init(
        path: String, inputs: [String], overwrite: Bool, replaceWith: String = "-O/--overwrite"
    ) throws(OutputError) {
        self.path = path
        if let descriptor = Self.openDescriptor(path) {
            destination = .descriptor(descriptor)
            var status = stat()
            if fstat(descriptor, &status) == 0 { try Self.refuseInput(status, path: path, inputs: inputs) }
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let resolved = Self.resolved(path)
            if inputs.contains(where: { $0 != "-" && Self.resolved($0) == resolved }) {
                throw OutputError(kind: .refused, file: path, message: "is one of the inputs")
            }
            destination = .file(resolved)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw OutputError(kind: .cannotCreate, file: path, message: "is a directory")
        case S_IFREG:
            try Self.refuseInput(status, path: path, inputs: inputs)
            guard overwrite else {
                throw OutputError(kind: .cannotCreate, file: path, message: "exists; give \(replaceWith) to replace it")
            }
            destination = .file(Self.resolved(path))
        default:
            destination = .special(path)
        }
    }

    /// Opens the output for writing: a regular file's temporary file, or the special file or
    /// descriptor itself.
    public func open() throws(OutputError) -> OutputFile {
        switch destination {
        case .descriptor(let descriptor):
            return OutputFile(straightTo: descriptor, path: path, closing: false)
        case .special(let special):
            let descriptor = openForWriting(special)
            guard descriptor >= 0 else {
                throw OutputError(kind: .cannotCreate, file: path, message: String(cString: strerror(errno)))
            }
            return OutputFile(straightTo: descriptor, path: path, closing: true)
        case .file(let file):
            return OutputFile(atomic: try AtomicOutput(path: file, shownAs: path))
        }
    }

    /// The descriptor a path names that the process already holds: `-` and `/dev/stdout` (1),
    /// `/dev/stderr` (2), `/dev/fd/N`, `/proc/self/fd/N`; nil for any other path.
    private static func openDescriptor(_ path: String) -> Int32? {
        let named: [String: Int32] = ["-": 1, "/dev/stdout": 1, "/dev/stderr": 2]
        if let descriptor = named[path] { return descriptor }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            guard let number = Int32(path.dropFirst(prefix.count)), fcntl(number, F_GETFD) >= 0 else { return nil }
            return number
        }
        return nil
    }

    /// Throws `OutputError.refused` when `status` is a regular file that one of `inputs` is too.
    private static func refuseInput(_ status: stat, path: String, inputs: [String]) throws(OutputError) {
        guard status.st_mode & S_IFMT == S_IFREG else { return }
        for input in inputs where input != "-" {
            var inputStatus = stat()
            if stat(input, &inputStatus) == 0 && inputStatus.st_dev == status.st_dev
                && inputStatus.st_ino == status.st_ino
            {
                throw OutputError(kind: .refused, file: path, message: "is one of the inputs")
            }
        }
    }

    /// `path` absolute, its links resolved; where it does not exist, its folder's links
    /// resolved and its name kept.
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        guard let real = realpath(folder, nil) else { return url.standardizedFileURL.path }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real)).appendingPathComponent(url.lastPathComponent).path
    }
}

/// An output being written: to a temporary file made the output by `commit()`, or straight to
/// a descriptor (standard output, a FIFO, a device), where `commit()` only closes what it opened.
public final class OutputFile {
    private let atomic: AtomicOutput?
    private var descriptor: Int32
    private let path: String
    private let closing: Bool

    init(atomic: AtomicOutput) {
        self.atomic = atomic
        descriptor = -1
        path = atomic.path
        closing = false
    }

    init(straightTo descriptor: Int32, path: String, closing: Bool) {
        atomic = nil
        self.descriptor = descriptor
        self.path = path
        self.closing = closing
    }

    deinit { if closing && descriptor >= 0 { close(descriptor) } }

    /// Appends `bytes`; throws `OutputError.io` (a full disk, say).
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        if let atomic { return try atomic.write(bytes) }
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(OutputError) in try writeAll(buffer, to: descriptor, path: path) }
        }
        try result.get()
    }

    /// Makes what was written the output: renames a temporary file over it, or closes the
    /// special file opened for it.
    public func commit() throws(OutputError) {
        if let atomic { return try atomic.commit() }
        if closing && descriptor >= 0 {
            let closed = close(descriptor)
            descriptor = -1
            guard closed == 0 else {
                throw OutputError(kind: .io, file: path, message: String(cString: strerror(errno)))
            }
        }
    }
}

/// Opens the file at `path` for writing, neither creating nor truncating it; -1 on failure.
private func openForWriting(_ path: String) -> Int32 { open(path, O_WRONLY | O_CLOEXEC) }

/// Writes all of `bytes` to `descriptor`, again after EINTR; throws `OutputError.io` naming `path`.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(OutputError) {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            throw OutputError(kind: .io, file: path, message: String(cString: strerror(errno)))
        }
        offset += written
    }
}
