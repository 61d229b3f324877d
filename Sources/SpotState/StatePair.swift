import Foundation
import SpotOutput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An index and its state, published together: NAME.spots and NAME.state beside it.
///
/// Two renames cannot be one, so the pair is published in an order a crash cannot turn into a
/// mismatched pair that is used: the new state is written and committed as NAME.state.next; the
/// index is committed (the pair's commit point); NAME.state.next is renamed over NAME.state.
/// Opening the state of an index (`open(forIndex:)`) takes NAME.state when its trailer names the
/// index, else NAME.state.next when that one does (a crash came between the last two steps: the
/// rename is finished then), and otherwise refuses. A NAME.state.next that names no index is a
/// crash before the commit point, and the next publish replaces it.
public enum StatePair {
    /// The state file of the index at `index`: its name with `.spots` replaced by `.state`
    /// (`.state` added when it has no `.spots`).
    public static func path(forIndex index: String) -> String {
        (index.hasSuffix(".spots") ? String(index.dropLast(6)) : index) + ".state"
    }

    /// Writes the state of the index about to be committed at `index`, whose first 32 bytes are
    /// `identity`, with `write`, and commits it as NAME.state.next; `finish()` of the returned
    /// value completes the pair once the index is committed.
    public static func prepare(
        forIndex index: String, identity: [UInt8], write: (StateWriter) throws -> Void
    ) throws -> PendingState {
        let pending = path(forIndex: index) + ".next"
        let output = try AtomicOutput(path: pending)
        let writer = StateWriter { bytes throws(OutputError) in try output.write(bytes) }
        try write(writer)
        try writer.finish(identity: identity)
        try output.commit()
        return PendingState(pending: pending, final: path(forIndex: index))
    }

    /// The state of the index at `index`, checked to be its pair (finishing a publish a crash
    /// cut between its last two steps); throws `StateError`.
    public static func open(forIndex index: String) throws(StateError) -> StateFile {
        let statePath = path(forIndex: index)
        let head: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: index))
            defer { try? handle.close() }
            head = Array(try handle.read(upToCount: StateLayout.identitySize) ?? Data())
        } catch {
            throw StateError(.unreadable, file: index, "cannot read the index")
        }
        let state: StateFile
        do {
            state = try StateFile(path: statePath)
            try state.checkPair(indexHead: head, index: index)
            return state
        } catch {
            let pending = statePath + ".next"
            guard let next = try? StateFile(path: pending), (try? next.checkPair(indexHead: head, index: index)) != nil,
                rename(pending, statePath) == 0
            else {
                if error.kind == .unreadable, !FileManager.default.fileExists(atPath: statePath) {
                    throw StateError(
                        .unreadable, file: statePath,
                        "no state beside \(index): build it with --keep-state to update it from change files")
                }
                throw error
            }
            return try StateFile(path: statePath)
        }
    }
}

/// A state committed as NAME.state.next, waiting for its index to be committed.
public struct PendingState {
    let pending: String
    let final: String

    /// Renames the state into place, once its index is committed; throws `OutputError` (exit 74).
    public func finish() throws(OutputError) {
        guard rename(pending, final) == 0 else {
            throw OutputError(kind: .io, file: final, message: String(cString: strerror(errno)))
        }
        let folder = open(URL(fileURLWithPath: final).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Removes the pending state: its index was not committed.
    public func discard() {
        unlink(pending)
    }
}
