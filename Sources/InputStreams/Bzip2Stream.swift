import CBzip2

/// One bzip2 block as the scanning thread cut it: a stream of its own (`BitWriter.stream`).
struct Bzip2Block: PipelineWork {
    var index: Int
    var slot: Int
    /// The block behind a stream header, with an end magic and its CRC.
    var stream: [UInt8]
    /// How many bits of the file it holds, from its magic on (bit 32 of `stream`).
    var bits: Int
    /// The CRC after its magic, and its stream's level.
    var crc: UInt32
    var level: UInt8
    /// When it is the last block of its stream, the stream's combined CRC.
    var streamCRC: UInt32?
    /// The offset in the file of the byte where the block starts, for errors.
    var offset: Int
    /// Raw bytes read from the input when it was cut, for progress.
    var rawBytesRead: Int

    /// Its bits, as the file holds them.
    func append(to writer: inout BitWriter) {
        writer.append(BitReader(bytes: stream), from: 32, count: bits)
    }
}

/// What decoding a block gave: its bytes, or what is wrong with it.
struct Bzip2Result {
    var bytes: [UInt8] = []
    var error: OSMInputError?
}

/// The XML inside a bzip2 file, every stream in turn, decoded block by block on `threads`
/// threads (`Bzip2Magic` says how blocks are found and decoded apart) and handed over in order.
///
/// A scanning thread reads the file, finds the blocks and checks each stream's structure: its
/// header, its end, and that nothing but another stream follows. Decoding threads decode the
/// blocks with libbz2, which checks each block's CRC. The caller's `read` hands over the bytes
/// in order, checks each stream's combined CRC against its blocks', and joins a block that does
/// not decode with those after it (`recover`: a magic found by chance inside a block); an
/// error comes after the bytes before it. A block longer than `maxBlockBytes` compressed is
/// refused: no bzip2 writer makes one (900 kB of input is the largest block), and garbage would
/// otherwise be read without end.
final class Bzip2Stream: InflatedBytes {
    /// The longest block read, in compressed bytes.
    static let maxBlockBytes = 2 << 20
    /// The most blocks joined to recover one cut by a magic found by chance.
    static let maxJoined = 4
    private let pipeline: ReadPipeline<Bzip2Block, Bzip2Result>
    private let fileName: String
    /// Whether the caller's thread decodes the blocks (one thread), not decoding threads.
    private let decodesInline: Bool
    private var current: [UInt8] = []
    private var currentOffset = 0
    private var pendingError: OSMInputError?
    private var ended = false
    /// An item taken from the pipeline while recovering a block, to be handled next.
    private var lookahead: PipelineItem<Bzip2Block>?
    /// The combined CRC of the current stream's blocks handed over so far.
    private var combined: UInt32 = 0
    /// Raw bytes read when the block being handed over was cut, or at the end.
    private(set) var rawBytesRead = 0

    /// Blocks cut and not yet handed over, at most: eight per decoding thread, and two for the
    /// scanning thread and the caller. Blocks take different times to decode, and the XML
    /// parsers compete with the decoders for the same cores; with one block per thread (as
    /// before) the decoders waited for the block being handed over more often: metro16's bzip2
    /// build took about 10% longer in most interleaved rounds on two cores. Eight hold at most
    /// about 7 MB of decoded XML per thread.
    static func blocksInFlight(threads: Int) -> Int {
        8 * threads + 2
    }

    /// Starts reading `file` (from its first byte, a stream header) on a scanning thread, with
    /// `threads` decoding threads (with 1, the caller's thread decodes).
    init(_ file: InputFile, threads: Int) {
        pipeline = ReadPipeline(slots: Self.blocksInFlight(threads: threads))
        fileName = file.name
        decodesInline = threads == 1
        let scanner = Handover(value: Bzip2Scanner(input: file, pipeline: pipeline, parallel: threads > 1))
        pipeline.spawn { scanner.value.run() }
        if threads > 1 {
            for _ in 0..<threads {
                pipeline.spawn { [pipeline, name = file.name] in
                    while let block = pipeline.nextWork() {
                        pipeline.finish(block, result: Self.decode(block, file: name))
                    }
                }
            }
        }
    }

    deinit {
        pipeline.stop()
    }

    /// Fills `output` with the next bytes; returns 0 after the last stream (`InflatedBytes`).
    func read(into output: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        while currentOffset == current.count {
            if let pendingError { throw pendingError }
            if ended { return 0 }
            let item = lookahead ?? pipeline.nextItem()
            lookahead = nil
            switch item {
            case .work(let block):
                var (result, last) = (take(block), block)
                if let error = result.error { (result.bytes, last) = try recover(block, error) }
                rawBytesRead = last.rawBytesRead
                combined = (combined << 1 | combined >> 31) ^ block.crc
                if let stored = last.streamCRC {
                    guard stored == combined else {
                        throw OSMInputError(
                            .malformed, file: fileName, at: .byte(last.offset),
                            "corrupt bzip2 data (the stream's CRC does not match its blocks')")
                    }
                    combined = 0
                }
                current = result.bytes
                currentOffset = 0
            case .failure(let error):
                pendingError = error
            case .end(let inputBytes, _):
                rawBytesRead = inputBytes
                ended = true
            }
        }
        let count = min(output.count, current.count - currentOffset)
        current.withUnsafeBytes { bytes in
            output.baseAddress!.copyMemory(from: bytes.baseAddress! + currentOffset, byteCount: count)
        }
        currentOffset += count
        return count
    }

    /// What decoding `block` gave, its slot freed.
    private func take(_ block: Bzip2Block) -> Bzip2Result {
        let result = decodesInline ? Self.decode(block, file: fileName) : pipeline.result(of: block)
        pipeline.release(block)
        return result
    }

    /// A block that would not decode, joined with the blocks after it in its stream until the
    /// join decodes: a block's compressed bits can hold the 48 bits of a block magic by chance,
    /// and the scanner then cut one block in two (or, rarer still, in more). Returns the bytes
    /// and the last block joined; throws `error` when no join of up to `maxJoined` blocks
    /// decodes (the data is corrupt).
    private func recover(_ first: Bzip2Block, _ error: OSMInputError) throws(OSMInputError) -> ([UInt8], Bzip2Block) {
        var joined = BitWriter()
        first.append(to: &joined)
        var last = first
        var bits = first.bits
        var count = 1
        while last.streamCRC == nil && count < Self.maxJoined && bits / 8 <= Self.maxBlockBytes {
            count += 1
            let item = pipeline.nextItem()
            guard case .work(let next) = item else {
                lookahead = item
                break
            }
            _ = take(next)
            next.append(to: &joined)
            (last, bits) = (next, bits + next.bits)
            var block = first
            block.stream = BitWriter.stream(
                ofBlock: BitReader(bytes: joined.bytes), from: 0, to: bits, level: first.level)
            let result = Self.decode(block, file: fileName)
            if result.error == nil { return (result.bytes, last) }
        }
        throw error
    }

    /// A block decoded by libbz2.
    static func decode(_ block: Bzip2Block, file: String) -> Bzip2Result {
        var stream = bz_stream()
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else {
            return Bzip2Result(error: OSMInputError(.io, file: file, "cannot start libbz2"))
        }
        defer { BZ2_bzDecompressEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 20)
        var produced = 0
        var status = BZ_OK
        block.stream.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: CChar.self))
            stream.avail_in = UInt32(input.count)
            while status == BZ_OK {
                if produced == output.count { output += [UInt8](repeating: 0, count: output.count) }
                output.withUnsafeMutableBytes { out in
                    stream.next_out = (out.baseAddress! + produced).assumingMemoryBound(to: CChar.self)
                    stream.avail_out = UInt32(out.count - produced)
                    let before = stream.avail_out
                    status = BZ2_bzDecompress(&stream)
                    produced += Int(before - stream.avail_out)
                    // All input taken and room left, yet no end: the block is cut short.
                    if status == BZ_OK && stream.avail_in == 0 && stream.avail_out > 0 { status = BZ_UNEXPECTED_EOF }
                }
            }
        }
        guard status == BZ_STREAM_END else {
            let reason = status == BZ_MEM_ERROR ? "out of memory in libbz2" : "corrupt bzip2 data"
            return Bzip2Result(error: OSMInputError(.malformed, file: file, at: .byte(block.offset), reason))
        }
        output.removeLast(output.count - produced)
        return Bzip2Result(bytes: output)
    }
}

/// The scanning thread of a `Bzip2Stream`: reads the file, checks each stream's header, cuts
/// its blocks at their magics and hands them over in order, each as a stream of its own, the
/// last with the stream's combined CRC; checks that nothing but another stream follows a
/// stream's end.
struct Bzip2Scanner {
    let input: InputFile
    let pipeline: ReadPipeline<Bzip2Block, Bzip2Result>
    /// Whether the blocks go to decoding threads (else the caller decodes each).
    let parallel: Bool

    func run() {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { scratch.deallocate() }
        var reading = Reading(input: input, scratch: scratch)
        do throws(OSMInputError) {
            try scan(&reading)
            pipeline.publish(.end(inputBytes: input.bytesRead, decodedBytes: 0), toWorkers: false)
        } catch {
            pipeline.publish(.failure(error), toWorkers: false)
        }
    }

    /// The compressed bytes not yet handed over, from the file's byte `base` on.
    private struct Reading {
        let input: InputFile
        let scratch: UnsafeMutableRawBufferPointer
        var bytes: [UInt8] = []
        var base = 0
        var ended = false
        var index = 0

        /// Reads more of the file.
        mutating func fill() throws(OSMInputError) {
            let count = try input.read(into: scratch)
            ended = count == 0
            bytes += scratch[..<count]
        }

        /// Forgets the bytes before byte `count`; returns the bits dropped.
        mutating func drop(_ count: Int) -> Int {
            bytes.removeFirst(count)
            base += count
            return count * 8
        }

        func error(atBit bit: Int, _ message: String) -> OSMInputError {
            OSMInputError(.malformed, file: input.name, at: .byte(base + bit / 8), message)
        }
    }

    private func scan(_ reading: inout Reading) throws(OSMInputError) {
        var streams = 0
        var header = 0  // the bit where the next stream header is expected
        while true {
            while reading.bytes.count - header / 8 < 4 && !reading.ended { try reading.fill() }
            if reading.bytes.count == header / 8 && reading.ended && streams > 0 { return }
            let start = header / 8
            let bytes = reading.bytes
            guard bytes.count - start >= 4, bytes[start..<start + 3].elementsEqual("BZh".utf8),
                (0x31...0x39).contains(bytes[start + 3])
            else {
                throw reading.error(
                    atBit: header,
                    streams == 0 ? "not a bzip2 stream" : "bytes after a bzip2 stream that start no other")
            }
            streams += 1
            header = try scanStream(&reading, level: bytes[start + 3], from: header + 32)
        }
    }

    /// The blocks of the stream whose first magic is at bit `first`; returns the bit where the
    /// next stream would start. Its combined CRC goes with its last block: `Bzip2Stream` checks
    /// it against the blocks it decodes.
    private func scanStream(_ reading: inout Reading, level: UInt8, from first: Int) throws(OSMInputError) -> Int {
        while reading.bytes.count * 8 < first + 48 && !reading.ended { try reading.fill() }
        guard reading.bytes.count * 8 >= first + 48 else { throw reading.error(atBit: first, "truncated bzip2 stream") }
        guard Bzip2Magic(rawValue: BitReader(bytes: reading.bytes).bits(at: first, count: 48)) != nil else {
            throw reading.error(atBit: first, "corrupt bzip2 data (no block after the stream header)")
        }
        var blockStart: Int?
        var searchFrom = first
        // The first end magic passed over in the current block: the stream's real end when
        // what follows it is neither the file's end nor a stream, but junk.
        var passedEnd: Int?
        while true {
            let found = BitReader(bytes: reading.bytes).nextMagic(from: searchFrom, before: reading.bytes.count * 8)
            guard let (bit, magic) = found else {
                if reading.ended, let end = passedEnd, let start = blockStart {
                    try publish(block(from: start, to: end, level: level, ending: true, &reading), &reading)
                    throw reading.error(atBit: (end + 80 + 7) / 8 * 8, "bytes after a bzip2 stream that start no other")
                }
                if reading.ended { throw reading.error(atBit: reading.bytes.count * 8, "truncated bzip2 stream") }
                if reading.bytes.count - (blockStart ?? first) / 8 > Bzip2Stream.maxBlockBytes {
                    throw reading.error(atBit: blockStart ?? first, "corrupt bzip2 data (no block end within 2 MiB)")
                }
                // A magic may straddle the end of what was read.
                searchFrom = max(searchFrom, reading.bytes.count * 8 - 47)
                try reading.fill()
                continue
            }
            var streamCRC: UInt32?
            if magic == .end {
                // An end magic found by chance inside a block is not followed by the end of the file
                // or another stream: the search goes on past it.
                guard let stored = try streamEnd(at: bit, &reading) else {
                    passedEnd = passedEnd ?? bit
                    searchFrom = bit + 1
                    continue
                }
                streamCRC = stored
            }
            if let start = blockStart {
                try publish(block(from: start, to: bit, level: level, ending: streamCRC != nil, &reading), &reading)
                passedEnd = nil
            } else if let streamCRC, streamCRC != 0 {
                throw reading.error(atBit: bit, "corrupt bzip2 data (the stream's CRC does not match its blocks')")
            }
            // Everything before the magic is handed over: forget it.
            let magicBit = bit - reading.drop(bit / 8)
            switch magic {
            case .block:
                blockStart = magicBit
                searchFrom = magicBit + 80  // past the magic and the block's CRC
            case .end:
                return (magicBit + 80 + 7) / 8 * 8
            }
        }
    }

    /// The stream's combined CRC after the end magic at bit `bit`, when the end of the file or
    /// another stream (a header and a magic) follows it; nil when neither does.
    private func streamEnd(at bit: Int, _ reading: inout Reading) throws(OSMInputError) -> UInt32? {
        let next = (bit + 80 + 7) / 8
        while reading.bytes.count < next + 10 && !reading.ended { try reading.fill() }
        let bytes = reading.bytes
        guard bytes.count >= next else { throw reading.error(atBit: bit, "truncated bzip2 stream") }
        let source = BitReader(bytes: bytes)
        let endsFile = bytes.count == next && reading.ended
        let startsStream =
            bytes.count >= next + 10 && bytes[next..<next + 3].elementsEqual("BZh".utf8)
            && (0x31...0x39).contains(bytes[next + 3])
            && Bzip2Magic(rawValue: source.bits(at: (next + 4) * 8, count: 48)) != nil
        return endsFile || startsStream ? UInt32(source.bits(at: bit + 48, count: 32)) : nil
    }

    /// The block of bits `start..<end`, with the stream's combined CRC (after the end magic at
    /// `end`) when `ending`.
    private func block(from start: Int, to end: Int, level: UInt8, ending: Bool, _ reading: inout Reading)
        -> Bzip2Block
    {
        let source = BitReader(bytes: reading.bytes)
        return Bzip2Block(
            index: reading.index, slot: 0,
            stream: BitWriter.stream(ofBlock: source, from: start, to: end, level: level),
            bits: end - start, crc: UInt32(source.bits(at: start + 48, count: 32)), level: level,
            streamCRC: ending ? UInt32(source.bits(at: end + 48, count: 32)) : nil,
            offset: reading.base + start / 8, rawBytesRead: input.bytesRead)
    }

    /// Hands over one block, in the next free slot.
    private func publish(_ block: Bzip2Block, _ reading: inout Reading) throws(OSMInputError) {
        guard let slot = pipeline.acquireSlot() else {
            throw OSMInputError(.io, file: input.name, "the read was stopped")
        }
        var block = block
        block.slot = slot
        reading.index += 1
        pipeline.publish(.work(block), toWorkers: parallel)
    }
}
