import CIsal

/// Streams the members of a gzip file through ISA-L's inflate (igzip, about three times
/// zlib's speed), one after another, in bounded memory, giving the bytes zlib gives.
///
/// Errors keep zlib's messages and offsets: on any error ISA-L finds (and at an end of input
/// inside a member), the member is read again with zlib from its first byte, the bytes
/// already handed out are skipped, and from there on zlib hands over what it inflates and
/// reports what it finds, as the XML reader parses a failed piece again with expat alone.
/// Reading a member again needs a regular file, which `DecodedStream` makes sure of.
///
/// The two inflaters may stop at different places inside a corrupt deflate block (ISA-L
/// checks some code tables more loosely and can inflate a few bytes that zlib refuses), so
/// ISA-L's bytes are handed over `hold` bytes behind what it has inflated, until its member
/// ends with a good trailer: when it fails, zlib has not been overtaken, and the bytes handed
/// over are zlib's. Only a corrupt block that ISA-L inflates more than `hold` bytes into
/// before failing, where zlib fails sooner, could differ; the fuzz target compares the two.
final class IsalGzipInflater: InflatedBytes {
    private static let inputCapacity = 256 * 1024
    /// Bytes held back behind what ISA-L has inflated, until its member ends.
    static let hold = 1 << 20
    private static let stageCapacity = 2 * hold
    private let file: InputFile
    private let state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
    private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: inputCapacity, alignment: 16)
    /// Inflated bytes not handed over yet: `stage[stageStart..<stageEnd]`.
    private let stage = UnsafeMutableRawBufferPointer.allocate(byteCount: stageCapacity, alignment: 16)
    private var stageStart = 0
    private var stageEnd = 0
    /// Offset in the file of `input`'s first byte, and how many bytes `input` holds.
    private var inputOffset = 0
    private var inputCount = 0
    private var fileEnded = false
    private var finished = false
    /// Counts of output bytes since the start: inflated, and handed over.
    private var inflated = 0
    private var handedOver = 0
    /// Output bytes of members that ended with a good trailer: handed over without holding.
    private var verified = 0
    /// The current member's first byte: its offset in the file, and in the output.
    private var memberStart = 0
    private var memberOutputStart = 0
    /// zlib, reading from the failed member on, once ISA-L failed.
    private var fallback: GzipInflater?

    /// Starts inflating `file`, a regular file, from its first byte.
    init(_ file: InputFile) throws(OSMInputError) {
        self.file = file
        inputOffset = file.position
        memberStart = file.position
        state.initialize(to: inflate_state())
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_GZIP)
        state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_in = 0
    }

    deinit {
        state.deallocate()
        input.deallocate()
        stage.deallocate()
    }

    var rawBytesRead: Int { file.bytesRead }

    /// Fills `output` with inflated bytes; returns 0 after the last member (`InflatedBytes`).
    func read(into output: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        if let fallback { return try fallback.read(into: output) }
        while true {
            let releasable = max(verified, finished ? inflated : inflated - Self.hold) - handedOver
            if releasable > 0 {
                let count = min(releasable, output.count)
                output.baseAddress!.copyMemory(from: stage.baseAddress! + stageStart, byteCount: count)
                stageStart += count
                handedOver += count
                return count
            }
            if finished { return 0 }
            guard try inflateMore() else { return try switchToZlib(output) }
        }
    }

    /// Inflates into the stage's free room; false when ISA-L meets an error, or an end of
    /// input before its member's end.
    private func inflateMore() throws(OSMInputError) -> Bool {
        if stageStart > 0 {
            let staged = stageEnd - stageStart
            stage.baseAddress!.copyMemory(from: stage.baseAddress! + stageStart, byteCount: staged)
            (stageStart, stageEnd) = (0, staged)
        }
        while true {
            if state.pointee.avail_in == 0 && !fileEnded { try refill() }
            if inflated == memberOutputStart && state.pointee.block_state == ISAL_BLOCK_NEW_HDR {
                guard try memberHeaderIsPlain() else { return false }
            }
            if state.pointee.block_state == ISAL_BLOCK_FINISH {
                verified = inflated
                guard state.pointee.avail_in > 0 else {
                    if fileEnded {
                        finished = true
                        return true
                    }
                    continue
                }
                // The next member starts where this one ended.
                memberStart = inputOffset + inputCount - Int(state.pointee.avail_in)
                memberOutputStart = inflated
                isal_inflate_reset(state)
                state.pointee.crc_flag = UInt32(ISAL_GZIP)
                continue  // its header is checked first, as the first member's is
            }
            let room = stage.count - stageEnd
            let availableBefore = state.pointee.avail_in
            state.pointee.next_out = (stage.baseAddress! + stageEnd).assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(room)
            guard isal_inflate(state) >= 0 else { return false }
            let count = room - Int(state.pointee.avail_out)
            stageEnd += count
            inflated += count
            if state.pointee.block_state == ISAL_BLOCK_FINISH { verified = inflated }
            if count > 0 || state.pointee.block_state == ISAL_BLOCK_FINISH { return true }
            // No progress with input left, or the input ended inside the member: zlib judges.
            if state.pointee.avail_in == availableBefore && (state.pointee.avail_in > 0 || fileEnded) { return false }
        }
    }

    /// After ISA-L failed: hands over what is left of the members before, then reads the
    /// failed member again with zlib, skips what was handed over of it, and lets zlib go on.
    private func switchToZlib(_ output: UnsafeMutableRawBufferPointer) throws(OSMInputError) -> Int {
        if handedOver < memberOutputStart {
            verified = memberOutputStart
            return try read(into: output)
        }
        let zlib = try GzipInflater(try InputFile(file.name, from: memberStart))
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { scratch.deallocate() }
        var skipped = 0
        while skipped < handedOver - memberOutputStart {
            let wanted = min(scratch.count, handedOver - memberOutputStart - skipped)
            let count = try zlib.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[..<wanted]))
            guard count > 0 else { break }
            skipped += count
        }
        fallback = zlib
        return try zlib.read(into: output)
    }

    /// Whether the member about to start has a header ISA-L and zlib read alike: the magic,
    /// deflate, and no flag but the text flag, the name and the extra field (zlib refuses
    /// reserved flags, which ISA-L passes, and checks a header CRC; ISA-L inflates from the
    /// comment's first byte where zlib skips the comment). Otherwise zlib reads it.
    private func memberHeaderIsPlain() throws(OSMInputError) -> Bool {
        if state.pointee.avail_in < 4 && !fileEnded { try refill(keeping: Int(state.pointee.avail_in)) }
        let start = inputCount - Int(state.pointee.avail_in)
        guard state.pointee.avail_in >= 4 else { return false }
        let header = UnsafeRawBufferPointer(rebasing: input[start..<start + 4])
        return header[0] == 0x1F && header[1] == 0x8B && header[2] == 8 && header[3] & 0xF2 == 0
    }

    /// Reads more input after the last `keeping` bytes not yet inflated, moved to the front.
    private func refill(keeping: Int = 0) throws(OSMInputError) {
        let kept = inputCount - keeping
        if keeping > 0 { input.baseAddress!.copyMemory(from: input.baseAddress! + kept, byteCount: keeping) }
        inputOffset += kept
        let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: input[keeping...]))
        inputCount = keeping + count
        fileEnded = count == 0
        state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_in = UInt32(inputCount)
    }
}
