/// The bytes of one section of a mapped index, or of a stretch of one, read through checks: the
/// one type in SpotIndex that touches the file's memory.
///
/// As swift-collections confines `Deque`'s unsafe code to one handle, SpotIndex confines the
/// mapped file to this file. A view is immutable, and every initialiser establishes its
/// invariants:
/// - `buffer` lies inside the mapped file, which outlives the view: a view is valid while the
///   `SpotIndexReader` that made it lives;
/// - a view cut by `subrange` lies inside the view it was cut from;
/// - `start` is where the view begins in its section, and serves only to word errors.
///
/// Reads that would leave the view throw `IndexError(.corrupt)` naming the section. Three fast
/// paths for hot loops read without a bounds check per read, each covered by a check made when
/// its reader was made, as each states: a field of a `RecordTable` (whose length was checked to
/// be a whole number of records), a byte of a `VarintReader` and a byte of an `Iterator` (each
/// below an end inside the view). Their raw loads are `fileprivate`, so this file is all there
/// is to audit. Two references elsewhere are unsafe on like terms: a `RankList` names the
/// bytes it lies in (`RankListBytes`, for its errors) unmanaged, valid while the reader
/// that made it lives, as its bytes are; and a list held in memory points into the `HeldRanks`
/// that made it, read only while its reader keeps that (`CandidateRun.held`), never past its
/// count.
struct SectionBytes: Sequence {
    /// The index as the user named it, for errors.
    let file: String
    /// The section's tag ("SPOT"), or "header" for the whole file, for errors.
    let name: String
    /// Where the view begins in its section, for errors.
    let start: Int
    fileprivate let buffer: UnsafeRawBufferPointer

    /// A view of `buffer`, named `name` in errors about `file`; `buffer` must stay mapped and
    /// unchanged while the view lives.
    init(_ buffer: UnsafeRawBufferPointer, file: String, name: String) {
        self.init(buffer, file: file, name: name, start: 0)
    }

    private init(_ buffer: UnsafeRawBufferPointer, file: String, name: String, start: Int) {
        self.buffer = buffer
        self.file = file
        self.name = name
        self.start = start
    }

    /// How many bytes the view holds.
    var count: Int { buffer.count }

    /// All of them, for a copy of the view's bytes.
    var underestimatedCount: Int { count }

    /// The little-endian integer at `offset`; throws when it does not lie inside the view.
    func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) throws(IndexError) -> T {
        guard offset >= 0, offset <= count - MemoryLayout<T>.size else {
            throw outside(offset, offset &+ MemoryLayout<T>.size)
        }
        return loadLittleEndian(buffer, at: offset)
    }

    /// The `UInt32` at `offset`; throws when it does not lie inside the view.
    func uint32(at offset: Int) throws(IndexError) -> UInt32 {
        try load(UInt32.self, at: offset)
    }

    /// The bytes from `lower` up to `upper` (the end when nil), as a view named `name` (this
    /// view's name when nil, counting from this view's start); throws when they do not lie
    /// inside this view.
    func subrange(from lower: Int, to upper: Int? = nil, named name: String? = nil) throws(IndexError) -> SectionBytes {
        let upper = upper ?? count
        guard lower >= 0, lower <= upper, upper <= count else { throw outside(lower, upper) }
        return SectionBytes(
            UnsafeRawBufferPointer(rebasing: buffer[lower..<upper]), file: file, name: name ?? self.name,
            start: name == nil ? start + lower : 0)
    }

    /// Throws unless the view is a whole number of records of `size` bytes.
    func requireWholeRecords(of size: Int) throws(IndexError) {
        guard count % size == 0 else { throw corrupt("length \(count) is not a multiple of \(size)") }
    }

    /// A reader of the varints from `position` up to `end` (the end of the view when nil or past it).
    func varints(from position: Int, to end: Int? = nil) -> VarintReader {
        VarintReader(buffer, from: position, to: Swift.min(end ?? count, count))
    }

    /// The bytes at `positions`, which must lie inside the view (the caller has checked them
    /// against values read from the file).
    func bytes(in positions: Range<Int>) -> Iterator {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= count, "bytes outside the view")
        return Iterator(buffer: buffer, position: positions.lowerBound, end: positions.upperBound)
    }

    /// The bytes of the view, first to last.
    func makeIterator() -> Iterator {
        Iterator(buffer: buffer, position: 0, end: count)
    }

    /// The CRC-32 of the view's bytes, continuing from `crc` (0 to start).
    func crc32(continuing crc: UInt32 = 0) -> UInt32 {
        CRC32.checksum(buffer, continuing: crc)
    }

    /// The CRC-32 of the view's bytes, read `pieceBytes` at a time, `afterPiece` called with the
    /// range of each piece (offsets in the view) once it is read.
    func crc32(pieceBytes: Int, afterPiece: (Range<Int>) -> Void) -> UInt32 {
        var crc: UInt32 = 0
        for start in stride(from: 0, to: count, by: pieceBytes) {
            let piece = start..<Swift.min(count, start + pieceBytes)
            crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[piece]), continuing: crc)
            afterPiece(piece)
        }
        return crc
    }

    /// A corrupt-index error about this view's section.
    func corrupt(_ message: String) -> IndexError {
        IndexError(.corrupt, file: file, section: name, message)
    }

    private func outside(_ lower: Int, _ upper: Int) -> IndexError {
        corrupt("bytes \(start &+ lower)..<\(start &+ upper) lie outside \(start)..<\(start + count)")
    }

    /// Bytes of a view, read in order up to an end.
    ///
    /// Unchecked fast path: `0 <= position` and `end <= buffer.count` hold from the start (the
    /// view's bounds, or `bytes(in:)`'s precondition), and a byte is read only at `position < end`.
    struct Iterator: IteratorProtocol, Sequence {
        fileprivate let buffer: UnsafeRawBufferPointer
        fileprivate var position: Int
        fileprivate let end: Int

        /// The next byte, or nil at the end.
        @inline(__always)
        mutating func next() -> UInt8? {
            guard position < end else { return nil }
            defer { position &+= 1 }
            return loadLittleEndian(buffer, at: position)
        }
    }
}

/// A view checked, when it was made, to hold a whole number of records of `recordSize` bytes;
/// the fixed-size records of an index (SPOT, KIND, REFS, MERG, MRGO, a tree's boxes, block
/// offsets, cluster points and visibility bytes) are read through one.
struct RecordTable {
    /// The records' bytes.
    let bytes: SectionBytes
    /// Bytes per record.
    let recordSize: Int
    /// How many records there are.
    let count: Int

    /// The records of `bytes`; throws unless it is a whole number of them.
    init(_ bytes: SectionBytes, recordSize: Int) throws(IndexError) {
        try bytes.requireWholeRecords(of: recordSize)
        self.bytes = bytes
        self.recordSize = recordSize
        count = bytes.count / recordSize
    }

    /// The little-endian integer at `offset` of record `record`, for hot loops.
    ///
    /// Unchecked fast path: `count * recordSize == bytes.count` (checked by `init`), `record <
    /// count` (the precondition: only a caller's bug can break it, for a caller checks a record
    /// number read from the file before it reads that record) and `offset + size <= recordSize`
    /// (asserted: offsets are the format's constants), so the field lies inside the view.
    @inline(__always)
    func field<T: FixedWidthInteger>(at offset: Int, of record: Int) -> T {
        precondition(UInt(bitPattern: record) < UInt(bitPattern: count), "record number out of range")
        assert(offset >= 0 && offset + MemoryLayout<T>.size <= recordSize, "a field outside its record")
        return loadLittleEndian(bytes.buffer, at: record &* recordSize &+ offset)
    }
}

/// Reads unsigned LEB128 varints (FORMAT.md) from a view, never past the end it was given.
///
/// Unchecked fast path: `0 <= position` (the precondition of `init`) and `end <= buffer.count`
/// (`SectionBytes.varints` clamps it) hold from the start, and a byte is read only at
/// `position < end`.
struct VarintReader {
    private let buffer: UnsafeRawBufferPointer
    /// Where the next varint starts.
    private(set) var position: Int
    /// Where reading stops.
    let end: Int

    fileprivate init(_ buffer: UnsafeRawBufferPointer, from position: Int, to end: Int) {
        precondition(position >= 0, "a varint position before the view")
        self.buffer = buffer
        self.position = position
        self.end = end
    }

    /// Whether every byte up to the end has been read.
    var isAtEnd: Bool { position >= end }

    /// The next varint, or nil when it runs past the end or does not fit 32 bits.
    mutating func next() -> UInt32? {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while position < end, shift < 32 {
            let byte: UInt8 = loadLittleEndian(buffer, at: position)
            position += 1
            value |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}

/// The little-endian integer at `offset` of `buffer`, unchecked: each caller above states why
/// the bytes lie inside `buffer`.
@inline(__always)
private func loadLittleEndian<T: FixedWidthInteger>(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> T {
    assert(offset >= 0 && offset <= buffer.count - MemoryLayout<T>.size, "a read outside the view")
    return T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
}
