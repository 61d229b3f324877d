import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable run of bytes that lives in ordinary memory up to `memoryLimit` bytes and then
/// moves into a memory-mapped temporary file, so that a large input's node locations do not
/// have to fit in RAM: the kernel pages them out and in as it needs.
///
/// The file is created in `TMPDIR` (or /tmp) and unlinked at once, so nothing is left behind
/// whatever happens to the process; its space is reserved with `posix_fallocate` before it is
/// mapped (a write to a page the disk cannot hold would be a SIGBUS). When the file cannot be
/// created or grown, the bytes stay in (or return to) ordinary memory.
final class SpillBuffer {
    /// Bytes kept in ordinary memory before spilling to a file.
    let memoryLimit: Int
    /// The bytes; valid until the next call that grows the buffer.
    private(set) var base: UnsafeMutableRawPointer?
    /// Bytes in use.
    private(set) var count = 0
    private var capacity = 0
    /// The temporary file's descriptor once spilled, else -1.
    private var file: Int32 = -1

    /// An empty buffer that spills beyond `memoryLimit` bytes.
    init(memoryLimit: Int) {
        self.memoryLimit = memoryLimit
    }

    deinit { release() }

    /// Whether the bytes live in a memory-mapped temporary file.
    var isSpilled: Bool { file >= 0 }

    /// Appends the bytes of `value`.
    func append<T: BitwiseCopyable>(_ value: T) {
        let size = MemoryLayout<T>.stride
        if count + size > capacity { grow(to: count + size) }
        base!.advanced(by: count).storeBytes(of: value, as: T.self)
        count += size
    }

    /// Grows the buffer to `newCount` bytes, the new ones set to `fill`'s repeated bytes.
    func resize<T: BitwiseCopyable>(to newCount: Int, fill: T) {
        if newCount > capacity { grow(to: newCount) }
        let size = MemoryLayout<T>.stride
        var offset = count
        while offset + size <= newCount {
            base!.advanced(by: offset).storeBytes(of: fill, as: T.self)
            offset += size
        }
        count = newCount
    }

    /// Frees the memory or the mapping, and closes the file.
    func release() {
        if isSpilled {
            if let base { munmap(base, capacity) }
            close(file)
            file = -1
        } else {
            free(base)
        }
        base = nil
        count = 0
        capacity = 0
    }

    private func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2, 1 << 16)
        if newCapacity > memoryLimit, growFile(to: newCapacity) { return }
        if isSpilled {
            // The file could not grow: the bytes come back to memory.
            let memory = malloc(newCapacity)!
            memcpy(memory, base!, count)
            munmap(base!, capacity)
            close(file)
            file = -1
            base = memory
        } else {
            base = realloc(base, newCapacity)!
        }
        capacity = newCapacity
    }

    /// Moves the bytes into (or grows) the mapped file; false when that fails.
    private func growFile(to newCapacity: Int) -> Bool {
        if !isSpilled {
            guard let descriptor = Self.temporaryFile() else { return false }
            guard Self.reserve(descriptor, newCapacity),
                let mapping = Self.map(descriptor, newCapacity)
            else {
                close(descriptor)
                return false
            }
            if let base { memcpy(mapping, base, count) }
            free(base)
            base = mapping
            file = descriptor
        } else {
            guard Self.reserve(file, newCapacity) else { return false }
            munmap(base!, capacity)
            guard let mapping = Self.map(file, newCapacity) else {
                // The old contents are still in the file: map them back at the old size.
                base = Self.map(file, capacity)!
                return false
            }
            base = mapping
        }
        capacity = newCapacity
        return true
    }

    /// Gives the file `size` bytes of disk space (not a sparse hole), so that writes through the
    /// mapping cannot fail.
    private static func reserve(_ descriptor: Int32, _ size: Int) -> Bool {
        #if os(Linux)
            return posix_fallocate(descriptor, 0, off_t(size)) == 0
        #else
            return ftruncate(descriptor, off_t(size)) == 0
        #endif
    }

    private static func map(_ descriptor: Int32, _ size: Int) -> UnsafeMutableRawPointer? {
        let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        return mapping == MAP_FAILED ? nil : mapping
    }

    /// A new temporary file, already unlinked.
    private static func temporaryFile() -> Int32? {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/spots-locations.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
}
