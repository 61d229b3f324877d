import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The published index and the generations kept before it: NAME.spots (current), NAME.1.spots
/// (the one before), … up to `keep` files in all; beside them NAME.rejected.spots (the last
/// build a gate refused) and NAME.rolledback.spots (the last one `--rollback` replaced).
///
/// The current path always holds a good index: the old one is hard-linked to NAME.1.spots
/// first, then the new one is renamed over the current path, which is atomic.
struct Generations {
    /// The published path, NAME.spots.
    let current: String
    /// How many generations to keep, the current one included (at least 1).
    let keep: Int
    private let directory: String
    private let name: String

    init(output: String, keep: Int) {
        current = output
        self.keep = max(1, keep)
        let url = URL(fileURLWithPath: output)
        directory = url.deletingLastPathComponent().path
        name = url.pathExtension == "spots" ? url.deletingPathExtension().lastPathComponent : url.lastPathComponent
    }

    /// Generation `number`: 0 is the current index, 1 the one before, …
    func path(_ number: Int) -> String { number == 0 ? current : "\(directory)/\(name).\(number).spots" }
    /// Where a build that a gate refused is kept.
    var rejected: String { "\(directory)/\(name).rejected.spots" }
    /// Where the index that `--rollback` replaced is kept.
    var rolledBack: String { "\(directory)/\(name).rolledback.spots" }
    /// Where the report of a build that a gate refused is kept (the report's JSON).
    var rejectedReport: String { "\(directory)/\(name).rejected.json" }
    /// Where every run records how it ended (`RefreshStatus`).
    var status: String { "\(directory)/\(name).status.json" }
    /// The pipeline's name: the output's file name without `.spots`.
    var pipelineName: String { name }
    /// Where a new build waits for the gates.
    var candidate: String { "\(directory)/.\(name).candidate.spots" }

    /// Makes `file` (beside the output) the current index, shifting the others down one
    /// generation and dropping the oldest beyond `keep`.
    func publish(_ file: String) throws(RefreshError) {
        if FileManager.default.fileExists(atPath: current) {
            try shift(from: 1)
            if keep > 1 { try hardLink(current, to: path(1)) }
        }
        try move(file, to: current)
        syncDirectory()
    }

    /// Makes generation 1 current again, keeping the replaced index as NAME.rolledback.spots.
    func rollback() throws(RefreshError) {
        guard FileManager.default.fileExists(atPath: path(1)) else {
            throw RefreshError(.nothingToRollBack, file: current, "no previous generation (\(path(1))) to roll back to")
        }
        if FileManager.default.fileExists(atPath: current) { try hardLink(current, to: rolledBack) }
        try move(path(1), to: current)
        for number in stride(from: 2, to: keep, by: 1) where FileManager.default.fileExists(atPath: path(number)) {
            try move(path(number), to: path(number - 1))
        }
        syncDirectory()
    }

    /// Moves generations `first`, `first + 1`, … one down, the last kept one dropped.
    private func shift(from first: Int) throws(RefreshError) {
        for number in stride(from: keep - 1, through: first, by: -1)
        where FileManager.default.fileExists(atPath: path(number)) {
            if number + 1 < keep {
                try move(path(number), to: path(number + 1))
            } else {
                unlink(path(number))
            }
        }
    }

    /// Renames `source` over `target`, atomically.
    func move(_ source: String, to target: String) throws(RefreshError) {
        guard rename(source, target) == 0 else { throw failure(target, "cannot rename \(source) to it") }
    }

    /// Makes `target` a second name of `source`, replacing `target` atomically.
    private func hardLink(_ source: String, to target: String) throws(RefreshError) {
        let temporary = target + ".link.\(getpid())"
        unlink(temporary)
        guard link(source, temporary) == 0 else { throw failure(target, "cannot link \(source) to it") }
        try move(temporary, to: target)
    }

    private func syncDirectory() {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private func failure(_ file: String, _ what: String) -> RefreshError {
        RefreshError(.cannotPublish, file: file, "\(what): \(String(cString: strerror(errno)))")
    }
}
