import Foundation

extension SpotSearch {
    /// Prepares this process to answer many requests one after another (`--batch`, a server):
    /// glibc then keeps the memory a request frees for the next one. Where the C library is not
    /// glibc, this does nothing.
    ///
    /// By default glibc hands a freed buffer of more than about a megabyte back to the kernel (it
    /// was mapped on its own, or it ends the heap), and the next request maps it again: a page
    /// fault per 4 KiB, each page zeroed. A whole-world viewport clustered at query time frees
    /// about 15 MB of spots, points and grid, and faulting it in again took a third of its time.
    /// With glibc's mmap threshold at its most (32 MiB) and trimming only above 1 GiB, the heap
    /// keeps those buffers; the process holds the memory of its largest request.
    public static func keepFreedMemoryForNextRequests() {
        guard let mallopt = Self.mallopt else { return }
        let (trimThreshold, mmapThreshold): (Int32, Int32) = (-1, -3)  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
        _ = mallopt(mmapThreshold, 32 << 20)
        _ = mallopt(trimThreshold, 1 << 30)
    }

    /// glibc's `mallopt`, where the C library has it (it is not in Glibc's Swift module).
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
