#if canImport(Glibc)
    import Glibc
#endif

/// Hands a fuzz input to code that reads files: writes the bytes to one temporary file per
/// process in /dev/shm (memory, not disk), rewritten for each input, and calls `body` with its path.
func withTemporaryFile<Result>(_ data: UnsafePointer<UInt8>?, _ size: Int, _ body: (String) -> Result) -> Result {
    let path = "/dev/shm/spots-fuzz-\(getpid())"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0, "cannot write \(path)")
    var offset = 0
    while offset < size {
        let written = write(descriptor, data! + offset, size - offset)
        precondition(written > 0, "cannot write \(path)")
        offset += written
    }
    close(descriptor)
    return body(path)
}
