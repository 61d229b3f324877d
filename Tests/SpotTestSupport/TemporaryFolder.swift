import Foundation

/// A fresh, empty folder in the system's temporary folder, for one test; `remove()` deletes it
/// with everything in it.
public struct TemporaryFolder: Sendable {
    /// Where the folder is.
    public let url: URL

    /// Makes the folder, named `label` and a UUID, so that one left behind says which tests made it.
    public init(_ label: String = "spots-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(label + "-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `bytes` as the file `name` and returns its path.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        try Data(bytes).write(to: url.appendingPathComponent(name))
        return path(name)
    }

    /// Writes `text` as the file `name`, in UTF-8, and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    /// The text of the file `name`, or nil when there is none.
    public func contents(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }

    /// Deletes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Calls `body` with a fresh temporary folder, removed when `body` returns.
public func withTemporaryFolder<T>(_ body: (TemporaryFolder) throws -> T) throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    return try body(folder)
}

/// Calls `body` with the path of a file holding `bytes`, named `name` in a fresh temporary
/// folder removed when `body` returns.
public func withTemporaryFile<T>(
    _ bytes: [UInt8], named name: String = "test.spots", _ body: (String) throws -> T
) throws -> T {
    try withTemporaryFolder { folder in try body(try folder.write(bytes, to: name)) }
}

/// One scratch file, rewritten for each of many variants: `body` gets a function that replaces
/// the file's contents and returns its path. The file's folder is removed when `body` returns.
public func withScratchFile<T>(_ body: ((_ bytes: [UInt8]) throws -> String) throws -> T) throws -> T {
    try withTemporaryFolder { folder in
        let path = folder.path("scratch.spots")
        return try body { bytes in
            // Plain POSIX calls: thousands of variants are written, and Foundation's writes cost more.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
            defer { close(descriptor) }
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
            return path
        }
    }
}
