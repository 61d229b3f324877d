import InputStreams

/// The block bytes inside `Blob` messages: passed through when raw, inflated when `zlib_data`
/// (the compression every PBF writer uses by default; `ZlibBlockInflater` inflates); lzma,
/// lz4, zstd and the obsolete bzip2 are refused by name. One per decoding thread, reused from
/// blob to blob.
final class BlobInflater {
    private let inflater = ZlibBlockInflater()

    /// The block in `blob` (a `Blob` message), valid until the next call.
    func block(in blob: UnsafeRawBufferPointer) throws(PBFError) -> UnsafeRawBufferPointer {
        var reader = WireReader(blob)
        var rawSize: Int?
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        while let field = try reader.field() {
            switch field.number {
            case 1: raw = try reader.bytes(of: field)
            case 2: rawSize = Int(Int32(truncatingIfNeeded: try reader.varint(of: field)))
            case 3: zlib = try reader.bytes(of: field)
            case 4: throw Self.unsupported("lzma")
            case 5: throw Self.unsupported("bzip2")
            case 6: throw Self.unsupported("lz4")
            case 7: throw Self.unsupported("zstd")
            default: try reader.skip(field)
            }
        }
        if let raw { return raw }
        guard let zlib else { throw .invalid("a blob with no data") }
        guard let rawSize else { throw .invalid("a zlib blob without its raw_size") }
        guard (0...PBFLimits.maxBlobBytes).contains(rawSize) else {
            throw .invalid("a blob of \(rawSize) bytes inflated, over the format's limit of \(PBFLimits.maxBlobBytes)")
        }
        do throws(ZlibBlockInflater.Failure) {
            return try inflater.inflate(zlib, declaredSize: rawSize)
        } catch {
            throw .invalid(error.message)
        }
    }

    private static func unsupported(_ compression: String) -> PBFError {
        .invalid(
            "a blob compressed with \(compression), which Spots does not read (it reads zlib and uncompressed blobs)")
    }
}
