#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only into memory: opening costs the same whatever the file's size,
/// and pages are read only when touched.
final class MappedFile: @unchecked Sendable {
    /// The file's bytes. Immutable for the object's lifetime.
    let bytes: UnsafeRawBufferPointer

    /// Maps `path`, or throws `IndexError.unreadable` with the system's reason.
    init(path: String) throws(IndexError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure(path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure(path) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw IndexError(.unreadable, file: path, "not a regular file")
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw Self.failure(path)
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let address = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: address), bytes.count) }
    }

    private static func failure(_ path: String) -> IndexError {
        IndexError(.unreadable, file: path, String(cString: strerror(errno)))
    }
}
