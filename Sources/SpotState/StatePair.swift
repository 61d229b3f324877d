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
    /// value completes the pair once the index is committed. `write` writes the state's sections
    /// (its base file first, when it writes a new one) and returns the base its state names.
    public static func prepare(
        forIndex index: String, identity: [UInt8], write: (StatePairWriter) throws -> BaseReference
    ) throws -> PendingState {
        let statePath = path(forIndex: index)
        let output = try AtomicOutput(path: statePath + ".next")
        let pair = StatePairWriter(statePath: statePath, output: output)
        do {
            let base = try write(pair)
            try pair.state.finish(identity: identity)
            try output.commit()
            return PendingState(pending: statePath + ".next", final: statePath, base: base, newBase: pair.newBase)
        } catch {
            output.discard()
            if let written = pair.newBase { unlink(written) }
            throw error
        }
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

/// Writes a state and, when an update compacts its overlay or a build starts one, a new base file.
public final class StatePairWriter {
    /// The state's writer.
    public let state: StateWriter
    private let statePath: String
    /// The base file this publish wrote, if any.
    private(set) var newBase: String?

    init(statePath: String, output: AtomicOutput) {
        self.statePath = statePath
        state = StateWriter { bytes throws(OutputError) in try output.write(bytes) }
    }

    /// Writes a new base file beside the state, NAME.base-G.state (G one more than any there),
    /// with `body`, committed, with a fresh random token as its identity; returns its reference.
    public func writeBase(_ body: (StateWriter) throws -> Void) throws -> BaseReference {
        let name = nextBaseName()
        var generator = SystemRandomNumberGenerator()
        let token = (0..<StateLayout.identitySize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let output = try AtomicOutput(path: folder + "/" + name)
        let writer = StateWriter { bytes throws(OutputError) in try output.write(bytes) }
        try body(writer)
        try writer.finish(identity: token)
        try output.commit()
        newBase = folder + "/" + name
        return BaseReference(name: name, token: token)
    }

    /// The base file at `path` (`reference`) as this state's own: itself when it lies beside the
    /// state under the state's name, else a hard link to it (a copy across file systems) named
    /// as `writeBase` names a new one. Base files are never changed once written, so two names
    /// of one may outlive each other.
    public func adopt(_ path: String, _ reference: BaseReference) throws -> BaseReference {
        let url = URL(fileURLWithPath: path)
        guard
            url.deletingLastPathComponent().standardizedFileURL.path
                != URL(fileURLWithPath: folder).standardizedFileURL.path
                || !reference.name.hasPrefix(stem)
        else { return reference }
        let name = nextBaseName()
        let target = folder + "/" + name
        if link(path, target) != 0 {
            do {
                try FileManager.default.copyItem(atPath: path, toPath: target)
            } catch {
                throw OutputError(kind: .cannotCreate, file: target, message: "cannot link or copy \(path) to it")
            }
        }
        newBase = target
        return BaseReference(name: name, token: reference.token)
    }

    private var folder: String { URL(fileURLWithPath: statePath).deletingLastPathComponent().path }
    /// What base files' names start with: NAME.base-.
    private var stem: String { URL(fileURLWithPath: statePath).deletingPathExtension().lastPathComponent + ".base-" }

    /// NAME.base-G.state, G one more than any beside the state.
    private func nextBaseName() -> String {
        let generations = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap {
            $0.hasPrefix(stem) && $0.hasSuffix(".state") ? Int($0.dropFirst(stem.count).dropLast(6)) : nil
        }
        return stem + String((generations.max() ?? 0) + 1) + ".state"
    }
}

/// A state committed as NAME.state.next, waiting for its index to be committed.
public struct PendingState {
    let pending: String
    let final: String
    /// The base the state names.
    let base: BaseReference
    /// The base file this publish wrote, if any.
    let newBase: String?

    /// Renames the state into place, once its index is committed, then removes the base files
    /// beside it that it does not name (those of earlier builds and compactions); throws
    /// `OutputError` (exit 74).
    public func finish() throws(OutputError) {
        guard rename(pending, final) == 0 else {
            throw OutputError(kind: .io, file: final, message: String(cString: strerror(errno)))
        }
        let url = URL(fileURLWithPath: final)
        let folder = url.deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        let stem = url.deletingPathExtension().lastPathComponent + ".base-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(stem) && name.hasSuffix(".state") && name != base.name {
            unlink(folder + "/" + name)
        }
    }

    /// Removes the pending state and the base file it wrote: its index was not committed.
    public func discard() {
        unlink(pending)
        if let newBase { unlink(newBase) }
    }
}
