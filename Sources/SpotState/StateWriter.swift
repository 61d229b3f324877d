import CZlib
import Foundation
import SpotOutput

/// Writes a state file section by section (`StateLayout`): each section's bytes, padded to the
/// alignment, then its block CRCs; after the last, the section table and the trailer. Bytes are
/// gathered in a buffer of 1 MiB and handed to `sink` a buffer at a time, so that a state of
/// any size is written in bounded memory.
public final class StateWriter {
    private struct Entry {
        var tag: UInt32
        var offset: Int
        var length: Int
        var checksums: Int
    }

    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var buffer: [UInt8] = []
    private var written = 0
    private var entries: [Entry] = []
    /// The open section: its tag, start, and the CRCs of its finished blocks and of the current one.
    private var open: (tag: UInt32, start: Int, crcs: [UInt32], crc: UInt32, inBlock: Int)?

    /// A writer handing its bytes, in order, to `sink`.
    public init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        buffer.reserveCapacity(1 << 20)
    }

    /// Starts section `name` (four letters).
    public func beginSection(_ name: String) throws {
        precondition(open == nil, "StateWriter.beginSection inside a section")
        try pad()
        open = (StateLayout.tag(name), position, [], 0, 0)
    }

    /// Appends `bytes` to the open section.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(open != nil, "StateWriter.write outside a section")
        var rest = bytes
        while !rest.isEmpty {
            let take = min(rest.count, StateLayout.blockSize - open!.inBlock)
            let part = UnsafeRawBufferPointer(rebasing: rest[..<take])
            open!.crc = UInt32(
                crc32(uLong(open!.crc), part.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(take)))
            open!.inBlock += take
            if open!.inBlock == StateLayout.blockSize {
                open!.crcs.append(open!.crc)
                open!.crc = 0
                open!.inBlock = 0
            }
            try emit(part)
            rest = UnsafeRawBufferPointer(rebasing: rest[take...])
        }
    }

    /// Appends `bytes` to the open section.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends the bytes of `values`, trivial values such as `SparseNodeLayout.Entry`.
    public func write<Value: BitwiseCopyable>(_ values: [Value]) throws {
        try values.withUnsafeBytes { try write($0) }
    }

    /// Writes section `name` (four letters) whole: the bytes of `values`.
    public func writeSection<Value: BitwiseCopyable>(_ name: String, _ values: [Value]) throws {
        try beginSection(name)
        try write(values)
        try endSection()
    }

    /// Ends the open section: its length recorded, its CRCs written after it.
    public func endSection() throws {
        guard var section = open else { preconditionFailure("StateWriter.endSection outside a section") }
        open = nil
        let length = position - section.start
        if section.inBlock > 0 { section.crcs.append(section.crc) }
        try pad()
        let checksums = position
        try section.crcs.withUnsafeBytes { try emit($0) }
        entries.append(Entry(tag: section.tag, offset: section.start, length: length, checksums: checksums))
    }

    /// Writes the section table and the trailer pairing the state with the index whose first
    /// 32 bytes are `identity`, and hands over the last bytes.
    public func finish(identity: [UInt8]) throws {
        precondition(open == nil && identity.count == StateLayout.identitySize)
        try pad()
        let tableOffset = position
        var table: [UInt8] = []
        for entry in entries {
            table.appendLittleEndian(entry.tag)
            table.appendLittleEndian(UInt32(0))
            table.appendLittleEndian(UInt64(entry.offset))
            table.appendLittleEndian(UInt64(entry.length))
            table.appendLittleEndian(UInt64(entry.checksums))
        }
        try table.withUnsafeBytes { try emit($0) }
        var trailer = StateLayout.magic
        trailer.appendLittleEndian(StateLayout.version)
        trailer.appendLittleEndian(UInt32(entries.count))
        trailer.appendLittleEndian(UInt64(tableOffset))
        trailer.appendLittleEndian(UInt64(position + StateLayout.trailerSize))
        trailer.appendLittleEndian(
            table.withUnsafeBytes {
                UInt32(crc32(0, $0.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt($0.count)))
            })
        trailer.appendLittleEndian(UInt32(StateLayout.blockSize))
        trailer += identity
        try trailer.withUnsafeBytes { try emit($0) }
        try flush()
    }

    private var position: Int { written + buffer.count }

    private func pad() throws {
        let padding = (StateLayout.alignment - position % StateLayout.alignment) % StateLayout.alignment
        if padding > 0 { try [UInt8](repeating: 0, count: padding).withUnsafeBytes { try emit($0) } }
    }

    private func emit(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > buffer.capacity { try flush() }
        if bytes.count >= buffer.capacity {
            try sink(bytes)
            written += bytes.count
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink($0) }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}

extension [UInt8] {
    /// Appends `value`'s bytes, least significant first.
    mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
