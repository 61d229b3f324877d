#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input opened for reading: a path, or "-" for standard input. Reads raw bytes and counts
/// them for progress and for error offsets.
public final class InputFile {
    /// The input as the user named it.
    public let name: String
    /// The size in bytes for a regular file; nil for pipes and terminals.
    public let size: Int?
    /// Raw bytes read so far.
    public private(set) var bytesRead = 0
    /// Called with every run of raw bytes as it is read (to hash the input, say).
    public var observer: ((UnsafeRawBufferPointer) -> Void)?
    private let descriptor: Int32
    /// Bytes `peek` read that the next reads return first (already counted and observed).
    private var unread: [UInt8] = []
    /// The offset in the input of the next byte a read returns.
    public var position: Int { bytesRead - unread.count }

    /// Opens `name` ("-" is standard input).
    public init(_ name: String) throws(OSMInputError) {
        self.name = name
        if name == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(name, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw OSMInputError(.unreadable, file: name, String(cString: strerror(errno)))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw OSMInputError(.unreadable, file: name, String(cString: strerror(errno)))
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            if name != "-" { close(descriptor) }
            throw OSMInputError(.unreadable, file: name, "is a directory")
        }
        size = type == S_IFREG ? Int(status.st_size) : nil
    }

    /// Opens the regular file `name` again, from byte `offset` on, as if the bytes before it
    /// had been read (they count in `bytesRead`, so that error offsets are offsets in the file).
    convenience init(_ name: String, from offset: Int) throws(OSMInputError) {
        try self.init(name)
        guard size != nil, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw OSMInputError(.io, file: name, at: .byte(offset), "cannot read it again from here")
        }
        bytesRead = offset
    }

    deinit {
        if name != "-" { close(descriptor) }
    }

    /// The first `count` bytes still to be read (fewer at the end of the input), which the next
    /// reads return again: a pipe cannot be read twice, so the format is told from these.
    public func peek(_ count: Int) throws(OSMInputError) -> [UInt8] {
        if unread.count < count {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count - unread.count, alignment: 1)
            defer { buffer.deallocate() }
            var filled = 0
            while filled < buffer.count {
                let read = try readFromDescriptor(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if read == 0 { break }
                filled += read
            }
            unread += buffer[..<filled]
        }
        return Array(unread.prefix(count))
    }

    /// Reads up to `buffer.count` bytes; returns 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        guard unread.isEmpty else {
            let count = min(unread.count, buffer.count)
            buffer.copyBytes(from: unread[..<count])
            unread.removeFirst(count)
            return count
        }
        return try readFromDescriptor(into: buffer)
    }

    /// Reads up to `buffer.count` new bytes from the descriptor, counting and observing them.
    private func readFromDescriptor(into buffer: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        while true {
            #if canImport(Glibc)
                let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
                let count = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if count >= 0 {
                bytesRead += count
                observer?(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                return count
            }
            if errno != EINTR {
                throw OSMInputError(.io, file: name, at: .byte(bytesRead), String(cString: strerror(errno)))
            }
        }
    }

    /// Fills `buffer` as far as the input allows (short only at the end); returns the count.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
