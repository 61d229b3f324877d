import CZlib
import Foundation
import SpotIndex

/// A state file opened for reading: mapped, its trailer and section table checked, each section
/// a `CheckedSection` whose blocks are checked when first read.
public final class StateFile: @unchecked Sendable {
    /// The file as the user named it.
    public let path: String
    /// The first 32 bytes of the index the state belongs to.
    public let identity: [UInt8]
    private let mapping: MappedFile
    private var sections: [String: CheckedSection] = [:]

    /// Opens `path` and checks its trailer and table; throws `StateError`.
    public init(path: String) throws(StateError) {
        self.path = path
        do {
            mapping = try MappedFile(path: path)
        } catch {
            throw StateError(.unreadable, file: path, error.message)
        }
        // Sections are read by lookups, a page here and there, or walked a chunk at a time.
        mapping.adviseRandomAccess()
        let bytes = mapping.bytes
        func damaged(_ message: String) -> StateError { StateError(.damaged, file: path, message) }
        let trailerStart = bytes.count - StateLayout.trailerSize
        guard trailerStart >= 0, bytes[trailerStart..<trailerStart + 8].elementsEqual(StateLayout.magic) else {
            throw damaged("not a spots state file (no trailer): truncated, or another kind of file")
        }
        func load<Value: FixedWidthInteger>(_: Value.Type, at offset: Int) -> Value {
            Value(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Value.self))
        }
        let version = load(UInt32.self, at: trailerStart + 8)
        guard version == StateLayout.version else {
            throw damaged("state format version \(version); this program reads version \(StateLayout.version)")
        }
        let count = Int(load(UInt32.self, at: trailerStart + 12))
        let tableOffset = Int(clamping: load(UInt64.self, at: trailerStart + 16))
        guard load(UInt64.self, at: trailerStart + 24) == UInt64(bytes.count) else {
            throw damaged("the file is \(bytes.count) bytes and its trailer says otherwise: truncated or padded")
        }
        guard count <= StateLayout.maxSections, tableOffset >= 0, tableOffset <= trailerStart,
            trailerStart - tableOffset == count * StateLayout.entrySize
        else { throw damaged("the section table is out of place") }
        let table = UnsafeRawBufferPointer(rebasing: bytes[tableOffset..<trailerStart])
        let tableCRC = UInt32(crc32(0, table.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(table.count)))
        guard tableCRC == load(UInt32.self, at: trailerStart + 32) else {
            throw damaged("section table checksum mismatch")
        }
        guard load(UInt32.self, at: trailerStart + 36) == UInt32(StateLayout.blockSize) else {
            throw damaged("unknown checksum block size")
        }
        identity = Array(bytes[trailerStart + 40..<trailerStart + 40 + StateLayout.identitySize])
        for index in 0..<count {
            let entry = tableOffset + index * StateLayout.entrySize
            let name = StateLayout.name(ofTag: load(UInt32.self, at: entry))
            let offset = Int(clamping: load(UInt64.self, at: entry + 8))
            let length = Int(clamping: load(UInt64.self, at: entry + 16))
            let checksums = Int(clamping: load(UInt64.self, at: entry + 24))
            let outside = damaged("section \(name) lies outside the file or twice in its table")
            // Each bound before the arithmetic that relies on it: lengths come from the file.
            guard offset >= 0, length >= 0, length <= tableOffset, offset <= tableOffset - length else { throw outside }
            let blocks = (length + StateLayout.blockSize - 1) / StateLayout.blockSize
            guard offset % StateLayout.alignment == 0, checksums >= offset + length,
                checksums <= tableOffset - 4 * blocks, sections[name] == nil
            else { throw outside }
            sections[name] = CheckedSection(
                name: name, file: path, mapping: mapping, offset: offset, length: length,
                checksums: UnsafeRawBufferPointer(rebasing: bytes[checksums..<checksums + 4 * blocks]))
        }
    }

    /// Gives back the pages of the file that reads made resident: they are read again from the
    /// page cache when next touched, and only those count as this process's memory.
    public func releaseResidentPages() {
        mapping.releaseResidentPages()
    }

    /// Section `name`; throws when the state has none (a damaged file).
    public func section(_ name: String) throws(StateError) -> CheckedSection {
        guard let section = sections[name] else {
            throw StateError(.damaged, file: path, "section \(name) is missing")
        }
        return section
    }

    /// Throws `StateError.mismatched` unless the state belongs to the index whose bytes start
    /// with `indexHead`.
    public func checkPair(indexHead: some Collection<UInt8>, index: String) throws(StateError) {
        guard indexHead.prefix(StateLayout.identitySize).elementsEqual(identity) else {
            throw StateError(
                .mismatched, file: path,
                "is not the state of \(index) (written with another build or update of it); rebuild with --keep-state")
        }
    }
}

/// One section of a state file, its CRC-32 per block checked before the block's first read.
/// Reads go through `bytes(_:)`, `load(_:at:)` and `table(of:)`, each bound-checked; a damaged
/// block throws `StateError.damaged` naming the section.
public final class CheckedSection: @unchecked Sendable {
    /// The four-letter tag.
    public let name: String
    private let file: String
    private let mapping: MappedFile
    private let offset: Int
    private let all: UnsafeRawBufferPointer
    private let checksums: UnsafeRawBufferPointer
    /// Whether each block was checked.
    private var checked: [Bool]

    init(
        name: String, file: String, mapping: MappedFile, offset: Int, length: Int, checksums: UnsafeRawBufferPointer
    ) {
        self.name = name
        self.file = file
        self.mapping = mapping
        self.offset = offset
        all = UnsafeRawBufferPointer(rebasing: mapping.bytes[offset..<offset + length])
        self.checksums = checksums
        checked = Array(repeating: false, count: checksums.count / 4)
    }

    /// Calls `body` with the section's bytes about a megabyte at a time, in whole entries of
    /// `stride` bytes, checked, giving their pages back after the call: a pass over a section
    /// of any size keeps a megabyte resident.
    public func forEachChunk(ofEntries stride: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let chunk = max(1, (1 << 20) / stride) * stride
        var start = 0
        while start < count {
            let end = min(count, start + chunk)
            try body(try bytes(start..<end))
            mapping.releaseResidentPages(offset: offset + start, length: end - start)
            start = end
        }
    }

    /// The section's length in bytes.
    public var count: Int { all.count }

    /// Bytes `range` of the section, their blocks checked; throws when out of bounds or damaged.
    public func bytes(_ range: Range<Int>) throws(StateError) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= all.count else {
            throw damage("a read past the end of the section")
        }
        guard !range.isEmpty else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        for block in range.lowerBound / StateLayout.blockSize...(range.upperBound - 1) / StateLayout.blockSize
        where !checked[block] {
            let start = block * StateLayout.blockSize
            let part = UnsafeRawBufferPointer(rebasing: all[start..<min(all.count, start + StateLayout.blockSize)])
            let crc = UInt32(crc32(0, part.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(part.count)))
            guard crc == UInt32(littleEndian: checksums.loadUnaligned(fromByteOffset: 4 * block, as: UInt32.self))
            else {
                throw damage("checksum mismatch in bytes \(start)..<\(start + part.count)")
            }
            checked[block] = true
        }
        return UnsafeRawBufferPointer(rebasing: all[range])
    }

    /// The whole section, every block checked.
    public func whole() throws(StateError) -> UnsafeRawBufferPointer { try bytes(0..<count) }

    /// The section as `count / stride` values of `Value`, every block checked; throws when its
    /// length is not a whole number of them or it is not aligned for them.
    public func table<Value: BitwiseCopyable>(of _: Value.Type) throws(StateError) -> UnsafeBufferPointer<Value> {
        let bytes = try whole()
        guard count % MemoryLayout<Value>.stride == 0,
            Int(bitPattern: bytes.baseAddress) % MemoryLayout<Value>.alignment == 0
        else { throw damage("its length is not a whole number of entries") }
        return bytes.assumingMemoryBound(to: Value.self)
    }

    /// Value `index` of the section read as a table of `Value`, its block checked.
    public func load<Value: BitwiseCopyable>(_: Value.Type, at index: Int) throws(StateError) -> Value {
        let stride = MemoryLayout<Value>.stride
        return try bytes(index * stride..<(index + 1) * stride).loadUnaligned(as: Value.self)
    }

    /// An error naming the section.
    func damage(_ message: String) -> StateError {
        StateError(.damaged, file: file, "section \(name): \(message)")
    }
}
