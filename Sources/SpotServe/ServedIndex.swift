import Foundation
import SpotIndex
import SpotReport
import SpotSearch

/// One index file as the server serves it: opened, every checksum verified as `spots inspect`
/// verifies them, and what its answers read of it once.
public final class LoadedIndex: @unchecked Sendable {
    // Unchecked: every property is immutable; SpotSearch and SpotIndexReader are Sendable.
    public let search: SpotSearch
    /// 1 for the index the server started with, one more for each index it swapped in.
    public let generation: Int
    /// The build time as the metadata gives it (ISO 8601), or nil.
    public let buildTime: String?
    /// What `/v1/index` answers: the inspection as JSON.
    public let description: [UInt8]
    /// The file it was opened from, as the file system named it then.
    let identity: FileIdentity

    /// Opens and verifies `path`; throws `IndexError` for a file that is not a sound index.
    init(path: String, generation: Int) throws {
        identity = try FileIdentity(path: path)
        let index = try SpotIndexReader(path: path)
        let inspection = try IndexInspection(index)
        if let damaged = inspection.damagedSections.first {
            throw IndexError(.corrupt, file: path, section: damaged.name, "checksum mismatch")
        }
        search = try SpotSearch(index: index)
        search.prepare()
        self.generation = generation
        buildTime = try index.metadata().buildTime
        description = try IndexJSON.description(of: index, inspection: inspection)
        // The verification read every page; a server keeps only what its requests touch.
        index.releaseResidentPages()
    }
}

/// Which file a path names: device, inode, size and modification time. A rename over the path
/// (how `spots refresh` and `build -O` publish) changes it.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64

    init(path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw IndexError(.unreadable, file: path, "cannot read: \(String(cString: strerror(errno)))")
        }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}

/// The index a server answers from, swapped for a new one when its path names a new file: a
/// request takes the current `LoadedIndex` once and finishes on it, whatever is swapped in
/// meanwhile (the old mapping lives until its last request lets it go, its pages given back at
/// the swap).
public final class ServedIndex: @unchecked Sendable {
    // Unchecked: `loaded` is read and written under `lock` only.

    /// What a check of the path found.
    public enum Reload: Equatable, Sendable {
        /// The path names the file being served.
        case unchanged
        /// A new file was opened, verified and swapped in.
        case reloaded(generation: Int)
        /// The new file could not be opened or verified; the old one keeps serving.
        case refused(reason: String)
    }

    /// The path served.
    public let path: String
    private let lock = NSLock()
    private var loaded: LoadedIndex
    /// What the path named when it was last refused (nil for a missing file), so that one
    /// damaged or missing file is refused, and reported, once.
    private var refused: FileIdentity??

    /// Serves the index at `path`; throws when it is not a sound index.
    public init(path: String) throws {
        self.path = path
        loaded = try LoadedIndex(path: path, generation: 1)
    }

    /// The index to answer one request from.
    public var current: LoadedIndex { lock.withLock { loaded } }

    /// Swaps in the file the path names now if it is not the one served, nor one refused
    /// before unless `force` (SIGHUP) asks again.
    public func reloadIfChanged(force: Bool = false) -> Reload {
        let served = current
        let named = try? FileIdentity(path: path)
        guard named != served.identity else { return .unchanged }
        if !force, let refused, refused == named { return .unchanged }
        do {
            guard named != nil else { throw IndexError(.unreadable, file: path, "the index is gone") }
            let next = try LoadedIndex(path: path, generation: served.generation + 1)
            lock.withLock {
                loaded = next
                refused = nil
            }
            // Requests still on the old file read it again from the page cache; the process
            // holds one index's pages, not two, while they finish.
            served.search.index.releaseResidentPages()
            return .reloaded(generation: next.generation)
        } catch {
            lock.withLock { refused = .some(named) }
            return .refused(reason: "\(error)")
        }
    }
}
