#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only into memory: opening costs the same whatever the file's size,
/// and pages are read only when touched.
package final class MappedFile: @unchecked Sendable {
    /// The file's bytes. Immutable for the object's lifetime.
    package let bytes: UnsafeRawBufferPointer

    /// Maps `path`, or throws `IndexError.unreadable` with the system's reason.
    package init(path: String) throws(IndexError) {
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

    /// Tells the kernel that reads will be scattered: a page fault then maps that page alone,
    /// not the pages around it that a sequential reader would want (fault-around), so that a
    /// few thousand lookups in a large file make a few thousand pages resident, not a hundred
    /// times more.
    package func adviseRandomAccess() {
        guard let address = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: address), bytes.count, Int32(MADV_RANDOM))
    }

    /// Gives back the pages of bytes `offset ..< offset + length` (the whole file by default)
    /// that this process has made resident, as a pass over the whole file does: the mapping is
    /// read-only and never written, so they are read again from the page cache when next
    /// touched, and only those count as this process's memory.
    package func releaseResidentPages(offset: Int = 0, length: Int? = nil) {
        guard let address = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = max(0, offset) / page * page
        let end = min(bytes.count, offset + (length ?? bytes.count))
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: address + start), end - start, Int32(MADV_DONTNEED))
    }

    deinit {
        if let address = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: address), bytes.count) }
    }

    private static func failure(_ path: String) -> IndexError {
        IndexError(.unreadable, file: path, String(cString: strerror(errno)))
    }
}
