/// How the process's allocator keeps or returns freed memory, where the C library is glibc
/// (elsewhere these do nothing). Its functions are looked up when first used (`CSymbol`):
/// Glibc's Swift module has neither `malloc_trim` nor `mallopt`.
public enum ProcessMemory {
    /// Gives the memory freed so far back to the system (`malloc_trim`), from every thread's
    /// arena: a build calls it after reading, so that the spot candidates are not made on top of
    /// what the reader's threads freed (the ring, the batches).
    public static func releaseFreed() {
        _ = mallocTrim?(0)
    }

    /// Prepares the process to answer many requests one after another (`--batch`, a server):
    /// the memory a request frees is kept for the next one.
    ///
    /// By default glibc hands a freed buffer of more than about a megabyte back to the kernel (it
    /// was mapped on its own, or it ends the heap), and the next request maps it again: a page
    /// fault per 4 KiB, each page zeroed. A whole-world viewport clustered at query time frees
    /// about 15 MB of spots, points and grid, and faulting it in again took a third of its time.
    /// With glibc's mmap threshold at its most (32 MiB) and trimming only above 1 GiB, the heap
    /// keeps those buffers; the process holds the memory of its largest request.
    public static func keepFreedForNextRequests() {
        guard let mallopt else { return }
        let (trimThreshold, mmapThreshold): (Int32, Int32) = (-1, -3)  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
        _ = mallopt(mmapThreshold, 32 << 20)
        _ = mallopt(trimThreshold, 1 << 30)
    }

    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = CSymbol.function(named: "malloc_trim")
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = CSymbol.function(named: "mallopt")
}
